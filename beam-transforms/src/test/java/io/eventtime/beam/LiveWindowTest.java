package io.eventtime.beam;

import static io.eventtime.core.contract.WorkedExamples.A;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.eventtime.core.Stats;
import io.eventtime.core.WindowSpec;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.runners.spark.FakeSparkRunner;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.coders.RowCoder;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.windowing.GlobalWindow;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TimestampedValue;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * What only the live path has: windows leave while the stream runs, rejected rows go out at once
 * while windows keep coming, a partition whose order breaks fails the run, and what it cannot run
 * is refused before the run.
 */
class LiveWindowTest {
  /**
   * Example A with a row of no usable time inserted as the fourth, fed one row a second, the
   * watermark half a second past each. Each window row and late row is stamped just after the
   * arrival of the row that decided it: Beam lets no step stamp an output before the element or
   * timer it handles, so a row stamped at second 7 left while the watermark was still there,
   * before the next rows and the drain. Only the window still open at the end carries the end of
   * the global window. The rejected row goes out at once, with the timestamp it came with.
   */
  @Test
  void windowsLateRowsAndRejectedRowsLeaveWhileTheStreamRuns() {
    List<Row> rows = new ArrayList<>();
    List<Row> exampleA = LiveWindowExamplesTest.exampleARows();
    long position = 1;
    for (int i = 0; i < exampleA.size(); i++) {
      if (i == 3) {
        rows.add(Row.withSchema(LiveWindowExamplesTest.A_SCHEMA).addValues("soon", position++).build());
      }
      rows.add(Row.withSchema(LiveWindowExamplesTest.A_SCHEMA)
          .addValues(exampleA.get(i).getString("event_time"), position++).build());
    }
    Pipeline p = LiveWindowExamplesTest.pipeline();
    PCollection<Row> live = p.apply(LiveStreams.oneByOne(LiveWindowExamplesTest.A_SCHEMA, rows));
    EventTimeWindowResult r = live.apply("Tumbling",
        LiveWindowExamplesTest.exampleA(WindowSpec.tumbling(A.tumbling().sizeMillis())));
    List<String> windows = A.tumbling().texts();
    // the seventh row of example A (00:30), the eighth here, arrives at second 7 and closes 00:00 and 00:10
    PAssert.that(stamps("Windows", r.windows())).containsInAnyOrder(windows.get(0) + "@" + second(7, 1),
        windows.get(1) + "@" + second(7, 1), windows.get(2) + "@" + GlobalWindow.INSTANCE.maxTimestamp());
    // the late 00:05, the sixth here, arrives at second 5
    PAssert.that(stamps("Late", r.late())).containsInAnyOrder("2026-03-01 00:05:00|6|event_time|arrival 6: event"
        + " time 2026-03-01 00:05:00 is behind the watermark 2026-03-01 00:07:00 (late policy event)@" + second(5, 1));
    PAssert.that(stamps("Rejected", r.rejected())).containsInAnyOrder("soon|4|event_time|arrival 4, field event_time: "
        + rejectedReason() + "@" + second(3, 0));
    PipelineResult result = p.run();
    result.waitUntilFinish();
    Stats a = A.tumbling().stats();
    assertThat(EventTimeMetrics.stats(result, "Tumbling")).isEqualTo(new Stats(a.rowsIn() + 1, a.rowsOut(),
        a.lateDropped(), a.windowsClosed(), a.rowsFolded(), 1));
  }

  /** What the bounded path says of the time "soon", the same words on both paths. */
  private static String rejectedReason() {
    try {
      BeamValues.eventTime(io.eventtime.core.EventTimeParser.defaults(), "soon");
    } catch (io.eventtime.core.EventTimeException e) {
      return e.getMessage();
    }
    throw new AssertionError("'soon' was read as a time");
  }

  private static PCollection<String> stamps(String name, PCollection<Row> rows) {
    return rows.apply(name + "Stamps", ParDo.of(new ConformanceSuite.StampFn()));
  }

  /** The arrival stamp of row {@code s} (0 for the first) and {@code millis}. */
  private static Instant second(int s, long millis) {
    return new Instant(LiveStreams.FIRST_STAMP + 1000L * s + millis);
  }

  @Test
  void aRowThatComesAfterALaterPositionWasReleased_failsTheRunNamingBoth() {
    Pipeline p = LiveWindowExamplesTest.pipeline();
    TestStream<Row> stream = TestStream.create(RowCoder.of(LiveWindowExamplesTest.A_SCHEMA))
        .addElements(TimestampedValue.of(row("2026-03-01 00:01:00", 2), new Instant(LiveStreams.FIRST_STAMP)))
        .advanceWatermarkTo(new Instant(LiveStreams.FIRST_STAMP + 10))
        .addElements(TimestampedValue.of(row("2026-03-01 00:02:00", 1), new Instant(LiveStreams.FIRST_STAMP + 20)))
        .advanceWatermarkToInfinity();
    p.apply(stream).apply(LiveWindowExamplesTest.exampleA(WindowSpec.tumbling(60_000)));
    assertThatThrownBy(() -> p.run().waitUntilFinish()).hasRootCauseMessage("the row at arrival 1 of partition 0"
        + " came after the row at arrival 2 had been released, so the order in which the partition's rows arrived,"
        + " which decides what is late, is not known: each row needs its own position, and the Beam timestamps of a"
        + " partition's rows (their arrival stamps) must never go back as their positions go on");
  }

  private static Row row(String time, long position) {
    return Row.withSchema(LiveWindowExamplesTest.A_SCHEMA).addValues(time, position).build();
  }

  private static PCollection<Row> liveInput(Pipeline p) {
    return p.apply(TestStream.create(RowCoder.of(LiveWindowExamplesTest.A_SCHEMA))
        .addElements(TimestampedValue.of(row("2026-03-01 00:01:00", 1), new Instant(LiveStreams.FIRST_STAMP)))
        .advanceWatermarkToInfinity());
  }

  @Test
  void anUnboundedInputOnSpark_isRefusedBeforeTheRun_aBoundedOneIsNot() {
    PipelineOptions options = PipelineOptionsFactory.create();
    options.setRunner(FakeSparkRunner.class);
    Pipeline p = Pipeline.create(options);
    EventTimeWindow window = LiveWindowExamplesTest.exampleA(WindowSpec.tumbling(60_000));
    PCollection<Row> live = liveInput(p);
    assertThatThrownBy(() -> live.apply("Live", window)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("EventTimeWindow on an unbounded input needs event-time timers, which Beam's Spark runner does not"
            + " run in streaming mode (Beam 2.62): run it on the Direct runner, the Flink runner"
            + " (--runner=FlinkRunner --streaming) or Dataflow, or give it a bounded input")
        .hasMessage(EventTimeWindow.SPARK_REFUSAL);
    PCollection<Row> bounded = p.apply(Create.of(LiveWindowExamplesTest.exampleARows())
        .withRowSchema(LiveWindowExamplesTest.A_SCHEMA));
    assertThat(bounded.apply("Bounded", window).windows()).isNotNull();
  }

  @Test
  void windowsInCloseOrder_withoutCloseOrder_isRefusedNamingTheOption() {
    Pipeline p = LiveWindowExamplesTest.pipeline();
    EventTimeWindowResult r = liveInput(p).apply("Live", LiveWindowExamplesTest.exampleA(WindowSpec.tumbling(60_000)));
    assertThatThrownBy(r::windowsInCloseOrder).isInstanceOf(IllegalStateException.class)
        .hasMessage("the window rows are not ranked: apply EventTimeWindow...withCloseOrder() to have them in close order");
  }
}
