package io.eventtime.beam;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.core.Key;
import io.eventtime.core.WindowResult;
import java.time.Instant;
import java.time.LocalDateTime;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.schemas.Schema.FieldType;
import org.apache.beam.sdk.values.Row;
import org.junit.jupiter.api.Test;

/** Values between Beam rows and the core, for every surface that reads or writes Beam rows. */
class BeamValuesTest {
  private static final long START = 1_772_323_200_000L;

  @Test
  void beamValuesAreTheCoresAndBack() {
    assertThat(BeamValues.toCore(new org.joda.time.Instant(START))).isEqualTo(Instant.ofEpochMilli(START));
    assertThat(BeamValues.toCore(LocalDateTime.parse("2026-03-01T00:00:00"))).isEqualTo(Instant.ofEpochMilli(START));
    assertThat(BeamValues.toCore(7)).isEqualTo(7L);
    assertThat(BeamValues.toCore(null)).isNull();
    assertThat(BeamValues.toBeam(Instant.ofEpochMilli(START), FieldType.DATETIME)).isEqualTo(new org.joda.time.Instant(START));
    assertThat(BeamValues.toBeam(7L, FieldType.DOUBLE)).isEqualTo(7.0);
    assertThat(BeamValues.toBeam(2.5, FieldType.STRING)).isEqualTo("2.5");
    assertThat(BeamValues.toBeam(null, FieldType.INT64)).isNull();
  }

  @Test
  void aWindowRowIsTheCoresResult_keysThenBoundsThenAggregates() {
    Schema keyed = Schema.builder().addNullableField("user", FieldType.STRING).addNullableField("shard", FieldType.INT32)
        .addDateTimeField("window_start").addDateTimeField("window_end")
        .addNullableField("n", FieldType.INT64).addNullableField("last", FieldType.DATETIME).build();
    Row row = Row.withSchema(keyed).addValues("ann", 3, new org.joda.time.Instant(START),
        new org.joda.time.Instant(START + 60_000), 5L, new org.joda.time.Instant(START + 59_000)).build();
    assertThat(BeamValues.windowResult(row, 2)).isEqualTo(new WindowResult(Key.of("ann", 3L), START, START + 60_000,
        new Object[] {5L, Instant.ofEpochMilli(START + 59_000)}));

    Schema global = Schema.builder().addDateTimeField("s").addDateTimeField("e").addNullableField("n", FieldType.INT64)
        .build();
    WindowResult all = BeamValues.windowResult(Row.withSchema(global).addValues(new org.joda.time.Instant(START),
        new org.joda.time.Instant(START + 60_000), null).build(), 0);
    assertThat(all).isEqualTo(new WindowResult(Key.GLOBAL, START, START + 60_000, new Object[] {null}));
  }
}
