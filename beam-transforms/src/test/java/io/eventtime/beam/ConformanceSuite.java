package io.eventtime.beam;

import static io.eventtime.core.contract.WorkedExamples.A;
import static io.eventtime.core.contract.WorkedExamples.B;
import static io.eventtime.core.contract.WorkedExamples.C;
import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.core.Accumulator;
import io.eventtime.core.AggregateKind;
import io.eventtime.core.AggregateSpec;
import io.eventtime.core.ArrivalPosition;
import io.eventtime.core.EventTimeParser;
import io.eventtime.core.Key;
import io.eventtime.core.LatePolicy;
import io.eventtime.core.OpenState;
import io.eventtime.core.Stats;
import io.eventtime.core.TimeText;
import io.eventtime.core.WindowProcessor;
import io.eventtime.core.WindowQuery;
import io.eventtime.core.WindowSpec;
import io.eventtime.core.contract.WorkedExamples;
import io.eventtime.core.state.StateStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.StringJoiner;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.io.TextIO;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.transforms.Combine;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.Sum;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.FixedWindows;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.transforms.windowing.Window;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.joda.time.ReadableInstant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The contract's examples and a random stream with late and rejected rows, through NdjsonIO and
 * EventTimeWindow, on whichever runner a subclass gives: every runner must yield the same rows
 * and the same stats, equal to what the core processor yields over the same arrivals.
 */
public abstract class ConformanceSuite {
  private static final long MIN = 60_000L;

  @TempDir
  Path dir;

  /** The options that select and configure the runner under test. */
  protected abstract PipelineOptions options();

  /**
   * How many rows the random streams have (the split-runs test takes 30% of it). A runner whose
   * every step is slow on purpose (the DirectRunner checks each element's encoding) takes fewer
   * in the suite and the full size with {@code -Deventtime.conformance.rows=3000}.
   */
  protected int randomRows() {
    return Integer.getInteger("eventtime.conformance.rows", 3000);
  }

  /** Example A's arrivals as an NDJSON file, the time in event_time. */
  private Path exampleA() throws IOException {
    return write("example-a.ndjson", A.times().stream().map(t -> "{\"event_time\":\"" + t + "\"}").toList());
  }

  /** Example A's query with the tumbling windows: delay 5 minutes, policy event, count(*). */
  static EventTimeWindow exampleATumbling() {
    return EventTimeWindow.of(WindowSpec.tumbling(A.tumbling().sizeMillis())).withTimeField("event_time")
        .withWatermarkDelay(java.time.Duration.ofMillis(A.delayMillis())).withLatePolicy(LatePolicy.parse(A.policy()))
        .withAggregates(AggregateSpec.countAll("events"));
  }

  /** Example A's late rows as the late output writes them (before the Beam timestamp). */
  static List<String> exampleALate(Path file) {
    return A.late().stream().map(l -> l.time() + "|" + l.arrival() + "|event_time|line " + l.arrival() + " of " + file
        + ": event time " + l.time() + " is behind the watermark " + l.watermark() + " (late policy " + A.policy() + ")")
        .toList();
  }

  @Test
  void exampleA_allThreeKindsWithDelayAndEventPolicy() throws IOException {
    Path file = exampleA();
    Pipeline p = Pipeline.create(options());
    NdjsonIO.Result in = p.apply("Read", NdjsonIO.read(file.toString()));
    EventTimeWindow base = exampleATumbling();
    EventTimeWindowResult tumbling = in.rows().apply("Tumbling", base);
    EventTimeWindowResult hopping = in.rows().apply("Hopping", EventTimeWindow.of(base.query()
        .withSpec(WindowSpec.hopping(A.hopping().slideMillis(), A.hopping().sizeMillis()))).withTimeField("event_time"));
    EventTimeWindowResult session = in.rows().apply("Session", EventTimeWindow.of(base.query()
        .withSpec(WindowSpec.session(A.session().gapMillis()))).withTimeField("event_time"));
    PAssert.that(format("TumblingRows", tumbling.windows())).containsInAnyOrder(A.tumbling().texts());
    PAssert.that(format("HoppingRows", hopping.windows())).containsInAnyOrder(A.hopping().texts());
    PAssert.that(format("SessionRows", session.windows())).containsInAnyOrder(A.session().texts());
    PAssert.that(format("TumblingLate", tumbling.late())).containsInAnyOrder(exampleALate(file));
    PipelineResult result = p.run();
    result.waitUntilFinish();
    assertThat(EventTimeMetrics.stats(result, "Tumbling")).isEqualTo(A.tumbling().stats());
    assertThat(EventTimeMetrics.stats(result, "Hopping")).isEqualTo(A.hopping().stats());
    assertThat(EventTimeMetrics.stats(result, "Session")).isEqualTo(A.session().stats());
  }

  @Test
  void exampleC_perKeyWindowsOverItsFile() throws IOException {
    Pipeline p = Pipeline.create(options());
    NdjsonIO.Result in = p.apply("Read", NdjsonIO.read(write("events.ndjson", C.lines()).toString()));
    EventTimeWindow base = EventTimeWindow.of(WindowSpec.tumbling(C.tumbling().sizeMillis()))
        .withTimeField(C.timeField()).withKeys(C.keyField());
    EventTimeWindowResult tumbling = in.rows().apply("Tumbling",
        base.withAggregates(AggregateSpec.countAll("n"), AggregateSpec.of(AggregateKind.SUM, "amount", "total")));
    EventTimeWindowResult hopping = in.rows().apply("Hopping", EventTimeWindow.of(base.query()
        .withSpec(WindowSpec.hopping(C.hopping().slideMillis(), C.hopping().sizeMillis()))
        .withAggregates(AggregateSpec.countAll("n"))).withTimeField(C.timeField()));
    EventTimeWindowResult session = in.rows().apply("Session", EventTimeWindow.of(base.query()
        .withSpec(WindowSpec.session(C.session().gapMillis())).withAggregates(AggregateSpec.countAll("n")))
        .withTimeField(C.timeField()));
    PAssert.that(format("TumblingRows", tumbling.windows())).containsInAnyOrder(C.tumbling().texts());
    PAssert.that(format("HoppingRows", hopping.windows())).containsInAnyOrder(C.hopping().texts());
    PAssert.that(format("SessionRows", session.windows())).containsInAnyOrder(C.session().texts());
    PipelineResult result = p.run();
    result.waitUntilFinish();
    assertThat(EventTimeMetrics.stats(result, "Tumbling")).isEqualTo(C.tumbling().stats());
    assertThat(EventTimeMetrics.stats(result, "Hopping")).isEqualTo(C.hopping().stats());
    assertThat(EventTimeMetrics.stats(result, "Session")).isEqualTo(C.session().stats());
  }

  @Test
  void randomStreamWithLateAndRejectedRows_matchesTheCoreProcessor() throws IOException {
    RandomStream stream = RandomStream.generate(new Random(20261130), randomRows());
    Path file = write("random.ndjson", stream.lines);
    String source = file.toString();
    Pipeline p = Pipeline.create(options());
    NdjsonIO.Result in = p.apply("Read", NdjsonIO.read(file.toString()));
    PAssert.that(in.rejected().apply("RejectedLines", MapElements.into(TypeDescriptors.longs())
        .via((Row r) -> r.getInt64("line")))).containsInAnyOrder(stream.malformedLines);
    List<Expectation> expectations = new ArrayList<>();
    WindowSpec[] specs = {WindowSpec.tumbling(MIN), WindowSpec.hopping(20_000, MIN), WindowSpec.session(45_000)};
    for (WindowSpec spec : specs) {
      for (LatePolicy policy : LatePolicy.values()) {
        WindowQuery q = WindowQuery.of(spec).withKeys("user").withDelay(30_000).withLatePolicy(policy)
            .withAggregates(AggregateSpec.countAll("n"), AggregateSpec.of(AggregateKind.SUM, "amount", "total"),
                AggregateSpec.of(AggregateKind.MIN, "amount", "low"), AggregateSpec.of(AggregateKind.MAX, "event_time", "latest"),
                AggregateSpec.of(AggregateKind.AVG, "amount", "mean"), AggregateSpec.of(AggregateKind.FIRST, "tag", "first_tag"),
                AggregateSpec.of(AggregateKind.LAST, "tag", "last_tag"),
                AggregateSpec.of(AggregateKind.COUNT_DISTINCT, "tag", "tags"), AggregateSpec.of(AggregateKind.COUNT, "tag", "tagged"));
        // grid windows also in blocks of 8 positions, so that most rows need the rows of their block
        for (int blockBits : spec instanceof WindowSpec.Session ? new int[] {10} : new int[] {10, 3}) {
          String name = spec.kind() + "-" + policy.label() + "-" + blockBits;
          // blocks of 2^10 also rank the window rows: rank i is the core's i-th window row
          boolean ranked = blockBits == 10;
          EventTimeWindow window = EventTimeWindow.of(q).withTimeField("event_time").withBlockBits(blockBits);
          EventTimeWindowResult r = in.rows().apply(name, ranked ? window.withCloseOrder() : window);
          Expectation e = stream.expected(q);
          PAssert.that(format(name + "-rows", r.windows())).containsInAnyOrder(e.rows);
          if (ranked) {
            List<String> inOrder = new ArrayList<>();
            for (int i = 0; i < e.rows.size(); i++) {
              inOrder.add(i + " " + e.rows.get(i));
            }
            PAssert.that(r.windowsInCloseOrder().apply(name + "-ranks", MapElements.into(TypeDescriptors.strings())
                .via((KV<Long, Row> w) -> w.getKey() + " " + formatRow(w.getValue())))).containsInAnyOrder(inOrder);
          }
          PAssert.that(r.late().apply(name + "-late", MapElements.into(TypeDescriptors.strings())
              .via((Row row) -> row.getRow(ProblemRows.ROW).getInt64(EventTimeWindow.DEFAULT_ARRIVAL_FIELD) + "|"
                  + row.getString(ProblemRows.REASON).replace(source, "FILE"))))
              .containsInAnyOrder(e.lateRows);
          PAssert.that(r.rejected().apply(name + "-rejected", MapElements.into(TypeDescriptors.longs())
              .via((Row row) -> row.getRow(ProblemRows.ROW).getInt64(EventTimeWindow.DEFAULT_ARRIVAL_FIELD))))
              .containsInAnyOrder(stream.nullTimePositions);
          e.name = name;
          expectations.add(e);
        }
      }
    }
    PipelineResult result = p.run();
    result.waitUntilFinish();
    for (Expectation e : expectations) {
      assertThat(EventTimeMetrics.stats(result, e.name)).as(e.name).isEqualTo(e.stats);
      assertThat(e.stats.lateDropped()).as(e.name + " has late rows").isPositive();
    }
  }

  @Test
  void outputsAreStampedAtTheWindowsEndOrTheLateRowsEventTime_soBeamCanWindowThemAgain() throws IOException {
    Pipeline p = Pipeline.create(options());
    PCollection<Row> sample = p.apply("Read", NdjsonIO.read(sampleEvents().toString())).rows();
    EventTimeWindowResult tumbling = sample.apply("Tumbling", EventTimeWindow.of(WindowSpec.tumbling(MIN))
        .withTimeField("event_time").withKeys("merchant").withAggregates(AggregateSpec.countAll("n")));
    EventTimeWindowResult session = sample.apply("Session", EventTimeWindow.of(WindowSpec.session(MIN))
        .withTimeField("event_time").withKeys("merchant").withAggregates(AggregateSpec.countAll("n")));
    PAssert.that(tumbling.windows().apply("TumblingStamps", ParDo.of(new StampFn()))).containsInAnyOrder(
        "acme|2026-07-18 10:00:00|2026-07-18 10:01:00|1@2026-07-18T10:00:59.999Z",
        "globex|2026-07-18 10:00:00|2026-07-18 10:01:00|1@2026-07-18T10:00:59.999Z",
        "acme|2026-07-18 10:01:00|2026-07-18 10:02:00|2@2026-07-18T10:01:59.999Z",
        "globex|2026-07-18 10:02:00|2026-07-18 10:03:00|1@2026-07-18T10:02:59.999Z");
    PAssert.that(session.windows().apply("SessionStamps", ParDo.of(new StampFn()))).containsInAnyOrder(
        "acme|2026-07-18 10:00:03|2026-07-18 10:01:03|1@2026-07-18T10:01:02.999Z",
        "globex|2026-07-18 10:00:07|2026-07-18 10:01:07|1@2026-07-18T10:01:06.999Z",
        "acme|2026-07-18 10:01:12|2026-07-18 10:02:48|2@2026-07-18T10:02:47.999Z",
        "globex|2026-07-18 10:02:20|2026-07-18 10:03:20|1@2026-07-18T10:03:19.999Z");
    // Beam's own windows and a combine over the window rows: two-minute windows of the minutes
    PAssert.that(tumbling.windows()
            .apply("TwoMinutes", Window.into(FixedWindows.of(org.joda.time.Duration.standardMinutes(2))))
            .apply("Rows", MapElements.into(TypeDescriptors.longs()).via((Row r) -> r.getInt64("n")))
            .apply("Sum", Combine.globally(Sum.ofLongs()).withoutDefaults())
            .apply("InWindow", ParDo.of(new InWindowFn())))
        .containsInAnyOrder("[2026-07-18 10:00:00, 2026-07-18 10:02:00) 4", "[2026-07-18 10:02:00, 2026-07-18 10:04:00) 1");

    EventTimeWindow late = exampleATumbling();
    Path file = exampleA();
    PCollection<Row> exampleA = p.apply("ReadA", NdjsonIO.read(file.toString())).rows();
    // a late row is stamped at its own event time
    List<String> lateStamped = exampleALate(file).stream()
        .map(l -> l + "@" + new org.joda.time.Instant(WorkedExamples.millis(l.substring(0, 19)))).toList();
    PAssert.that(exampleA.apply("Late", late).late().apply("LateStamps", ParDo.of(new StampFn())))
        .containsInAnyOrder(lateStamped);
    PAssert.that(exampleA.apply("LateSession", EventTimeWindow.of(late.query()
            .withSpec(WindowSpec.session(A.session().gapMillis()))).withTimeField("event_time")).late()
            .apply("LateSessionStamps", ParDo.of(new StampFn())))
        .containsInAnyOrder(lateStamped);
    p.run().waitUntilFinish();
  }

  /** A row as text with the Beam timestamp it carries. */
  static final class StampFn extends DoFn<Row, String> {
    @ProcessElement
    public void process(ProcessContext c) {
      c.output(formatRow(c.element()) + "@" + c.timestamp());
    }
  }

  /** A number with the Beam window it is in. */
  static final class InWindowFn extends DoFn<Long, String> {
    @ProcessElement
    public void process(@Element Long n, BoundedWindow window, OutputReceiver<String> out) {
      IntervalWindow w = (IntervalWindow) window;
      out.output("[" + TimeText.format(w.start().getMillis()) + ", " + TimeText.format(w.end().getMillis()) + ") " + n);
    }
  }

  @Test
  void exampleB_twoRunsWithState() throws IOException {
    EventTimeWindow window = EventTimeWindow.of(WindowSpec.tumbling(B.sizeMillis())).withTimeField("event_time")
        .withWatermarkDelay(java.time.Duration.ofMillis(B.delayMillis())).withLatePolicy(LatePolicy.parse(B.policy()))
        .withAggregates(AggregateSpec.countAll("events"));
    Path state = dir.resolve("state");

    int i = 1;
    for (WorkedExamples.Run run : List.of(B.run1(), B.run2())) {
      List<String> emitted = runWithState(window, state, "run" + i + ".ndjson", run.times());
      assertThat(emitted).as("run " + i).containsExactlyInAnyOrderElementsOf(texts(run.windows()));
      OpenState after = load(state, window);
      assertThat(after.maxEventTime() - B.delayMillis()).as("run " + i).isEqualTo(run.watermarkMillis());
      assertThat(after.windows().stream().map(ConformanceSuite::formatOpen).toList()).as("run " + i)
          .isEqualTo(texts(run.open()));
      i++;
    }
  }

  @Test
  void aStreamSplitIntoThreeRunsYieldsTheWindowsOfOneRun() throws IOException {
    RandomStream stream = RandomStream.generate(new Random(7), randomRows() * 3 / 10);
    int n = stream.lines.size();
    int[] cuts = {0, n * 311 / 900, n * 640 / 900, n};
    List<String> names = new ArrayList<>();
    List<EventTimeWindow> windows = new ArrayList<>();
    List<Expectation> whole = new ArrayList<>();
    for (WindowSpec spec : new WindowSpec[] {WindowSpec.tumbling(MIN), WindowSpec.hopping(20_000, MIN), WindowSpec.session(45_000)}) {
      for (LatePolicy policy : LatePolicy.values()) {
        WindowQuery q = WindowQuery.of(spec).withKeys("user").withDelay(30_000).withLatePolicy(policy)
            .withAggregates(AggregateSpec.countAll("n"), AggregateSpec.of(AggregateKind.SUM, "amount", "total"),
                AggregateSpec.of(AggregateKind.FIRST, "tag", "first_tag"), AggregateSpec.of(AggregateKind.LAST, "tag", "last_tag"));
        names.add(spec.kind() + "-" + policy.label());
        windows.add(EventTimeWindow.of(q).withTimeField("event_time"));
        whole.add(stream.expected(q, new Object[][] {{null}, {"amount"}, {"tag"}, {"tag"}}));
      }
    }
    List<List<String>> emitted = new ArrayList<>();
    windows.forEach(w -> emitted.add(new ArrayList<>()));
    for (int run = 0; run < 3; run++) {
      Path file = write("part" + run + ".ndjson", stream.lines.subList(cuts[run], cuts[run + 1]));
      Pipeline p = Pipeline.create(options());
      PCollection<Row> rows = p.apply("Read", NdjsonIO.read(file.toString())).rows();
      List<EventTimeState> states = new ArrayList<>();
      List<Path> outputs = new ArrayList<>();
      for (int i = 0; i < windows.size(); i++) {
        EventTimeState state = EventTimeState.open(dir.resolve("state-" + names.get(i)), windows.get(i));
        states.add(state);
        Path out = dir.resolve("out-" + run + "-" + names.get(i));
        outputs.add(out);
        writeLines(format("Format-" + names.get(i), rows.apply(names.get(i), windows.get(i).withState(state)).windows()),
            out);
      }
      p.run().waitUntilFinish();
      for (int i = 0; i < windows.size(); i++) {
        states.get(i).commit();
        states.get(i).close();
        emitted.get(i).addAll(readLines(outputs.get(i)));
      }
    }
    for (int i = 0; i < windows.size(); i++) {
      List<String> all = new ArrayList<>(emitted.get(i));
      for (OpenState.OpenWindow w : load(dir.resolve("state-" + names.get(i)), windows.get(i)).windows()) {
        all.add(formatOpen(w));
      }
      assertThat(all).as(names.get(i)).containsExactlyInAnyOrderElementsOf(whole.get(i).rows);
      assertThat(emitted.get(i)).as(names.get(i) + ": each window emitted once").doesNotHaveDuplicates();
    }
  }

  private static List<String> texts(List<WorkedExamples.Window> windows) {
    return windows.stream().map(WorkedExamples.Window::text).toList();
  }

  private List<String> runWithState(EventTimeWindow window, Path state, String name, List<String> times)
      throws IOException {
    List<String> lines = new ArrayList<>();
    for (String t : times) {
      lines.add("{\"event_time\":\"" + t + "\"}");
    }
    Path file = write(name, lines);
    Path out = dir.resolve(name + ".out");
    try (EventTimeState s = EventTimeState.open(state, window)) {
      Pipeline p = Pipeline.create(options());
      PCollection<Row> rows = p.apply("Read", NdjsonIO.read(file.toString())).rows();
      writeLines(format("Format", rows.apply("Window", window.withState(s)).windows()), out);
      p.run().waitUntilFinish();
      s.commit();
    }
    return readLines(out);
  }

  private static OpenState load(Path state, EventTimeWindow window) {
    try (StateStore store = StateStore.open(state, window.query(), window.timeField())) {
      return store.load();
    }
  }

  private static String formatOpen(OpenState.OpenWindow w) {
    StringJoiner j = new StringJoiner("|");
    for (int i = 0; i < w.key().size(); i++) {
      j.add(formatValue(w.key().get(i)));
    }
    j.add(TimeText.format(w.start())).add(TimeText.format(w.end()));
    for (Accumulator a : w.accumulators()) {
      j.add(formatValue(a.result()));
    }
    return j.toString();
  }

  /** Writes the strings to files under {@code prefix}, for reading back after the run on any runner. */
  private static void writeLines(PCollection<String> lines, Path prefix) {
    lines.apply("Write" + prefix.getFileName(), TextIO.write().to(prefix.toString()).withSuffix(".txt"));
  }

  private static List<String> readLines(Path prefix) throws IOException {
    List<String> lines = new ArrayList<>();
    try (var files = Files.newDirectoryStream(prefix.getParent(), prefix.getFileName() + "*.txt")) {
      for (Path f : files) {
        lines.addAll(Files.readAllLines(f));
      }
    }
    return lines;
  }

  private Path write(String name, List<String> lines) throws IOException {
    Path file = dir.resolve(name);
    Files.write(file, lines);
    return file;
  }

  static Path sampleEvents() {
    Path p = Path.of("samples/data/events.ndjson");
    for (int up = 0; up < 4 && !Files.exists(p); up++) {
      p = Path.of("..").resolve(p);
    }
    return p.toAbsolutePath().normalize();
  }

  /** Window rows as text: every field but the arrival position, '|' between, times as the CLI writes them. */
  static PCollection<String> format(String name, PCollection<Row> rows) {
    return rows.apply(name, MapElements.into(TypeDescriptors.strings()).via(ConformanceSuite::formatRow));
  }

  static String formatRow(Row r) {
    StringJoiner j = new StringJoiner("|");
    for (int i = 0; i < r.getFieldCount(); i++) {
      String field = r.getSchema().getField(i).getName();
      if (field.equals(EventTimeWindow.DEFAULT_ARRIVAL_FIELD)) {
        j.add(String.valueOf(r.getInt64(i)));
        continue;
      }
      j.add(formatValue(r.getValue(i)));
    }
    return j.toString();
  }

  static String formatValue(Object v) {
    if (v instanceof Row nested) {
      return formatRow(nested);
    }
    if (v instanceof ReadableInstant t) {
      return TimeText.format(t.getMillis());
    }
    if (v instanceof java.time.Instant t) {
      return TimeText.format(t.toEpochMilli());
    }
    return String.valueOf(v);
  }

  /** What one query must yield. */
  static final class Expectation {
    final List<String> rows = new ArrayList<>();
    /** Each late row's position and the reason the late output must give. */
    final List<String> lateRows = new ArrayList<>();
    Stats stats;
    String name;
  }

  /**
   * A disordered stream of a few keys: mostly in order, some rows held back by up to three
   * minutes (so that some are late), a few with a null time, a few malformed lines.
   */
  static final class RandomStream {
    final List<String> lines = new ArrayList<>();
    final List<Object[]> rows = new ArrayList<>(); // position, user, amount, time millis or null, tag
    final List<Long> malformedLines = new ArrayList<>();
    final List<Long> nullTimePositions = new ArrayList<>();

    static RandomStream generate(Random random, int n) {
      RandomStream s = new RandomStream();
      long base = java.time.Instant.parse("2026-05-01T08:00:00Z").toEpochMilli();
      long clock = base;
      String[] users = {"ann", "bob", "cid", "dee", "eve"};
      for (int i = 0; i < n; i++) {
        long line = i + 1;
        if (random.nextInt(100) == 0) {
          s.lines.add("{\"user\": \"broken\", ");
          s.malformedLines.add(line);
          continue;
        }
        clock += random.nextInt(4000);
        long ts = random.nextInt(10) == 0 ? clock - random.nextInt(180_000) : clock;
        String user = users[random.nextInt(users.length)];
        long amount = random.nextInt(1000) - 100;
        String tag = random.nextInt(5) == 0 ? null : "t" + random.nextInt(7);
        boolean nullTime = random.nextInt(150) == 0;
        long position = ArrivalPosition.of(0, line);
        s.rows.add(new Object[] {position, user, amount, nullTime ? null : ts, tag});
        if (nullTime) {
          s.nullTimePositions.add(position);
        }
        s.lines.add("{\"user\":\"" + user + "\",\"amount\":" + amount + ",\"event_time\":"
            + (nullTime ? "null" : "\"" + TimeText.format(ts) + "\"")
            + ",\"tag\":" + (tag == null ? "null" : "\"" + tag + "\"") + "}");
      }
      return s;
    }

    /** The rows and stats the core processor yields for {@code q} over these arrivals. */
    Expectation expected(WindowQuery q) {
      return expected(q, null);
    }

    /**
     * The same, with the aggregates' inputs named: {@code inputs[i][0]} is the field of aggregate i
     * ({@code null} for count(*)); without it, the aggregates of the random-stream test.
     */
    Expectation expected(WindowQuery q, Object[][] inputs) {
      Expectation e = new Expectation();
      WindowProcessor p = new WindowProcessor(q, w -> {
        StringJoiner j = new StringJoiner("|");
        for (int i = 0; i < w.key().size(); i++) {
          j.add(formatValue(w.key().get(i)));
        }
        j.add(TimeText.format(w.start())).add(TimeText.format(w.end()));
        for (Object v : w.values()) {
          j.add(formatValue(v));
        }
        e.rows.add(j.toString());
      });
      EventTimeParser parser = EventTimeParser.defaults();
      for (Object[] r : rows) {
        if (r[3] == null) {
          p.reject();
          continue;
        }
        long ts = (Long) r[3];
        Object[] values = {null, r[2], r[2], java.time.Instant.ofEpochMilli(ts), r[2], r[4], r[4], r[4], r[4]};
        if (inputs != null) {
          values = new Object[inputs.length];
          for (int i = 0; i < inputs.length; i++) {
            values[i] = inputs[i][0] == null ? null : inputs[i][0].equals("amount") ? r[2] : r[4];
          }
        }
        long eventTime = parser.parse(java.time.Instant.ofEpochMilli(ts));
        if (!p.process(Key.of(r[1]), eventTime, values)) {
          e.lateRows.add(r[0] + "|line " + ArrivalPosition.line((Long) r[0]) + " of FILE: " + p.lateReason(eventTime));
        }
      }
      p.finish();
      e.stats = p.stats();
      return e;
    }
  }
}
