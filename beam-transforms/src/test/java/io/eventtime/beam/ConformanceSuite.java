package io.eventtime.beam;

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

  @Test
  void exampleA_allThreeKindsWithDelayAndEventPolicy() throws IOException {
    String[] times = {"00:01", "00:04", "00:08", "00:12", "00:05", "00:11", "00:30", "00:34"};
    List<String> lines = new ArrayList<>();
    for (String t : times) {
      lines.add("{\"event_time\":\"2026-03-01 " + t + ":00\"}");
    }
    Path file = write("example-a.ndjson", lines);
    Pipeline p = Pipeline.create(options());
    NdjsonIO.Result in = p.apply("Read", NdjsonIO.read(file.toString()));
    EventTimeWindow base = EventTimeWindow.of(WindowSpec.tumbling(10 * MIN)).withTimeField("event_time")
        .withWatermarkDelay(java.time.Duration.ofMinutes(5)).withLatePolicy(LatePolicy.EVENT)
        .withAggregates(AggregateSpec.countAll("events"));
    EventTimeWindowResult tumbling = in.rows().apply("Tumbling", base);
    EventTimeWindowResult hopping = in.rows().apply("Hopping",
        EventTimeWindow.of(base.query().withSpec(WindowSpec.hopping(5 * MIN, 10 * MIN))).withTimeField("event_time"));
    EventTimeWindowResult session = in.rows().apply("Session",
        EventTimeWindow.of(base.query().withSpec(WindowSpec.session(5 * MIN))).withTimeField("event_time"));
    PAssert.that(format("TumblingRows", tumbling.windows())).containsInAnyOrder(
        "2026-03-01 00:00:00|2026-03-01 00:10:00|3",
        "2026-03-01 00:10:00|2026-03-01 00:20:00|2",
        "2026-03-01 00:30:00|2026-03-01 00:40:00|2");
    PAssert.that(format("HoppingRows", hopping.windows())).containsInAnyOrder(
        "2026-02-28 23:55:00|2026-03-01 00:05:00|2",
        "2026-03-01 00:00:00|2026-03-01 00:10:00|3",
        "2026-03-01 00:05:00|2026-03-01 00:15:00|3",
        "2026-03-01 00:10:00|2026-03-01 00:20:00|2",
        "2026-03-01 00:25:00|2026-03-01 00:35:00|2",
        "2026-03-01 00:30:00|2026-03-01 00:40:00|2");
    PAssert.that(format("SessionRows", session.windows())).containsInAnyOrder(
        "2026-03-01 00:01:00|2026-03-01 00:17:00|5",
        "2026-03-01 00:30:00|2026-03-01 00:39:00|2");
    PAssert.that(format("TumblingLate", tumbling.late())).containsInAnyOrder(
        "2026-03-01 00:05:00|5|event_time|line 5 of " + file + ": event time 2026-03-01 00:05:00 is behind the watermark"
            + " 2026-03-01 00:07:00 (late policy event)");
    PipelineResult result = p.run();
    result.waitUntilFinish();
    assertThat(EventTimeMetrics.stats(result, "Tumbling")).isEqualTo(new Stats(8, 3, 1, 3, 7, 0));
    assertThat(EventTimeMetrics.stats(result, "Hopping")).isEqualTo(new Stats(8, 6, 1, 6, 7, 0));
    assertThat(EventTimeMetrics.stats(result, "Session")).isEqualTo(new Stats(8, 2, 1, 2, 7, 0));
  }

  @Test
  void exampleC_perKeyWindowsOverTheSampleFile() {
    Pipeline p = Pipeline.create(options());
    NdjsonIO.Result in = p.apply("Read", NdjsonIO.read(sampleEvents().toString()));
    EventTimeWindow base = EventTimeWindow.of(WindowSpec.tumbling(MIN)).withTimeField("event_time").withKeys("merchant");
    EventTimeWindowResult tumbling = in.rows().apply("Tumbling",
        base.withAggregates(AggregateSpec.countAll("n"), AggregateSpec.of(AggregateKind.SUM, "amount", "total")));
    EventTimeWindowResult hopping = in.rows().apply("Hopping",
        EventTimeWindow.of(base.query().withSpec(WindowSpec.hopping(30_000, MIN)).withAggregates(AggregateSpec.countAll("n")))
            .withTimeField("event_time"));
    EventTimeWindowResult session = in.rows().apply("Session",
        EventTimeWindow.of(base.query().withSpec(WindowSpec.session(MIN)).withAggregates(AggregateSpec.countAll("n")))
            .withTimeField("event_time"));
    PAssert.that(format("TumblingRows", tumbling.windows())).containsInAnyOrder(
        "acme|2026-07-18 10:00:00|2026-07-18 10:01:00|1|250",
        "globex|2026-07-18 10:00:00|2026-07-18 10:01:00|1|42",
        "acme|2026-07-18 10:01:00|2026-07-18 10:02:00|2|1090",
        "globex|2026-07-18 10:02:00|2026-07-18 10:03:00|1|7");
    PAssert.that(format("HoppingRows", hopping.windows())).containsInAnyOrder(
        "acme|2026-07-18 09:59:30|2026-07-18 10:00:30|1",
        "globex|2026-07-18 09:59:30|2026-07-18 10:00:30|1",
        "acme|2026-07-18 10:00:00|2026-07-18 10:01:00|1",
        "globex|2026-07-18 10:00:00|2026-07-18 10:01:00|1",
        "acme|2026-07-18 10:00:30|2026-07-18 10:01:30|1",
        "acme|2026-07-18 10:01:00|2026-07-18 10:02:00|2",
        "acme|2026-07-18 10:01:30|2026-07-18 10:02:30|1",
        "globex|2026-07-18 10:01:30|2026-07-18 10:02:30|1",
        "globex|2026-07-18 10:02:00|2026-07-18 10:03:00|1");
    PAssert.that(format("SessionRows", session.windows())).containsInAnyOrder(
        "acme|2026-07-18 10:00:03|2026-07-18 10:01:03|1",
        "globex|2026-07-18 10:00:07|2026-07-18 10:01:07|1",
        "acme|2026-07-18 10:01:12|2026-07-18 10:02:48|2",
        "globex|2026-07-18 10:02:20|2026-07-18 10:03:20|1");
    PipelineResult result = p.run();
    result.waitUntilFinish();
    assertThat(EventTimeMetrics.stats(result, "Tumbling")).isEqualTo(new Stats(5, 4, 0, 3, 5, 0));
    assertThat(EventTimeMetrics.stats(result, "Hopping")).isEqualTo(new Stats(5, 9, 0, 6, 5, 0));
    assertThat(EventTimeMetrics.stats(result, "Session")).isEqualTo(new Stats(5, 4, 0, 4, 5, 0));
  }

  @Test
  void randomStreamWithLateAndRejectedRows_matchesTheCoreProcessor() throws IOException {
    RandomStream stream = RandomStream.generate(new Random(20261130), 3000);
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
          EventTimeWindowResult r = in.rows().apply(name,
              EventTimeWindow.of(q).withTimeField("event_time").withBlockBits(blockBits));
          Expectation e = stream.expected(q);
          PAssert.that(format(name + "-rows", r.windows())).containsInAnyOrder(e.rows);
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

    String[] times = {"00:01", "00:04", "00:08", "00:12", "00:05", "00:11", "00:30", "00:34"};
    List<String> lines = new ArrayList<>();
    for (String t : times) {
      lines.add("{\"event_time\":\"2026-03-01 " + t + ":00\"}");
    }
    EventTimeWindow late = EventTimeWindow.of(WindowSpec.tumbling(10 * MIN)).withTimeField("event_time")
        .withWatermarkDelay(java.time.Duration.ofMinutes(5)).withLatePolicy(LatePolicy.EVENT)
        .withAggregates(AggregateSpec.countAll("events"));
    Path file = write("example-a.ndjson", lines);
    PCollection<Row> exampleA = p.apply("ReadA", NdjsonIO.read(file.toString())).rows();
    PAssert.that(exampleA.apply("Late", late).late().apply("LateStamps", ParDo.of(new StampFn())))
        .containsInAnyOrder("2026-03-01 00:05:00|5|event_time|line 5 of " + file + ": event time 2026-03-01 00:05:00"
            + " is behind the watermark 2026-03-01 00:07:00 (late policy event)@2026-03-01T00:05:00.000Z");
    PAssert.that(exampleA.apply("LateSession", EventTimeWindow.of(late.query().withSpec(WindowSpec.session(5 * MIN)))
            .withTimeField("event_time")).late().apply("LateSessionStamps", ParDo.of(new StampFn())))
        .containsInAnyOrder("2026-03-01 00:05:00|5|event_time|line 5 of " + file + ": event time 2026-03-01 00:05:00"
            + " is behind the watermark 2026-03-01 00:07:00 (late policy event)@2026-03-01T00:05:00.000Z");
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
    EventTimeWindow window = EventTimeWindow.of(WindowSpec.tumbling(10 * MIN)).withTimeField("event_time")
        .withWatermarkDelay(java.time.Duration.ofMinutes(5)).withLatePolicy(LatePolicy.EVENT)
        .withAggregates(AggregateSpec.countAll("events"));
    Path state = dir.resolve("state");

    List<String> run1 = runWithState(window, state, "run1.ndjson", "00:01", "00:04", "00:08", "00:12", "00:17");
    assertThat(run1).containsExactly("2026-03-01 00:00:00|2026-03-01 00:10:00|3");
    OpenState after1 = load(state, window);
    assertThat(after1.maxEventTime() - 5 * MIN).isEqualTo(java.time.Instant.parse("2026-03-01T00:12:00Z").toEpochMilli());
    assertThat(after1.windows()).singleElement().satisfies(w -> {
      assertThat(TimeText.format(w.start())).isEqualTo("2026-03-01 00:10:00");
      assertThat(w.accumulators()[0].result()).isEqualTo(2L);
    });

    List<String> run2 = runWithState(window, state, "run2.ndjson", "00:05", "00:11", "00:13", "00:30", "00:34");
    assertThat(run2).containsExactly("2026-03-01 00:10:00|2026-03-01 00:20:00|3");
    OpenState after2 = load(state, window);
    assertThat(TimeText.format(after2.maxEventTime() - 5 * MIN)).isEqualTo("2026-03-01 00:29:00");
    assertThat(after2.windows()).singleElement().satisfies(w -> {
      assertThat(TimeText.format(w.start())).isEqualTo("2026-03-01 00:30:00");
      assertThat(w.accumulators()[0].result()).isEqualTo(2L);
    });
  }

  @Test
  void aStreamSplitIntoThreeRunsYieldsTheWindowsOfOneRun() throws IOException {
    RandomStream stream = RandomStream.generate(new Random(7), 900);
    int[] cuts = {0, 311, 640, stream.lines.size()};
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

  private List<String> runWithState(EventTimeWindow window, Path state, String name, String... times)
      throws IOException {
    List<String> lines = new ArrayList<>();
    for (String t : times) {
      lines.add("{\"event_time\":\"2026-03-01 " + t + ":00\"}");
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
