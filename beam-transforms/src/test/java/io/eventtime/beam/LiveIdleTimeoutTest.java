package io.eventtime.beam;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.eventtime.core.AggregateSpec;
import io.eventtime.core.LatePolicy;
import io.eventtime.core.Stats;
import io.eventtime.core.TimeText;
import io.eventtime.core.WindowQuery;
import io.eventtime.core.WindowSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.coders.RowCoder;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.display.DisplayData;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.GlobalWindow;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TimestampedValue;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The idle timeout on the live path (docs/semantics.md, "Idle partitions", example L5) on the
 * DirectRunner with TestStream driving the processing time (the wall clock the timeout reads), so
 * that it is not a timed test. A window row emitted while the stream runs carries the timestamp of
 * the release that closed it; one emitted at the end of the input carries the end of the global
 * window: that is how the test tells them apart.
 */
class LiveIdleTimeoutTest {
  private static final Schema SCHEMA = Schema.builder().addInt32Field(KafkaRows.PARTITION_FIELD)
      .addStringField("event_time").addInt64Field(EventTimeWindow.DEFAULT_ARRIVAL_FIELD).build();
  private static final WindowQuery L5 = WindowQuery.of(WindowSpec.tumbling(600_000)).withDelay(60_000)
      .withLatePolicy(LatePolicy.WINDOW).withAggregates(AggregateSpec.countAll("n"));
  private static final Queue<String> OUT = new ConcurrentLinkedQueue<>();

  /**
   * L5: P1 has one row and then none for 30 s while the wall clock reaches 00:40:00; P0 had rows
   * 20 s before. P1's watermark becomes 00:39, windows 00:00 and 00:10 leave while the stream runs,
   * 00:20 at its end; P1's later 00:15 is late, the reason naming the idle timeout.
   */
  @Test
  void exampleL5_aQuietPartitionGoesIdle() {
    run(EventTimeWindow.of(L5).withTimeField("event_time")
        .withPartitionField(KafkaRows.PARTITION_FIELD).withPartitions(0, 1)
        .withIdleTimeout(java.time.Duration.ofSeconds(30)), new Stats(5, 3, 1, 3, 4, 0), List.of(
        "window " + at("00:00") + "|" + at("00:10") + "|2 while running",
        "window " + at("00:10") + "|" + at("00:20") + "|1 while running",
        "window " + at("00:20") + "|" + at("00:30") + "|1 at the end",
        "late partition 1, arrival 2: every window of event time " + at("00:15") + " had closed at watermark "
            + at("00:39") + " (late policy window); that watermark is the wall clock " + at("00:40")
            + " less the delay, set by the idle timeout after partition 1 had no row for 30 s"));
  }

  /**
   * L5 without the timeout: P1's watermark stays at 00:04 while it is quiet, so nothing leaves
   * then; its later 00:15 is on time and moves it to 00:14, which closes window 00:00 only (with
   * the idle timeout, 00:10 had left with one row and 00:15 was late).
   */
  @Test
  void withoutTheTimeoutNothingIsEmittedWhileP1IsQuiet() {
    run(EventTimeWindow.of(L5).withTimeField("event_time")
        .withPartitionField(KafkaRows.PARTITION_FIELD).withPartitions(0, 1), new Stats(5, 3, 0, 3, 5, 0), List.of(
        "window " + at("00:00") + "|" + at("00:10") + "|2 while running",
        "window " + at("00:10") + "|" + at("00:20") + "|2 at the end",
        "window " + at("00:20") + "|" + at("00:30") + "|1 at the end"));
  }

  /** A partition that never had a row goes idle too, counted from the start of the run. */
  @Test
  void aPartitionWithoutRowsGoesIdle() {
    OUT.clear();
    Pipeline p = LiveWindowExamplesTest.pipeline();
    TestStream<Row> stream = TestStream.create(RowCoder.of(SCHEMA))
        .advanceProcessingTime(toWallClock("00:39:29"))
        .advanceProcessingTime(Duration.standardSeconds(10))
        .addElements(TimestampedValue.of(row(0, "00:01", 1), stamp(1)), TimestampedValue.of(row(0, "00:25", 2), stamp(2)))
        .advanceWatermarkTo(stamp(3))
        // 00:40:00: P1 has had no row since the start (00:39:29), P0 for 21 s
        .advanceProcessingTime(Duration.standardSeconds(21))
        .advanceWatermarkToInfinity();
    gather(p.apply(stream).apply("L5", EventTimeWindow.of(L5).withTimeField("event_time")
        .withPartitionField(KafkaRows.PARTITION_FIELD).withPartitions(0, 1)
        .withIdleTimeout(java.time.Duration.ofSeconds(30))));
    p.run().waitUntilFinish();
    assertThat(new ArrayList<>(OUT)).containsExactlyInAnyOrder(
        "window " + at("00:00") + "|" + at("00:10") + "|1 while running",
        "window " + at("00:20") + "|" + at("00:30") + "|1 at the end");
  }

  @Test
  void theSettingIsCheckedAndShown() {
    EventTimeWindow window = EventTimeWindow.of(L5).withTimeField("event_time");
    assertThatThrownBy(() -> window.withIdleTimeout(java.time.Duration.ZERO))
        .hasMessage("the idle timeout is PT0S: give a duration greater than zero (e.g. Duration.ofSeconds(30)), or"
            + " leave it out for no idle timeout");
    assertThatThrownBy(() -> window.withIdleTimeout(java.time.Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("PT-1S");
    assertThatThrownBy(() -> window.withIdleTimeout(null))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is null");
    EventTimeWindow idle = window.withIdleTimeout(java.time.Duration.ofSeconds(30));
    assertThat(DisplayData.from(idle).items()).anySatisfy(item -> {
      assertThat(item.getKey()).isEqualTo("idleTimeout");
      assertThat(item.getLabel()).isEqualTo("Idle timeout (wall clock)");
    });
    assertThat(DisplayData.from(window).items()).noneSatisfy(item -> assertThat(item.getKey()).isEqualTo("idleTimeout"));

    Pipeline p = LiveWindowExamplesTest.pipeline();
    assertThatThrownBy(() -> p.apply(Create.of(row(0, "00:01", 1)).withRowSchema(SCHEMA)).apply(idle))
        .isInstanceOf(IllegalArgumentException.class).hasMessage(EventTimeWindow.BOUNDED_IDLE_REFUSAL);
  }

  /** L5 with the partitions named 3 and 7 (Kafka's ids need not be their places): the reasons name them by id. */
  @Test
  void exampleL5_theReasonNamesPartitionsByTheirIds() {
    run(EventTimeWindow.of(L5).withTimeField("event_time")
        .withPartitionField(KafkaRows.PARTITION_FIELD).withPartitions(3, 7)
        .withIdleTimeout(java.time.Duration.ofSeconds(30)), 3, 7, new Stats(5, 3, 1, 3, 4, 0), List.of(
        "window " + at("00:00") + "|" + at("00:10") + "|2 while running",
        "window " + at("00:10") + "|" + at("00:20") + "|1 while running",
        "window " + at("00:20") + "|" + at("00:30") + "|1 at the end",
        "late partition 7, arrival 2: every window of event time " + at("00:15") + " had closed at watermark "
            + at("00:39") + " (late policy window); that watermark is the wall clock " + at("00:40")
            + " less the delay, set by the idle timeout after partition 7 had no row for 30 s"));
  }

  /** Runs L5's stream through {@code window} and asserts what came out and the stats. */
  private static void run(EventTimeWindow window, Stats stats, List<String> expected) {
    run(window, 0, 1, stats, expected);
  }

  /** {@link #run(EventTimeWindow, Stats, List)} with L5's P0 and P1 named {@code p0} and {@code p1}. */
  private static void run(EventTimeWindow window, int p0, int p1, Stats stats, List<String> expected) {
    OUT.clear();
    Pipeline p = LiveWindowExamplesTest.pipeline();
    TestStream<Row> stream = TestStream.create(RowCoder.of(SCHEMA))
        // the start of the run: both partitions' idle timers set again from 00:39:29
        .advanceProcessingTime(toWallClock("00:39:29"))
        .advanceProcessingTime(Duration.standardSeconds(1))
        .addElements(TimestampedValue.of(row(p1, "00:05", 1), stamp(1)))
        .advanceWatermarkTo(stamp(2))
        .advanceProcessingTime(Duration.standardSeconds(10))
        .addElements(TimestampedValue.of(row(p0, "00:01", 1), stamp(3)), TimestampedValue.of(row(p0, "00:12", 2), stamp(4)),
            TimestampedValue.of(row(p0, "00:25", 3), stamp(5)))
        .advanceWatermarkTo(stamp(6))
        // 00:40:00: P1 has had no row for 30 s, P0 for 20 s
        .advanceProcessingTime(Duration.standardSeconds(20))
        .advanceWatermarkTo(stamp(6).plus(Duration.millis(500)))
        .advanceProcessingTime(Duration.standardSeconds(1))
        .addElements(TimestampedValue.of(row(p1, "00:15", 2), stamp(7)))
        .advanceWatermarkTo(stamp(8))
        .advanceWatermarkToInfinity();
    gather(p.apply(stream).apply("L5", window));
    PipelineResult result = p.run();
    result.waitUntilFinish();
    assertThat(new ArrayList<>(OUT)).containsExactlyInAnyOrderElementsOf(expected);
    assertThat(EventTimeMetrics.stats(result, "L5")).isEqualTo(stats);
  }

  private static void gather(EventTimeWindowResult r) {
    r.windows().apply("GatherWindows", ParDo.of(new Gather("window ", false)));
    r.late().apply("GatherLate", ParDo.of(new Gather("late ", true)));
  }

  /** Keeps each row as text in {@link #OUT}: a window row with when it left, a late row with its reason. */
  private static final class Gather extends DoFn<Row, Void> {
    private final String label;
    private final boolean problem;

    Gather(String label, boolean problem) {
      this.label = label;
      this.problem = problem;
    }

    @ProcessElement
    public void process(@Element Row r, @Timestamp Instant stamp) {
      if (problem) {
        OUT.add(label + r.getString(ProblemRows.REASON));
      } else {
        boolean atEnd = stamp.equals(GlobalWindow.INSTANCE.maxTimestamp());
        OUT.add(label + ConformanceSuite.formatRow(r) + (atEnd ? " at the end" : " while running"));
      }
    }
  }

  /** How far to advance the TestStream's processing time, which starts at the least timestamp, to 2026-03-01 {@code hhmmss}. */
  private static Duration toWallClock(String hhmmss) {
    long target = java.time.Instant.parse("2026-03-01T" + hhmmss + "Z").toEpochMilli();
    return Duration.millis(target - BoundedWindow.TIMESTAMP_MIN_VALUE.getMillis());
  }

  private static Instant stamp(int i) {
    return new Instant(LiveStreams.FIRST_STAMP + 1000L * i);
  }

  private static String at(String hhmm) {
    return TimeText.format(java.time.Instant.parse("2026-03-01T" + hhmm + ":00Z").toEpochMilli());
  }

  private static Row row(int partition, String hhmm, long position) {
    return Row.withSchema(SCHEMA).addValues(partition, at(hhmm), position).build();
  }
}
