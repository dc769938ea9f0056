package io.eventtime.beam;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.eventtime.core.ArrivalPosition;
import java.util.List;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.values.Row;
import org.junit.jupiter.api.Test;

/** A late row's reason in the core's words, read back from the place the transform tells it at. */
class ProblemRowsTest {
  private static final String WHY = "every window of event time 2026-07-18 10:00:30 had closed at watermark"
      + " 2026-07-18 10:02:05 (late policy window)";

  private static Row late(Schema input, long position, String reason) {
    Row row = Row.withSchema(input).addValues("2026-07-18 10:00:30", position).build();
    return ProblemRows.of(ProblemRows.schema(input), row, "t", reason);
  }

  @Test
  void theReasonIsTheTransformsWithoutTheArrivalPositionOrFileAndLine() {
    Schema plain = Schema.builder().addStringField("t").addInt64Field("_arrival").build();
    assertThat(ProblemRows.lateReason(late(plain, 1207, "arrival 1207: " + WHY), 1207)).isEqualTo(WHY);
    assertThat(ProblemRows.lateReason(late(plain, 0, "arrival 0: " + WHY), 0)).isEqualTo(WHY);
    Schema withFiles = ArrivalPositions.withFiles(Schema.builder().addStringField("t").addInt64Field("_arrival"),
        List.of("/data/a.ndjson", "/data/b.ndjson"));
    long position = ArrivalPosition.of(1, 4);
    assertThat(ProblemRows.lateReason(late(withFiles, position, "line 4 of /data/b.ndjson: " + WHY), position))
        .isEqualTo(WHY);
  }

  @Test
  void aReasonNotToldAtTheRowsPlaceIsRefused() {
    Schema plain = Schema.builder().addStringField("t").addInt64Field("_arrival").build();
    assertThatThrownBy(() -> ProblemRows.lateReason(late(plain, 3, "a reason without an arrival 3: in front"), 3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the late row's reason 'a reason without an arrival 3: in front' is not told at its place"
            + " 'arrival 3: ': is it a late row of EventTimeWindow, and 3 its arrival position?");
    assertThatThrownBy(() -> ProblemRows.lateReason(late(plain, 12, "arrival 1: " + WHY), 12))
        .hasMessageStartingWith("the late row's reason 'arrival 1: every window");
  }

  @Test
  void aRowOfTheInputsSchemaIsAttachedAsItIsAndAnyOtherIsBuiltAsBefore() {
    Schema plain = Schema.builder().addStringField("t").addInt64Field("_arrival").build();
    Row row = Row.withSchema(plain).addValues("2026-07-18 10:00:30", 7L).build();
    Row attached = ProblemRows.of(ProblemRows.schema(plain), row, "t", "why");
    assertThat(attached).isEqualTo(Row.withSchema(ProblemRows.schema(plain)).addValues(row, "t", "why").build());
    assertThat(attached.getRow(ProblemRows.ROW)).isSameAs(row);
    assertThat(attached.getString(ProblemRows.REASON)).isEqualTo("why");
    Row other = Row.withSchema(Schema.builder().addInt64Field("t").addInt64Field("_arrival").build())
        .addValues(5L, 7L).build();
    assertThat(ProblemRows.of(ProblemRows.schema(plain), other, "t", "why"))
        .isEqualTo(Row.withSchema(ProblemRows.schema(plain)).addValues(other, "t", "why").build());
  }
}
