package io.eventtime.beam;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.eventtime.core.AggregateSpec;
import io.eventtime.core.EventTimeParser;
import io.eventtime.core.WindowSpec;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.schemas.Schema.FieldType;
import org.apache.beam.sdk.schemas.logicaltypes.NanosInstant;
import org.apache.beam.sdk.schemas.logicaltypes.SqlTypes;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.transforms.Combine;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.Sum;
import org.apache.beam.sdk.transforms.windowing.FixedWindows;
import org.apache.beam.sdk.transforms.windowing.Window;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.joda.time.Duration;
import org.junit.jupiter.api.Test;

/** Beam's own time types and durations, as a Beam developer holds them. */
class BeamTypesTest {
  private static Pipeline pipeline() {
    return Pipeline.create(PipelineOptionsFactory.fromArgs("--runner=DirectRunner").create());
  }

  private static PCollection<Row> rows(Pipeline p, String name, FieldType timeType, Object... times) {
    Schema schema = Schema.builder().addNullableField("t", timeType).addInt64Field("_arrival").build();
    Create.Values<Row> create = Create.empty(schema);
    java.util.List<Row> rows = new java.util.ArrayList<>();
    for (int i = 0; i < times.length; i++) {
      rows.add(Row.withSchema(schema).addValues(times[i], (long) i + 1).build());
    }
    return p.apply(name, rows.isEmpty() ? create : Create.of(rows).withRowSchema(schema));
  }

  private static EventTimeWindow perMinute() {
    return EventTimeWindow.of(WindowSpecs.tumbling(Duration.standardMinutes(1))).withTimeField("t")
        .withAggregates(AggregateSpec.countAll("n"));
  }

  @Test
  void sqlTimestampMicrosAndNanosInstantsAndSqlDateTimesAreTimeFields() {
    Pipeline p = pipeline();
    Instant a = Instant.parse("2026-03-01T00:00:10.123456Z");
    EventTimeWindowResult micros = rows(p, "Micros", FieldType.logicalType(SqlTypes.TIMESTAMP), a,
        Instant.parse("2026-03-01T00:01:59.999999Z")).apply("W1", perMinute());
    EventTimeWindowResult nanos = rows(p, "Nanos", FieldType.logicalType(new NanosInstant()), a,
        Instant.parse("2026-03-01T00:01:59.999999999Z")).apply("W2", perMinute());
    EventTimeWindowResult local = rows(p, "Local", FieldType.logicalType(SqlTypes.DATETIME),
        LocalDateTime.parse("2026-03-01T01:30:10"), LocalDateTime.parse("2026-03-01T01:31:00"))
        .apply("W3", perMinute().withTimeParser(EventTimeParser.defaults().withZone(ZoneId.of("Europe/Paris"))));
    PAssert.that(ConformanceSuite.format("MicrosRows", micros.windows())).containsInAnyOrder(
        "2026-03-01 00:00:00|2026-03-01 00:01:00|1", "2026-03-01 00:01:00|2026-03-01 00:02:00|1");
    PAssert.that(ConformanceSuite.format("NanosRows", nanos.windows())).containsInAnyOrder(
        "2026-03-01 00:00:00|2026-03-01 00:01:00|1", "2026-03-01 00:01:00|2026-03-01 00:02:00|1");
    PAssert.that(ConformanceSuite.format("LocalRows", local.windows())).containsInAnyOrder(
        "2026-03-01 00:30:00|2026-03-01 00:31:00|1", "2026-03-01 00:31:00|2026-03-01 00:32:00|1");
    p.run().waitUntilFinish();
  }

  @Test
  void jodaAndJavaDurationsAndMillisGiveTheSameSpecs_andHoppingIsSpelledAsSlidingWindows() {
    assertThat(WindowSpecs.hopping(Duration.standardMinutes(10)).every(Duration.standardMinutes(5)))
        .isEqualTo(WindowSpec.hopping(300_000, 600_000))
        .isEqualTo(WindowSpecs.hopping(java.time.Duration.ofMinutes(10)).every(java.time.Duration.ofMinutes(5)))
        .isEqualTo(WindowSpecs.hopping(600_000).every(300_000));
    assertThat(WindowSpecs.tumbling(Duration.standardSeconds(30))).isEqualTo(WindowSpec.tumbling(30_000))
        .isEqualTo(WindowSpecs.tumbling(java.time.Duration.ofSeconds(30))).isEqualTo(WindowSpecs.tumbling(30_000));
    assertThat(WindowSpecs.session(Duration.standardMinutes(5))).isEqualTo(WindowSpec.session(300_000))
        .isEqualTo(WindowSpecs.session(java.time.Duration.ofMinutes(5))).isEqualTo(WindowSpecs.session(300_000));
    assertThatThrownBy(() -> WindowSpecs.hopping(Duration.standardMinutes(5)).every(Duration.standardMinutes(10)))
        .hasMessageStartingWith("the hopping window slide (600000 ms) is larger than its size (300000 ms)");
    assertThatThrownBy(() -> WindowSpecs.tumbling((Duration) null))
        .hasMessage("the tumbling window size is null: give a duration");
    assertThatThrownBy(() -> WindowSpecs.hopping(Duration.standardMinutes(5)).every((java.time.Duration) null))
        .hasMessage("the hopping window slide is null: give a duration");

    EventTimeWindow w = perMinute();
    assertThat(w.withWatermarkDelay(Duration.standardMinutes(5)).query())
        .isEqualTo(w.withWatermarkDelay(java.time.Duration.ofMinutes(5)).query())
        .isEqualTo(w.withWatermarkDelay(300_000L).query());
    assertThat(w.withWatermarkDelay(Duration.standardMinutes(5)).query().delayMillis()).isEqualTo(300_000L);
  }

  @Test
  void rowsThatCarryTheirEventTimeAsTimestampAreWindowedAgainAsWell() {
    Pipeline p = pipeline();
    EventTimestamps.Result stamped = p.apply(NdjsonIO.read(ConformanceSuite.sampleEvents().toString())).rows()
        .apply(EventTimestamps.fromField("event_time"));
    EventTimeWindowResult minutes = stamped.rows().apply(EventTimeWindow.of(WindowSpec.tumbling(60_000))
        .withTimeField("event_time").withKeys("merchant").withAggregates(AggregateSpec.countAll("n")));
    PAssert.that(minutes.windows()
            .apply("TwoMinutes", Window.into(FixedWindows.of(Duration.standardMinutes(2))))
            .apply("Rows", MapElements.into(TypeDescriptors.longs()).via((Row r) -> r.getInt64("n")))
            .apply("Sum", Combine.globally(Sum.ofLongs()).withoutDefaults())
            .apply("InWindow", ParDo.of(new ConformanceSuite.InWindowFn())))
        .containsInAnyOrder("[2026-07-18 10:00:00, 2026-07-18 10:02:00) 4", "[2026-07-18 10:02:00, 2026-07-18 10:04:00) 1");
    p.run().waitUntilFinish();
  }

  @Test
  void aNullWatermarkDelayIsRefusedWithAMessage() {
    EventTimeWindow w = perMinute();
    assertThatThrownBy(() -> w.withWatermarkDelay((java.time.Duration) null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the watermark delay is null: give a duration of zero or more (Duration.ZERO for none)");
    assertThatThrownBy(() -> w.withWatermarkDelay((Duration) null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the watermark delay is null: give a duration of zero or more (Duration.ZERO for none)");
  }
}
