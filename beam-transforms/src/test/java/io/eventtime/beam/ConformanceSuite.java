package io.eventtime.beam;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.core.AggregateKind;
import io.eventtime.core.AggregateSpec;
import io.eventtime.core.EventTimeParser;
import io.eventtime.core.Key;
import io.eventtime.core.LatePolicy;
import io.eventtime.core.Stats;
import io.eventtime.core.TimeText;
import io.eventtime.core.WindowProcessor;
import io.eventtime.core.WindowQuery;
import io.eventtime.core.WindowSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.StringJoiner;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.transforms.MapElements;
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
        "2026-03-01 00:05:00|5|event_time|arrival 5: event time 2026-03-01 00:05:00 is behind the watermark"
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
        String name = spec.kind() + "-" + policy.label();
        EventTimeWindowResult r = in.rows().apply(name, EventTimeWindow.of(q).withTimeField("event_time"));
        Expectation e = stream.expected(q);
        PAssert.that(format(name + "-rows", r.windows())).containsInAnyOrder(e.rows);
        PAssert.that(r.late().apply(name + "-late", MapElements.into(TypeDescriptors.longs())
            .via((Row row) -> row.getRow(ProblemRows.ROW).getInt64(EventTimeWindow.DEFAULT_ARRIVAL_FIELD))))
            .containsInAnyOrder(e.latePositions);
        PAssert.that(r.rejected().apply(name + "-rejected", MapElements.into(TypeDescriptors.longs())
            .via((Row row) -> row.getRow(ProblemRows.ROW).getInt64(EventTimeWindow.DEFAULT_ARRIVAL_FIELD))))
            .containsInAnyOrder(stream.nullTimePositions);
        e.name = name;
        expectations.add(e);
      }
    }
    PipelineResult result = p.run();
    result.waitUntilFinish();
    for (Expectation e : expectations) {
      assertThat(EventTimeMetrics.stats(result, e.name)).as(e.name).isEqualTo(e.stats);
      assertThat(e.stats.lateDropped()).as(e.name + " has late rows").isPositive();
    }
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
    final List<Long> latePositions = new ArrayList<>();
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
        long position = NdjsonIO.position(0, line);
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
        Object[] inputs = {null, r[2], r[2], java.time.Instant.ofEpochMilli(ts), r[2], r[4], r[4], r[4], r[4]};
        if (!p.process(Key.of(r[1]), parser.parse(java.time.Instant.ofEpochMilli(ts)), inputs)) {
          e.latePositions.add((Long) r[0]);
        }
      }
      p.finish();
      e.stats = p.stats();
      return e;
    }
  }
}
