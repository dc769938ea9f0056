package io.eventtime.beam;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.eventtime.core.AggregateSpec;
import io.eventtime.core.WindowQuery;
import io.eventtime.core.WindowSpec;
import java.util.List;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.coders.RowCoder;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.display.DisplayData;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TimestampedValue;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The partition settings of {@link EventTimeWindow}: bad ones refused before the run with what
 * was wrong, the display data, and a row naming no partition of the stream rejected with the
 * reason while the others are folded.
 */
class LivePartitionSettingsTest {
  private static final Schema SCHEMA = Schema.builder().addInt32Field("part").addStringField("p_text")
      .addNullableField("p_null", Schema.FieldType.INT32).addStringField("event_time")
      .addInt64Field(EventTimeWindow.DEFAULT_ARRIVAL_FIELD).build();

  private static EventTimeWindow window() {
    return EventTimeWindow.of(WindowQuery.of(WindowSpec.tumbling(600_000)).withAggregates(AggregateSpec.countAll("n")))
        .withTimeField("event_time");
  }

  private static Row row(int part, Integer nullable, String time, long position) {
    return Row.withSchema(SCHEMA).addValues(part, "x", nullable, time, position).build();
  }

  private static PCollection<Row> live(Pipeline p, Row... rows) {
    TestStream.Builder<Row> stream = TestStream.create(RowCoder.of(SCHEMA));
    for (Row r : rows) {
      stream = stream.addElements(TimestampedValue.of(r, new Instant(LiveStreams.FIRST_STAMP)));
    }
    return p.apply(stream.advanceWatermarkToInfinity());
  }

  @Test
  void badIdsAreRefusedWhenGiven() {
    assertThatThrownBy(() -> window().withPartitions()).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("withPartitions() names no partition: give every partition of the stream, at least one");
    assertThatThrownBy(() -> window().withPartitions(0, 2, 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("withPartitions(0, 2, 0) names partition 0 twice: give each partition once");
    assertThatThrownBy(() -> window().withPartitionField("")).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the partition field is empty: name the integer field that holds each row's partition");
  }

  @Test
  void badFieldsAndMissingSettingsAreRefusedWhenApplied() {
    Pipeline p = LiveWindowExamplesTest.pipeline();
    PCollection<Row> live = live(p, row(0, 0, "2026-03-01 00:01:00", 1));
    assertThatThrownBy(() -> live.apply("a", window().withPartitionField("nope").withPartitions(0)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the partition field nope is not in the input, whose fields are [part, p_text, p_null, event_time,"
            + " _arrival]");
    assertThatThrownBy(() -> live.apply("b", window().withPartitionField("p_text").withPartitions(0)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the partition field p_text is STRING, not an integer (INT32, INT64, INT16 or BYTE): it must hold"
            + " each row's partition number");
    assertThatThrownBy(() -> live.apply("c", window().withPartitionField("part")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("withPartitionField(\"part\") on an unbounded input needs withPartitions(...), every partition of"
            + " the stream (KafkaRows.Result.partitions() for a topic): a partition that has sent no row yet must hold"
            + " the windows back, so the transform must know it");
    assertThatThrownBy(() -> live.apply("d", window().withPartitions(0, 1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("withPartitions(0, 1) needs withPartitionField(...): the field that says which of these partitions"
            + " each row comes from");
  }

  @Test
  void aBoundedInputIsOnePartition_thePartitionSettingsAreRefusedThere() {
    Pipeline p = LiveWindowExamplesTest.pipeline();
    PCollection<Row> bounded = p.apply(Create.of(row(0, 0, "2026-03-01 00:01:00", 1)).withRowSchema(SCHEMA));
    assertThatThrownBy(() -> bounded.apply(window().withPartitionField("part").withPartitions(0)))
        .isInstanceOf(IllegalArgumentException.class).hasMessage(EventTimeWindow.BOUNDED_PARTITIONS_REFUSAL);
  }

  @Test
  void displayDataNamesTheFieldAndThePartitionsInOrder() {
    DisplayData data = DisplayData.from(window().withPartitionField("part").withPartitions(List.of(3, 1, 2)));
    assertThat(data.items()).anySatisfy(i -> {
      assertThat(i.getKey()).isEqualTo("partitionField");
      assertThat(i.getValue()).isEqualTo("part");
    });
    assertThat(data.items()).anySatisfy(i -> {
      assertThat(i.getKey()).isEqualTo("partitions");
      assertThat(i.getValue()).isEqualTo("1, 2, 3");
    });
  }

  @Test
  void aRowOfAnotherPartitionOrNone_isRejectedWithTheReason_theOthersAreFolded() {
    Pipeline p = LiveWindowExamplesTest.pipeline();
    PCollection<Row> live = live(p, row(0, 0, "2026-03-01 00:01:00", 1), row(7, 7, "2026-03-01 00:02:00", 2),
        row(1, null, "2026-03-01 00:03:00", 3), row(1, 1, "2026-03-01 00:04:00", 4));
    EventTimeWindowResult byPart = live.apply("ByPart", window().withPartitionField("part").withPartitions(0, 1));
    EventTimeWindowResult byNullable = live.apply("ByNullable",
        window().withPartitionField("p_null").withPartitions(0, 1));
    PAssert.that(byPart.rejected().apply("PartReasons", MapElements.into(TypeDescriptors.strings())
        .via((Row r) -> r.getString(ProblemRows.FIELD) + ": " + r.getString(ProblemRows.REASON))))
        .containsInAnyOrder(
            "part: arrival 2, field part: partition 7 is not one of the stream's partitions 0, 1 (withPartitions)");
    PAssert.that(byNullable.rejected().apply("NullReasons", MapElements.into(TypeDescriptors.strings())
        .via((Row r) -> r.getString(ProblemRows.FIELD) + ": " + r.getString(ProblemRows.REASON))))
        .containsInAnyOrder(
            "p_null: arrival 2, field p_null: partition 7 is not one of the stream's partitions 0, 1"
                + " (withPartitions)",
            "p_null: arrival 3, field p_null: the row names no partition (null), so its lateness cannot be decided");
    PAssert.that(byPart.windows().apply("PartRows", MapElements.into(TypeDescriptors.strings())
        .via(ConformanceSuite::formatRow))).containsInAnyOrder("2026-03-01 00:00:00|2026-03-01 00:10:00|3");
    PAssert.that(byNullable.windows().apply("NullRows", MapElements.into(TypeDescriptors.strings())
        .via(ConformanceSuite::formatRow))).containsInAnyOrder("2026-03-01 00:00:00|2026-03-01 00:10:00|2");
    p.run().waitUntilFinish();
  }
}
