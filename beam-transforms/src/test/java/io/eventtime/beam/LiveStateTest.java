package io.eventtime.beam;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.eventtime.core.AggregateKind;
import io.eventtime.core.AggregateSpec;
import io.eventtime.core.Aggregates;
import io.eventtime.core.EventTimeParser;
import io.eventtime.core.Key;
import io.eventtime.core.LatePolicy;
import io.eventtime.core.OpenState;
import io.eventtime.core.PartitionedWindowProcessor;
import io.eventtime.core.Stats;
import io.eventtime.core.TimeText;
import io.eventtime.core.WindowQuery;
import io.eventtime.core.WindowResult;
import io.eventtime.core.WindowSpec;
import io.eventtime.core.state.StateCodec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Random;
import java.util.StringJoiner;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.coders.RowCoder;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.Filter;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TimestampedValue;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link EventTimeWindow#withState} on an unbounded input (docs/semantics.md, "End of a live
 * stream"; docs/design/live-streams.md 1.6 and 3.3 step 5) on the DirectRunner with TestStream:
 * the end of the input hands the open windows and every partition's watermark and position to the
 * state instead of emitting them, and the next run goes on from it. Example L6 exactly; random
 * streams of one and several partitions cut at random into two live runs equal one uninterrupted
 * run of the core's processor (rows, stats of each run, the state left); a bounded run's state
 * continued by a live run and the reverse (example B); the idle timeout's advance kept in the
 * state; rows the state has taken in already rejected; the gauges.
 */
class LiveStateTest {
  private static final Schema SCHEMA = Schema.builder().addInt32Field("stream").addInt32Field(KafkaRows.PARTITION_FIELD)
      .addStringField("user").addInt64Field("amount").addNullableField("event_time", Schema.FieldType.STRING)
      .addNullableField("tag", Schema.FieldType.STRING).addInt64Field(EventTimeWindow.DEFAULT_ARRIVAL_FIELD).build();
  private static final String[] USERS = {"ann", "bob", "cid", "dee", "eve"};
  private static final AggregateSpec[] AGGREGATES = {AggregateSpec.countAll("n"),
      AggregateSpec.of(AggregateKind.SUM, "amount", "total"), AggregateSpec.of(AggregateKind.FIRST, "tag", "first_tag"),
      AggregateSpec.of(AggregateKind.LAST, "tag", "last_tag")};
  private static final WindowQuery L2 = WindowQuery.of(WindowSpec.tumbling(600_000))
      .withAggregates(AggregateSpec.countAll("n"));
  /** What the pipelines emitted, as text, gathered in this JVM (the DirectRunner runs in it). */
  private static final Queue<String> OUT = new ConcurrentLinkedQueue<>();

  @TempDir
  Path dir;

  /**
   * L6: example L2 stopped with a state, then a second run of P1's 00:16 and 00:31 (and P1's row
   * at offset 3 read again, which the state has taken in already): exactly L6's rows and stored
   * state, and the state of the design's example file (docs/state-example-partitions.json) but for
   * its source and outputs, which belong to the command line.
   */
  @Test
  void exampleL6_stoppedWithTheState_thenASecondRun() throws Exception {
    EventTimeWindow window = EventTimeWindow.of(L2).withTimeField("event_time")
        .withPartitionField(KafkaRows.PARTITION_FIELD).withPartitions(0, 1);
    Path state = dir.resolve("state");
    List<Row> run1 = List.of(row(0, 0, "k", "00:01", 0), row(0, 1, "k", "00:02", 0), row(0, 0, "k", "00:12", 1),
        row(0, 1, "k", "00:05", 1), row(0, 0, "k", "00:03", 2), row(0, 1, "k", "00:14", 2), row(0, 0, "k", "00:22", 3),
        row(0, 1, "k", "00:08", 3));
    PipelineResult first = runLive(window, state, run1);
    assertThat(gathered()).containsExactlyInAnyOrder("window " + at("00:00") + "|" + at("00:10") + "|3",
        "late 0|2|partition 0, arrival 2: every window of event time " + at("00:03") + " had closed at watermark "
            + at("00:12") + " (late policy window)",
        "late 1|3|partition 1, arrival 3: every window of event time " + at("00:08") + " had closed at watermark "
            + at("00:14") + " (late policy window)");
    assertThat(EventTimeMetrics.stats(first, "L")).isEqualTo(new Stats(8, 1, 2, 1, 6, 0));
    assertThat(EventTimeMetrics.read(first, "L", EventTimeMetrics.OPEN_WINDOWS)).as("the three parts handed on").isEqualTo(3);
    assertThat(EventTimeMetrics.read(first, "L", EventTimeMetrics.BUFFERED_ROWS)).isZero();
    StateCodec codec = new StateCodec(L2, "event_time");
    OpenState example = codec.decode(Files.readAllBytes(Path.of("../docs/state-example-partitions.json")), "example")
        .withOutputs(Map.of());
    assertThat(new String(Files.readAllBytes(state.resolve("state.json"))))
        .isEqualTo(new String(codec.encode(example)));

    List<Row> run2 = List.of(row(0, 1, "k", "00:08", 3), row(0, 1, "k", "00:16", 4), row(0, 1, "k", "00:31", 5));
    PipelineResult second = runLive(window, state, run2);
    assertThat(gathered()).containsExactlyInAnyOrder("window " + at("00:10") + "|" + at("00:20") + "|3",
        "rejected 1|3|" + EventTimeWindow.DEFAULT_ARRIVAL_FIELD + "|partition 1, arrival 3: the run that stored the"
            + " state took this partition in up to position 3 (the state goes on at 4), so this row is in it already:"
            + " read each partition on from the state's positions");
    assertThat(EventTimeMetrics.stats(second, "L")).isEqualTo(new Stats(3, 1, 0, 1, 2, 1));
    assertThat(EventTimeMetrics.read(second, "L", EventTimeMetrics.OPEN_WINDOWS)).isEqualTo(2);
    OpenState stored = load(codec, state);
    assertThat(stored.partitions()).containsExactly(
        new OpenState.Partition("0", time("00:22"), null, 4, new OpenState.NextOffset(4)),
        new OpenState.Partition("1", time("00:31"), null, 6, new OpenState.NextOffset(6)));
    assertThat(describe(L2, stored.windows())).containsExactly(
        "0|[]|" + at("00:20") + "|" + at("00:30") + "|[1]", "1|[]|" + at("00:30") + "|" + at("00:40") + "|[1]");
  }

  /** Without withState the end of the input drains: every open window leaves, and the gauges end at 0. */
  @Test
  void withoutAState_theEndDrains() {
    EventTimeWindow window = EventTimeWindow.of(L2).withTimeField("event_time")
        .withPartitionField(KafkaRows.PARTITION_FIELD).withPartitions(0, 1);
    OUT.clear();
    Pipeline p = LiveWindowExamplesTest.pipeline();
    gather(p.apply(stream(List.of(row(0, 0, "k", "00:01", 0), row(0, 1, "k", "00:12", 0)))).apply("L", window), "");
    PipelineResult result = p.run();
    result.waitUntilFinish();
    assertThat(gathered()).containsExactlyInAnyOrder("window " + at("00:00") + "|" + at("00:10") + "|1",
        "window " + at("00:10") + "|" + at("00:20") + "|1");
    assertThat(EventTimeMetrics.read(result, "L", EventTimeMetrics.OPEN_WINDOWS)).isZero();
    assertThat(EventTimeMetrics.read(result, "L", EventTimeMetrics.BUFFERED_ROWS)).isZero();
    assertThat(EventTimeMetrics.max(result, "L", EventTimeMetrics.BUCKET_OPEN_WINDOWS)).isEqualTo(2);
    assertThat(EventTimeMetrics.max(result, "L", EventTimeMetrics.WINDOW_CLOSE_LATENCY_MS)).as("none closed while running")
        .isNull();
  }

  /** A state of other partitions than the run's is refused before the run. */
  @Test
  void aStateOfOtherPartitionsIsRefused() {
    EventTimeWindow window = EventTimeWindow.of(L2).withTimeField("event_time")
        .withPartitionField(KafkaRows.PARTITION_FIELD).withPartitions(0, 1);
    Path state = dir.resolve("state");
    runLive(window, state, List.of(row(0, 0, "k", "00:01", 0)));
    EventTimeWindow three = window.withPartitions(0, 1, 2);
    try (EventTimeState s = EventTimeState.open(state, three)) {
      Pipeline p = LiveWindowExamplesTest.pipeline();
      PCollection<Row> live = p.apply(stream(List.of(row(0, 0, "k", "00:02", 1))));
      assertThatThrownBy(() -> live.apply(three.withState(s))).isInstanceOf(IllegalArgumentException.class)
          .hasMessage("the state holds the partitions 0, 1 and this run reads 0, 1, 2 (withPartitions): a live run"
              + " goes on from a state of the same partitions, in the same order; give a stream of other partitions"
              + " its own state");
    }
  }

  /**
   * Random streams of one to three partitions, every window kind and policy, late and unreadable
   * rows, each partition cut at a random point into two live runs with the state between them: the
   * rows of both runs are those of one uninterrupted run of the core's processor, each run's stats
   * are the core's for that run, and the state left is the core's hold() after all the rows.
   */
  @Test
  void randomStreamsCutIntoTwoLiveRunsEqualOneUninterruptedRun() throws Exception {
    Random random = new Random(20261204);
    int streams = Integer.getInteger(LiveEqualsReplayTest.STREAMS_PROPERTY, 4);
    List<Stream> all = new ArrayList<>();
    for (int id = 0; id < streams; id++) {
      all.add(generate(id, random));
    }
    List<List<Row>> runs = List.of(new ArrayList<>(), new ArrayList<>());
    for (Stream s : all) {
      for (int p = 0; p < s.partitions.size(); p++) {
        List<Row> rows = s.partitions.get(p);
        runs.get(0).addAll(rows.subList(0, s.cuts[p]));
        runs.get(1).addAll(rows.subList(s.cuts[p], rows.size()));
      }
    }
    List<String> got = new ArrayList<>();
    List<PipelineResult> results = new ArrayList<>();
    for (int run = 0; run < 2; run++) {
      OUT.clear();
      Pipeline p = LiveWindowExamplesTest.pipeline();
      PCollection<Row> live = p.apply(LiveStreams.shuffled(SCHEMA,
          LiveStreams.stamped(interleave(runs.get(run), random), random, 8), random,
          Math.max(2, runs.get(run).size() / 3)));
      List<EventTimeState> states = new ArrayList<>();
      for (Stream s : all) {
        EventTimeWindow window = s.window();
        EventTimeState state = EventTimeState.open(dir.resolve(s.name()), window);
        states.add(state);
        int id = s.id;
        gather(live.apply(s.name() + "-only", Filter.by((Row r) -> r.getInt32("stream") == id))
            .apply(s.name(), window.withState(state)), s.name() + " ");
      }
      PipelineResult result = p.run();
      result.waitUntilFinish();
      for (EventTimeState state : states) {
        state.commit(result);
        state.close();
      }
      got.addAll(OUT);
      results.add(result);
    }
    List<String> expected = new ArrayList<>();
    long late = 0;
    for (Stream s : all) {
      Expected e = expected(s);
      expected.addAll(e.rows);
      late += e.runStats.get(0).lateDropped() + e.runStats.get(1).lateDropped();
      for (int run = 0; run < 2; run++) {
        assertThat(EventTimeMetrics.stats(results.get(run), s.name())).as(s.name() + " run " + (run + 1))
            .isEqualTo(e.runStats.get(run));
      }
      OpenState stored = load(new StateCodec(s.query, "event_time"), dir.resolve(s.name()));
      assertSameMeaning(s, stored, e.held);
      assertThat(EventTimeMetrics.read(results.get(1), s.name(), EventTimeMetrics.OPEN_WINDOWS))
          .isEqualTo(e.held.windows().size() + e.held.waiting().size());
    }
    assertThat(got).containsExactlyInAnyOrderElementsOf(expected);
    assertThat(late).as("the streams have late rows").isPositive();
  }

  /**
   * Example B's two runs, one bounded and one live, both ways round: the live run goes on from
   * the bounded run's state and the bounded run from the live run's, each giving B's rows and
   * leaving B's state.
   */
  @Test
  void exampleB_aBoundedRunsStateGoesOnLiveAndTheReverse() {
    WindowQuery b = WindowQuery.of(WindowSpec.tumbling(600_000)).withDelay(300_000).withLatePolicy(LatePolicy.EVENT)
        .withAggregates(AggregateSpec.countAll("n"));
    EventTimeWindow window = EventTimeWindow.of(b).withTimeField("event_time");
    List<Row> run1 = rows("00:01", "00:04", "00:08", "00:12", "00:17");
    List<Row> run2 = rows("00:05", "00:11", "00:13", "00:30", "00:34");
    StateCodec codec = new StateCodec(b, "event_time");
    for (boolean liveFirst : new boolean[] {false, true}) {
      Path state = dir.resolve("b-" + liveFirst);
      run(window, state, run1, liveFirst);
      assertThat(windowsOf(gathered())).containsExactly(at("00:00") + "|" + at("00:10") + "|3");
      OpenState between = load(codec, state);
      assertThat(between.partitions().get(0).maxEventTime()).isEqualTo(time("00:17"));
      assertThat(describe(b, between.windows())).containsExactly("0|[]|" + at("00:10") + "|" + at("00:20") + "|[2]");
      run(window, state, run2, !liveFirst);
      List<String> second = gathered();
      assertThat(windowsOf(second)).as("live first: " + liveFirst)
          .containsExactly(at("00:10") + "|" + at("00:20") + "|3");
      assertThat(second.stream().filter(l -> l.startsWith("late ")).count()).isEqualTo(2);
      OpenState after = load(codec, state);
      assertThat(after.partitions().get(0).maxEventTime()).isEqualTo(time("00:34"));
      assertThat(describe(b, after.windows())).containsExactly("0|[]|" + at("00:30") + "|" + at("00:40") + "|[2]");
    }
  }

  /**
   * The idle timeout with a state (example L5): run 1's P1 goes idle, windows 00:00 and 00:10 leave
   * while it runs and 00:20 goes to the state with P1's idle watermark; run 2's P1 row of 00:15 is
   * late, its reason naming the idle timeout, as in one run.
   */
  @Test
  void exampleL5_theIdleAdvanceIsKeptInTheState() {
    WindowQuery l5 = WindowQuery.of(WindowSpec.tumbling(600_000)).withDelay(60_000).withLatePolicy(LatePolicy.WINDOW)
        .withAggregates(AggregateSpec.countAll("n"));
    EventTimeWindow window = EventTimeWindow.of(l5).withTimeField("event_time")
        .withPartitionField(KafkaRows.PARTITION_FIELD).withPartitions(0, 1)
        .withIdleTimeout(java.time.Duration.ofSeconds(30));
    Path state = dir.resolve("l5");
    TestStream<Row> first = TestStream.create(RowCoder.of(SCHEMA))
        .advanceProcessingTime(toWallClock("00:39:29"))
        .advanceProcessingTime(Duration.standardSeconds(1))
        .addElements(TimestampedValue.of(row(0, 1, "k", "00:05", 1), stamp(1)))
        .advanceWatermarkTo(stamp(2))
        .advanceProcessingTime(Duration.standardSeconds(10))
        .addElements(TimestampedValue.of(row(0, 0, "k", "00:01", 1), stamp(3)),
            TimestampedValue.of(row(0, 0, "k", "00:12", 2), stamp(4)), TimestampedValue.of(row(0, 0, "k", "00:25", 3), stamp(5)))
        .advanceWatermarkTo(stamp(6))
        .advanceProcessingTime(Duration.standardSeconds(20))
        .advanceWatermarkTo(stamp(6).plus(Duration.millis(500)))
        // the idle advance is folded while the stream runs, before the end hands the state on
        .advanceProcessingTime(Duration.standardSeconds(1))
        .advanceWatermarkTo(stamp(7))
        .advanceWatermarkToInfinity();
    runLive(window, state, first);
    assertThat(gathered()).containsExactlyInAnyOrder("window " + at("00:00") + "|" + at("00:10") + "|2",
        "window " + at("00:10") + "|" + at("00:20") + "|1");
    OpenState between = load(new StateCodec(l5, "event_time"), state);
    assertThat(between.partitions().get(1))
        .isEqualTo(new OpenState.Partition("1", time("00:40"), time("00:39"), 1, new OpenState.NextOffset(2)));
    assertThat(describe(l5, between.windows())).containsExactly("0|[]|" + at("00:20") + "|" + at("00:30") + "|[1]");

    runLive(window, state, TestStream.create(RowCoder.of(SCHEMA))
        .addElements(TimestampedValue.of(row(0, 1, "k", "00:15", 2), stamp(7))).advanceWatermarkToInfinity());
    assertThat(gathered()).containsExactly("late 1|2|partition 1, arrival 2: every window of event time " + at("00:15")
        + " had closed at watermark " + at("00:39") + " (late policy window); that watermark is the wall clock "
        + at("00:40") + " less the delay, set by the idle timeout after partition 1 had no row for 30 s");
    OpenState after = load(new StateCodec(l5, "event_time"), state);
    assertThat(after.partitions().get(1).idleWatermark()).isEqualTo(time("00:39"));
    assertThat(describe(l5, after.windows())).containsExactly("0|[]|" + at("00:20") + "|" + at("00:30") + "|[1]");
  }

  // ---- runs

  private static PipelineResult runLive(EventTimeWindow window, Path state, List<Row> rows) {
    return runLive(window, state, stream(rows));
  }

  private static PipelineResult runLive(EventTimeWindow window, Path state, TestStream<Row> stream) {
    OUT.clear();
    try (EventTimeState s = EventTimeState.open(state, window)) {
      Pipeline p = LiveWindowExamplesTest.pipeline();
      PCollection<Row> live = p.apply(stream);
      assertThat(live.isBounded()).isEqualTo(PCollection.IsBounded.UNBOUNDED);
      gather(live.apply("L", window.withState(s)), "");
      PipelineResult result = p.run();
      result.waitUntilFinish();
      s.commit(result);
      return result;
    }
  }

  /** One run of one partition's rows, live (TestStream) or bounded (a replay), with the state. */
  private static void run(EventTimeWindow window, Path state, List<Row> rows, boolean live) {
    if (live) {
      runLive(window, state, rows);
      return;
    }
    OUT.clear();
    try (EventTimeState s = EventTimeState.open(state, window)) {
      Pipeline p = LiveWindowExamplesTest.pipeline();
      PCollection<Row> bounded = p.apply(Create.of(rows).withRowSchema(SCHEMA));
      gather(bounded.apply("B", window.withState(s)), "");
      PipelineResult result = p.run();
      result.waitUntilFinish();
      s.commit(result);
    }
  }

  /** The rows one at a time, each stamped a second after the one before, the watermark past each. */
  private static TestStream<Row> stream(List<Row> rows) {
    TestStream.Builder<Row> stream = TestStream.create(RowCoder.of(SCHEMA));
    for (int i = 0; i < rows.size(); i++) {
      stream = stream.addElements(TimestampedValue.of(rows.get(i), stamp(i + 1))).advanceWatermarkTo(stamp(i + 1)
          .plus(Duration.millis(500)));
    }
    return stream.advanceWatermarkToInfinity();
  }

  private static void gather(EventTimeWindowResult r, String label) {
    r.windows().apply(label + "GatherWindows", ParDo.of(new Gather(label + "window ", 0)));
    r.late().apply(label + "GatherLate", ParDo.of(new Gather(label + "late ", 1)));
    // the random streams' rejected rows are told by their place and field, the examples' with the reason too
    r.rejected().apply(label + "GatherRejected", ParDo.of(new Gather(label + "rejected ", label.isEmpty() ? 2 : 3)));
  }

  /** Keeps each row as text in {@link #OUT}: a window row, a late row with its reason, a rejected row with field and reason. */
  private static final class Gather extends DoFn<Row, Void> {
    private final String label;
    private final int kind;

    Gather(String label, int kind) {
      this.label = label;
      this.kind = kind;
    }

    @ProcessElement
    public void process(@Element Row r) {
      if (kind == 0) {
        OUT.add(label + ConformanceSuite.formatRow(r));
        return;
      }
      Row row = r.getRow(ProblemRows.ROW);
      String place = row.getInt32(KafkaRows.PARTITION_FIELD) + "|" + row.getInt64(EventTimeWindow.DEFAULT_ARRIVAL_FIELD);
      OUT.add(label + place + "|" + switch (kind) {
        case 1 -> r.getString(ProblemRows.REASON);
        case 2 -> r.getString(ProblemRows.FIELD) + "|" + r.getString(ProblemRows.REASON);
        default -> r.getString(ProblemRows.FIELD);
      });
    }
  }

  private static List<String> gathered() {
    return new ArrayList<>(OUT);
  }

  /** The window rows among {@code lines}, without the key (the examples have none): {@code |start|end|n}. */
  private static List<String> windowsOf(List<String> lines) {
    return lines.stream().filter(l -> l.startsWith("window ")).map(l -> l.substring("window ".length())).toList();
  }

  private static OpenState load(StateCodec codec, Path state) {
    try {
      return codec.decode(Files.readAllBytes(state.resolve("state.json")), state.toString());
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** Each window as partition|key|start|end|its aggregates' values: what it means, whatever the arrival numbering. */
  private static List<String> describe(WindowQuery query, List<OpenState.OpenWindow> windows) {
    Aggregates aggregates = new Aggregates(query.aggregates());
    List<String> out = new ArrayList<>();
    for (OpenState.OpenWindow w : windows) {
      Object[] values = aggregates.results(w.accumulators());
      List<String> shown = new ArrayList<>();
      for (Object v : values) {
        shown.add(ConformanceSuite.formatValue(v));
      }
      out.add(w.partition() + "|" + w.key() + "|" + TimeText.format(w.start()) + "|" + TimeText.format(w.end()) + "|"
          + shown);
    }
    return out;
  }

  // ---- random streams and the core's answer

  /** One stream: its query, partition ids, each partition's rows in order and where each is cut. */
  record Stream(int id, WindowQuery query, int[] partitionIds, List<List<Row>> partitions, int[] cuts) {
    String name() {
      return String.format("Cut-%03d", id);
    }

    EventTimeWindow window() {
      return EventTimeWindow.of(query).withTimeField("event_time").withPartitionField(KafkaRows.PARTITION_FIELD)
          .withPartitions(partitionIds);
    }
  }

  /** The core's answer: the rows of one uninterrupted run, the stats of each of the two cut runs, and the state left. */
  record Expected(List<String> rows, List<Stats> runStats, OpenState held) {}

  private static Stream generate(int id, Random random) {
    WindowSpec spec = switch (random.nextInt(3)) {
      case 0 -> WindowSpec.tumbling(60_000);
      case 1 -> WindowSpec.hopping(20_000, 60_000);
      default -> WindowSpec.session(45_000);
    };
    LatePolicy policy = LatePolicy.values()[random.nextInt(LatePolicy.values().length)];
    WindowQuery query = WindowQuery.of(spec).withKeys("user").withDelay(random.nextBoolean() ? 0 : 30_000)
        .withLatePolicy(policy).withAggregates(AGGREGATES);
    int n = id % 2 == 0 ? 1 : 2 + random.nextInt(2);
    int[] ids = new int[n];
    for (int i = 0; i < n; i++) {
      ids[i] = i == 0 ? random.nextInt(3) : ids[i - 1] + 1 + random.nextInt(2);
    }
    // sessions under policy window of a key spread over partitions depend on the interleaving (example L4)
    boolean confined = spec instanceof WindowSpec.Session && policy == LatePolicy.WINDOW || random.nextBoolean();
    List<List<Row>> partitions = new ArrayList<>();
    int[] cuts = new int[n];
    long start = java.time.Instant.parse("2026-05-01T08:00:00Z").toEpochMilli();
    for (int p = 0; p < n; p++) {
      List<Row> rows = new ArrayList<>();
      long clock = start;
      int count = 10 + random.nextInt(40);
      for (int i = 0; i < count; i++) {
        clock += random.nextInt(9000);
        long ts = random.nextInt(6) == 0 ? clock - random.nextInt(120_000) : clock;
        String time = random.nextInt(30) == 0 ? "not a time" : TimeText.format(ts);
        String user = confined ? USERS[p] + (random.nextBoolean() ? "" : "-2") : USERS[random.nextInt(3)];
        rows.add(Row.withSchema(SCHEMA).addValues(id, ids[p], user, (long) random.nextInt(1000) - 100, time,
            random.nextInt(4) == 0 ? null : "t" + random.nextInt(5), (long) i).build());
      }
      partitions.add(rows);
      cuts[p] = random.nextInt(count + 1);
    }
    return new Stream(id, query, ids, partitions, cuts);
  }

  private static Expected expected(Stream s) {
    List<String> rows = new ArrayList<>();
    List<String> ids = new ArrayList<>();
    for (int id : s.partitionIds) {
      ids.add(String.valueOf(id));
    }
    String label = s.name() + " ";
    PartitionedWindowProcessor whole = new PartitionedWindowProcessor(s.query, ids, w -> rows.add(label + "window " + format(w)));
    PartitionedWindowProcessor cut = new PartitionedWindowProcessor(s.query, ids, w -> {});
    List<Stats> stats = new ArrayList<>();
    for (int run = 0; run < 2; run++) {
      for (int p = 0; p < s.partitions.size(); p++) {
        List<Row> part = s.partitions.get(p);
        for (Row r : run == 0 ? part.subList(0, s.cuts[p]) : part.subList(s.cuts[p], part.size())) {
          String where = s.partitionIds[p] + "|" + r.getInt64(EventTimeWindow.DEFAULT_ARRIVAL_FIELD);
          Long ts = parse(r);
          if (ts == null) {
            whole.reject(p);
            cut.reject(p);
            rows.add(label + "rejected " + where + "|event_time");
            continue;
          }
          Key key = Key.of(r.getString("user"));
          cut.process(p, key, ts, inputs(r));
          if (!whole.process(p, key, ts, inputs(r))) {
            rows.add(label + "late " + where + "|partition " + s.partitionIds[p] + ", arrival "
                + r.getInt64(EventTimeWindow.DEFAULT_ARRIVAL_FIELD) + ": " + whole.lateReason(p, ts));
          }
        }
      }
      stats.add(cut.stats());
      if (run == 0) {
        cut = PartitionedWindowProcessor.resume(s.query, w -> {}, cut.hold());
      }
    }
    return new Expected(rows, stats, whole.hold());
  }

  /**
   * The state the live runs left means what the core's does: each partition's latest event time
   * and idle watermark; its next arrival (the rows with an event time, counted over both runs) and
   * position (one past the last such row's); the same windows in the same order, with the same
   * values; the same waiting sessions (their order matters within a key only); and the two states
   * emit the same windows when finished.
   */
  private static void assertSameMeaning(Stream s, OpenState live, OpenState core) {
    for (int p = 0; p < s.partitions.size(); p++) {
      OpenState.Partition got = live.partitions().get(p);
      OpenState.Partition want = core.partitions().get(p);
      long timed = s.partitions.get(p).stream().filter(r -> parse(r) != null).count();
      long last = s.partitions.get(p).stream().filter(r -> parse(r) != null)
          .mapToLong(r -> r.getInt64(EventTimeWindow.DEFAULT_ARRIVAL_FIELD)).max().orElse(-1);
      assertThat(got).as(s.name() + " partition " + p).isEqualTo(new OpenState.Partition(want.id(), want.maxEventTime(),
          want.idleWatermark(), timed, last < 0 ? null : new OpenState.NextOffset(last + 1)));
    }
    assertThat(describe(s.query, live.windows())).as(s.name()).containsExactlyElementsOf(describe(s.query, core.windows()));
    assertThat(describe(s.query, live.waiting())).as(s.name())
        .containsExactlyInAnyOrderElementsOf(describe(s.query, core.waiting()));
    assertThat(finished(s.query, live)).as(s.name()).containsExactlyElementsOf(finished(s.query, core));
  }

  private static List<String> finished(WindowQuery query, OpenState state) {
    List<String> out = new ArrayList<>();
    PartitionedWindowProcessor.resume(query, w -> out.add(format(w)), state).finish();
    return out;
  }

  /** The rows merged at random, each partition's (of each stream) in its order. */
  private static List<Row> interleave(List<Row> rows, Random random) {
    Map<String, List<Row>> queues = new java.util.LinkedHashMap<>();
    for (Row r : rows) {
      queues.computeIfAbsent(r.getInt32("stream") + "/" + r.getInt32(KafkaRows.PARTITION_FIELD), k -> new ArrayList<>())
          .add(r);
    }
    List<List<Row>> lists = new ArrayList<>(queues.values());
    int[] next = new int[lists.size()];
    List<Row> merged = new ArrayList<>();
    while (merged.size() < rows.size()) {
      int q = random.nextInt(lists.size());
      if (next[q] < lists.get(q).size()) {
        merged.add(lists.get(q).get(next[q]++));
      }
    }
    return merged;
  }

  private static Long parse(Row r) {
    try {
      return EventTimeParser.defaults().parse(r.getString("event_time"));
    } catch (RuntimeException noTime) {
      return null;
    }
  }

  private static Object[] inputs(Row r) {
    return new Object[] {null, r.getInt64("amount"), r.getString("tag"), r.getString("tag")};
  }

  private static String format(WindowResult w) {
    StringJoiner j = new StringJoiner("|");
    for (int i = 0; i < w.key().size(); i++) {
      j.add(ConformanceSuite.formatValue(w.key().get(i)));
    }
    j.add(TimeText.format(w.start())).add(TimeText.format(w.end()));
    for (Object v : w.values()) {
      j.add(ConformanceSuite.formatValue(v));
    }
    return j.toString();
  }

  // ---- example rows

  private static Row row(int stream, int partition, String user, String hhmm, long position) {
    return Row.withSchema(SCHEMA).addValues(stream, partition, user, 1L, at(hhmm), "t", position).build();
  }

  /** One partition's rows of an example without keys, at positions 0, 1, 2, ... */
  private static List<Row> rows(String... times) {
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < times.length; i++) {
      rows.add(Row.withSchema(SCHEMA).addValues(0, 0, "k", 1L, at(times[i]), "t", (long) i).build());
    }
    return rows;
  }

  private static Duration toWallClock(String hhmmss) {
    long target = java.time.Instant.parse("2026-03-01T" + hhmmss + "Z").toEpochMilli();
    return Duration.millis(target - BoundedWindow.TIMESTAMP_MIN_VALUE.getMillis());
  }

  private static Instant stamp(int i) {
    return new Instant(LiveStreams.FIRST_STAMP + 1000L * i);
  }

  private static long time(String hhmm) {
    return java.time.Instant.parse("2026-03-01T" + hhmm + ":00Z").toEpochMilli();
  }

  private static String at(String hhmm) {
    return TimeText.format(time(hhmm));
  }
}
