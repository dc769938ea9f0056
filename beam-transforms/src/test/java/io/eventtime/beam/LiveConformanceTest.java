package io.eventtime.beam;

import static io.eventtime.core.contract.WorkedExamples.A;
import static io.eventtime.core.contract.WorkedExamples.C;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.eventtime.core.AggregateKind;
import io.eventtime.core.AggregateSpec;
import io.eventtime.core.LatePolicy;
import io.eventtime.core.Stats;
import io.eventtime.core.WindowQuery;
import io.eventtime.core.WindowSpec;
import io.eventtime.core.contract.WorkedExamples;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Collectors;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The conformance suite ({@link ConformanceSuite}, which every runner's bounded path passes) and
 * the worked examples of docs/semantics.md that one live partition can express, fed to
 * {@link EventTimeWindow} as live streams on the DirectRunner: the very rows NdjsonIO reads from
 * the suite's files (their schema, arrival positions and file names), stamped in arrival order and
 * delivered by TestStream in random bundles, out of order between watermark advances, then
 * drained. In the same pipeline the same files go through NdjsonIO and the bounded
 * EventTimeWindow; both must give the case's exact windows, late rows with their reasons, rejected
 * rows and stats counters (the worked examples' fixture, or core's processor over the arrivals).
 * What cannot be fed live is in {@link #NOT_LIVE} with the reason, and {@link
 * #everySuiteCaseIsFedLiveOrListedWithItsReason} keeps that list and the suite in step. {@value
 * #ROWS_PROPERTY} sets the random stream's rows (default {@value #DEFAULT_ROWS}; the suite's own
 * size is 3,000).
 */
class LiveConformanceTest {
  static final String ROWS_PROPERTY = "eventtime.live.conformance.rows";
  static final int DEFAULT_ROWS = 200;
  private static final long MIN = 60_000L;
  private static final String FILE = "FILE";

  /** The suite's cases (its test methods) and the worked examples that are not fed live here, each with why. */
  static final Map<String, String> NOT_LIVE = new LinkedHashMap<>();

  static {
    NOT_LIVE.put("exampleB_twoRunsWithState", "a state carried between runs, where this test runs one live run beside"
        + " one bounded run: LiveStateTest runs example B from a bounded run's state on live and the reverse");
    NOT_LIVE.put("aStreamSplitIntoThreeRunsYieldsTheWindowsOfOneRun", "runs through a state: LiveStateTest cuts random"
        + " live streams into two live runs and compares them with core's uninterrupted run");
    NOT_LIVE.put("outputsAreStampedAtTheWindowsEndOrTheLateRowsEventTime_soBeamCanWindowThemAgain", "Beam timestamps"
        + " of the outputs: a live output cannot be stamped behind the watermark that released it, so a live window"
        + " row carries its release's stamp (LiveWindowTest, LiveIdleTimeoutTest), not the window's end; the rows"
        + " themselves are compared here");
    NOT_LIVE.put("L2, L3, L4 (docs/semantics.md)", "several partitions: not one live partition, and the bounded path"
        + " has no partitions; LiveInterleavingTest feeds them live against their exact rows and core");
    NOT_LIVE.put("L5 (docs/semantics.md)", "the idle timeout reads the wall clock and the bounded path has none"
        + " (EventTimeWindow.BOUNDED_IDLE_REFUSAL); LiveIdleTimeoutTest and FlinkLiveIdleTimeoutTest run it");
  }

  /** The suite's cases fed live here (L1 is example A as one live partition). */
  static final Set<String> FED_LIVE = Set.of("exampleA_allThreeKindsWithDelayAndEventPolicy",
      "exampleC_perKeyWindowsOverItsFile", "randomStreamWithLateAndRejectedRows_matchesTheCoreProcessor");

  @TempDir
  Path dir;

  /** What one query over a case's rows must give, live and bounded alike. */
  record Expected(String name, EventTimeWindow window, List<String> windows, List<String> late, List<String> rejected,
      Stats stats) {}

  @Test
  void exampleA_allThreeKinds_liveIsTheBoundedRun() throws IOException {
    Path file = write("example-a.ndjson", A.times().stream().map(t -> "{\"event_time\":\"" + t + "\"}").toList());
    EventTimeWindow base = ConformanceSuite.exampleATumbling();
    List<String> late = ConformanceSuite.exampleALate(Path.of(FILE));
    List<Expected> expected = List.of(
        new Expected("Tumbling", base, A.tumbling().texts(), late, List.of(), A.tumbling().stats()),
        new Expected("Hopping", EventTimeWindow.of(base.query().withSpec(WindowSpec.hopping(A.hopping().slideMillis(),
            A.hopping().sizeMillis()))).withTimeField("event_time"), A.hopping().texts(), late, List.of(),
            A.hopping().stats()),
        new Expected("Session", EventTimeWindow.of(base.query().withSpec(WindowSpec.session(A.session().gapMillis())))
            .withTimeField("event_time"), A.session().texts(), late, List.of(), A.session().stats()));
    // one seed: LiveWindowExamplesTest feeds example A in more bundlings
    run(file, expected, new Random(1), 3, LiveConformanceTest::wholeLateRow);
  }

  @Test
  void exampleC_perKeyWindows_liveIsTheBoundedRun() throws IOException {
    Path file = write("events.ndjson", C.lines());
    EventTimeWindow base = EventTimeWindow.of(WindowSpec.tumbling(C.tumbling().sizeMillis()))
        .withTimeField(C.timeField()).withKeys(C.keyField());
    List<Expected> expected = List.of(
        expectedOf("Tumbling", base.withAggregates(AggregateSpec.countAll("n"),
            AggregateSpec.of(AggregateKind.SUM, "amount", "total")), C.tumbling()),
        expectedOf("Hopping", EventTimeWindow.of(base.query().withSpec(WindowSpec.hopping(C.hopping().slideMillis(),
            C.hopping().sizeMillis())).withAggregates(AggregateSpec.countAll("n"))).withTimeField(C.timeField()),
            C.hopping()),
        expectedOf("Session", EventTimeWindow.of(base.query().withSpec(WindowSpec.session(C.session().gapMillis()))
            .withAggregates(AggregateSpec.countAll("n"))).withTimeField(C.timeField()), C.session()));
    run(file, expected, new Random(4), 2, LiveConformanceTest::wholeLateRow);
  }

  private static Expected expectedOf(String name, EventTimeWindow window, WorkedExamples.Case c) {
    return new Expected(name, window, c.texts(), List.of(), List.of(), c.stats());
  }

  /**
   * The suite's random stream (late rows, rows with a null time, malformed lines that NdjsonIO
   * rejects before the window), under every window kind and late policy with the suite's
   * aggregates, against core's processor over the same arrivals.
   */
  @Test
  void randomStreamWithLateAndRejectedRows_liveIsTheBoundedRun() throws IOException {
    ConformanceSuite.RandomStream stream =
        ConformanceSuite.RandomStream.generate(new Random(20261130), Integer.getInteger(ROWS_PROPERTY, DEFAULT_ROWS));
    Path file = write("random.ndjson", stream.lines);
    List<String> rejected = stream.nullTimePositions.stream().map(String::valueOf).toList();
    List<Expected> expected = new ArrayList<>();
    for (WindowSpec spec : new WindowSpec[] {WindowSpec.tumbling(MIN), WindowSpec.hopping(20_000, MIN),
        WindowSpec.session(45_000)}) {
      for (LatePolicy policy : LatePolicy.values()) {
        WindowQuery q = WindowQuery.of(spec).withKeys("user").withDelay(30_000).withLatePolicy(policy)
            .withAggregates(AggregateSpec.countAll("n"), AggregateSpec.of(AggregateKind.SUM, "amount", "total"),
                AggregateSpec.of(AggregateKind.MIN, "amount", "low"), AggregateSpec.of(AggregateKind.MAX, "event_time", "latest"),
                AggregateSpec.of(AggregateKind.AVG, "amount", "mean"), AggregateSpec.of(AggregateKind.FIRST, "tag", "first_tag"),
                AggregateSpec.of(AggregateKind.LAST, "tag", "last_tag"),
                AggregateSpec.of(AggregateKind.COUNT_DISTINCT, "tag", "tags"), AggregateSpec.of(AggregateKind.COUNT, "tag", "tagged"));
        ConformanceSuite.Expectation e = stream.expected(q);
        assertThat(e.stats.lateDropped()).as("%s %s has late rows", spec.kind(), policy).isPositive();
        expected.add(new Expected(spec.kind() + "-" + policy.label(), EventTimeWindow.of(q).withTimeField("event_time"),
            e.rows, e.lateRows, rejected, e.stats));
      }
    }
    assertThat(rejected).as("rows with a null time").isNotEmpty();
    // about five watermark advances: each costs the DirectRunner a round over every step of the twelve windows
    run(file, expected, new Random(20261203), Math.max(40, stream.lines.size() / 5), LiveConformanceTest::positionAndReason);
  }

  /**
   * Reads {@code file} with NdjsonIO, then in one pipeline feeds its rows live (in random bundles,
   * stretches of up to {@code maxStretch} rows between watermark advances) and reads it bounded,
   * applying each query to both, and asserts every output and the stats of both.
   */
  private static void run(Path file, List<Expected> queries, Random random, int maxStretch,
      SerializableFunction<Row, String> lateText) {
    ReadRows read = ReadRows.of(file);
    Pipeline p = LiveWindowExamplesTest.pipeline();
    PCollection<Row> live = p.apply("Live", LiveStreams.shuffled(read.schema, LiveStreams.stamped(read.rows, random, 2),
        random, maxStretch));
    assertThat(live.isBounded()).isEqualTo(PCollection.IsBounded.UNBOUNDED);
    PCollection<Row> bounded = p.apply("Read", NdjsonIO.read(file.toString())).rows();
    String source = file.toString();
    for (Expected q : queries) {
      for (Map.Entry<String, PCollection<Row>> input : Map.of("Live", live, "Bounded", bounded).entrySet()) {
        String name = input.getKey() + "-" + q.name;
        EventTimeWindowResult r = input.getValue().apply(name, q.window);
        PAssert.that(ConformanceSuite.format(name + "-rows", r.windows())).containsInAnyOrder(q.windows);
        PAssert.that(r.late().apply(name + "-late", MapElements.into(TypeDescriptors.strings())
            .via((Row l) -> lateText.apply(l).replace(source, FILE)))).containsInAnyOrder(q.late);
        PAssert.that(r.rejected().apply(name + "-rejected", MapElements.into(TypeDescriptors.strings())
            .via((Row l) -> String.valueOf(l.getRow(ProblemRows.ROW).getInt64(EventTimeWindow.DEFAULT_ARRIVAL_FIELD)))))
            .containsInAnyOrder(q.rejected);
      }
    }
    PipelineResult result = p.run();
    result.waitUntilFinish();
    for (Expected q : queries) {
      assertThat(EventTimeMetrics.stats(result, "Live-" + q.name)).as("live %s", q.name).isEqualTo(q.stats);
      assertThat(EventTimeMetrics.stats(result, "Bounded-" + q.name)).as("bounded %s", q.name).isEqualTo(q.stats);
    }
  }

  /** A late row as the suite's examples write it: the row's fields, the field, the reason. */
  private static String wholeLateRow(Row late) {
    return ConformanceSuite.formatRow(late);
  }

  /** A late row as the suite's random test writes it: its position and the reason. */
  private static String positionAndReason(Row late) {
    return late.getRow(ProblemRows.ROW).getInt64(EventTimeWindow.DEFAULT_ARRIVAL_FIELD) + "|"
        + late.getString(ProblemRows.REASON);
  }

  @Test
  void everySuiteCaseIsFedLiveOrListedWithItsReason() {
    Set<String> suite = Arrays.stream(ConformanceSuite.class.getDeclaredMethods())
        .filter(m -> m.isAnnotationPresent(Test.class)).map(Method::getName).collect(Collectors.toCollection(TreeSet::new));
    Set<String> covered = new TreeSet<>(FED_LIVE);
    covered.addAll(NOT_LIVE.keySet().stream().filter(k -> !k.contains("docs/semantics.md")).toList());
    assertThat(covered).as("the suite's cases, each fed live or listed in NOT_LIVE").isEqualTo(suite);
    assertThat(NOT_LIVE.values()).allSatisfy(reason -> assertThat(reason).isNotBlank());
  }

  /** The reason of {@link #NOT_LIVE} for L5 holds: the idle timeout on a bounded input is refused before the run. */
  @Test
  void theIdleTimeoutIsRefusedOnABoundedInputBeforeTheRun() {
    EventTimeWindow window = ConformanceSuite.exampleATumbling();
    Schema schema = Schema.builder().addStringField("event_time").addInt64Field(EventTimeWindow.DEFAULT_ARRIVAL_FIELD).build();
    Pipeline p = LiveWindowExamplesTest.pipeline();
    PCollection<Row> bounded = p.apply(org.apache.beam.sdk.transforms.Create.of(
        Row.withSchema(schema).addValues("2026-03-01 00:01:00", 1L).build()).withRowSchema(schema));
    assertThatThrownBy(() -> bounded.apply(window.withIdleTimeout(java.time.Duration.ofSeconds(30))))
        .isInstanceOf(IllegalArgumentException.class).hasMessage(EventTimeWindow.BOUNDED_IDLE_REFUSAL);
  }

  private Path write(String name, List<String> lines) throws IOException {
    return Files.write(dir.resolve(name), lines);
  }

  /** The rows NdjsonIO reads from a file, in arrival order, and their schema (arrival positions and file names). */
  static final class ReadRows {
    private static final Map<String, Queue<Row>> GATHERED = new ConcurrentHashMap<>();
    final Schema schema;
    final List<Row> rows;

    private ReadRows(Schema schema, List<Row> rows) {
      this.schema = schema;
      this.rows = rows;
    }

    static ReadRows of(Path file) {
      String id = UUID.randomUUID().toString();
      GATHERED.put(id, new ConcurrentLinkedQueue<>());
      Pipeline p = LiveWindowExamplesTest.pipeline();
      PCollection<Row> rows = p.apply("Read", NdjsonIO.read(file.toString())).rows();
      rows.apply("Gather", ParDo.of(new GatherFn(id)));
      p.run().waitUntilFinish();
      List<Row> read = new ArrayList<>(GATHERED.remove(id));
      read.sort(Comparator.comparingLong(r -> r.getInt64(EventTimeWindow.DEFAULT_ARRIVAL_FIELD)));
      return new ReadRows(rows.getSchema(), read);
    }

    private static final class GatherFn extends DoFn<Row, Void> {
      private final String id;

      GatherFn(String id) {
        this.id = id;
      }

      @ProcessElement
      public void process(@Element Row row) {
        GATHERED.get(id).add(row);
      }
    }
  }
}
