package io.eventtime.hop.beam.bench;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.eventtime.beam.EventTimeWindow;
import io.eventtime.beam.EventTimeWindowResult;
import io.eventtime.beam.NdjsonIO;
import io.eventtime.core.AggregateKind;
import io.eventtime.core.AggregateSpec;
import io.eventtime.core.LatePolicy;
import io.eventtime.core.TimeText;
import io.eventtime.core.WindowQuery;
import io.eventtime.core.WindowSpec;
import io.eventtime.hop.beam.BeamRunner;
import io.eventtime.hop.beam.HopBeamRun;
import io.eventtime.hop.beam.HopBeamTesting;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.io.TextIO;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.joda.time.ReadableInstant;

/**
 * The benchmark of Hop pipelines on Beam (a harness, not a test): the same keyed window
 * pipeline over a million generated rows, translated from its .hpl, beside the same windows
 * written by hand as a Beam pipeline (NdjsonIO, EventTimeWindow, TextIO), on one runner; or, with
 * {@code --runner local}, on Hop's local engine. Rounds alternate the two so that a busy machine
 * weighs on both alike; the first round warms the JVM up and is not counted. Both write the same
 * windows: checked at the end, as sets of lines (the hand-written one writes them in any order).
 *
 * <pre>
 * java -cp ... io.eventtime.hop.beam.bench.HopBeamBenchmark direct|flink|spark|local [rows] [rounds] [work folder]
 * </pre>
 */
public final class HopBeamBenchmark {
  private static final int USERS = 1000;
  private static final long START = 1_772_323_200_000L; // 2026-03-01 00:00:00 UTC

  private HopBeamBenchmark() {}

  public static void main(String[] args) throws Exception {
    String runner = args.length > 0 ? args[0] : "direct";
    int rows = args.length > 1 ? Integer.parseInt(args[1]) : 1_000_000;
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
    Path work = Path.of(args.length > 3 ? args[3] : "target/bench").toAbsolutePath();
    Files.createDirectories(work);
    System.setProperty("HOP_CONFIG_FOLDER", work.resolve("hop-config").toString());
    HopBeamTesting.initHop();
    Path data = work.resolve("events-" + rows + ".ndjson");
    if (!Files.exists(data)) {
      generate(data, rows);
    }
    Path hpl = work.resolve("keyed-windows-1m.hpl");
    try (InputStream in = HopBeamBenchmark.class.getResourceAsStream("/bench/keyed-windows-1m.hpl")) {
      Files.copy(in, hpl, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }
    if (runner.equals("local")) {
      List<Long> times = new ArrayList<>();
      for (int r = 0; r <= rounds; r++) {
        long t0 = System.nanoTime();
        HopBeamTesting.runLocal(hpl, Map.of("INPUT_FILE", data.toString(), "OUTPUT_FOLDER", work.resolve("out-local").toString()));
        long ms = (System.nanoTime() - t0) / 1_000_000;
        System.out.printf("round %d local engine: %d ms%n", r, ms);
        if (r > 0) {
          times.add(ms);
        }
      }
      System.out.printf(Locale.ROOT, "| local engine | %d rows | %d ms | %.0f rows/s |%n", rows, median(times),
          rows * 1000.0 / median(times));
      return;
    }
    BeamRunner beam = BeamRunner.parse(runner);
    List<Long> translated = new ArrayList<>();
    List<Long> handWritten = new ArrayList<>();
    for (int r = 0; r <= rounds; r++) {
      // every other round the hand-written pipeline goes first, so that neither always follows the other
      long hand = r % 2 == 1 ? timeHandWritten(data, work, runner, beam) : 0;
      long t0 = System.nanoTime();
      HopBeamRun.Outcome outcome = HopBeamTesting.runBeam(hpl, Map.of("INPUT_FILE", data.toString(),
          "OUTPUT_FOLDER", work.resolve("out-translated-" + runner).toString()), options(beam));
      long ms = (System.nanoTime() - t0) / 1_000_000;
      hand = r % 2 == 1 ? hand : timeHandWritten(data, work, runner, beam);
      System.out.printf("round %d %s: translated %d ms, hand-written %d ms; window %s%n", r, runner, ms, hand,
          outcome.metrics().get("Window"));
      if (r > 0) {
        translated.add(ms);
        handWritten.add(hand);
      }
    }
    List<String> a = sortedLines(work.resolve("out-translated-" + runner + "/windows.ndjson"));
    List<String> b = sortedLines(work.resolve("out-hand-" + runner + "/windows.ndjson"));
    if (!a.equals(b)) {
      throw new IllegalStateException("the translated and the hand-written pipelines wrote different windows");
    }
    Path local = work.resolve("out-local/windows.ndjson");
    String sameAsLocal = Files.exists(local) ? (Files.readAllLines(local).equals(
        Files.readAllLines(work.resolve("out-translated-" + runner + "/windows.ndjson"))) ? "yes" : "NO") : "not run";
    System.out.printf(Locale.ROOT, "| %s | %d rows, %d windows | translated %d ms | hand-written %d ms | %.2fx |"
            + " same file as the local engine: %s |%n", runner, rows, a.size(), median(translated), median(handWritten),
        (double) median(translated) / median(handWritten), sameAsLocal);
  }

  private static long timeHandWritten(Path data, Path work, String runner, BeamRunner beam) {
    long t0 = System.nanoTime();
    handWritten(data, work.resolve("out-hand-" + runner + "/windows.ndjson"), options(beam));
    return (System.nanoTime() - t0) / 1_000_000;
  }

  private static PipelineOptions options(BeamRunner beam) {
    switch (beam) {
      case FLINK:
        return beam.options("[local]", "2", List.of());
      case SPARK:
        return beam.options("local[2]", null, List.of());
      default:
        return beam.options(null, null, List.of());
    }
  }

  /** The same windows as the .hpl, written by hand: read, window, one JSON line per window. */
  static void handWritten(Path data, Path out, PipelineOptions options) {
    Schema schema = Schema.builder().addNullableField("user", Schema.FieldType.STRING)
        .addNullableField("amount", Schema.FieldType.INT64).addNullableField("event_time", Schema.FieldType.DATETIME)
        .build();
    WindowQuery query = WindowQuery.of(WindowSpec.tumbling(600_000)).withKeys("user").withDelay(5_000)
        .withLatePolicy(LatePolicy.WINDOW).withAggregates(AggregateSpec.countAll("events"),
            AggregateSpec.of(AggregateKind.SUM, "amount", "total"), AggregateSpec.of(AggregateKind.MAX, "amount", "largest"));
    Pipeline p = Pipeline.create(options);
    NdjsonIO.Result in = p.apply("Read", NdjsonIO.read(data.toString()).withSchema(schema));
    EventTimeWindowResult w = in.rows().apply("Window", EventTimeWindow.of(query).withTimeField("event_time"));
    w.windows()
        .apply("Json", MapElements.into(TypeDescriptors.strings()).via(HopBeamBenchmark::json))
        .apply("Write", TextIO.write().to(out.toString()).withoutSharding());
    PipelineResult.State state = p.run().waitUntilFinish();
    if (state != PipelineResult.State.DONE) {
      throw new IllegalStateException("the hand-written pipeline ended " + state);
    }
  }

  private static final JsonFactory JSON = new JsonFactory();

  static String json(Row r) {
    StringWriter s = new StringWriter();
    try (JsonGenerator g = JSON.createGenerator(s)) {
      g.writeStartObject();
      for (int i = 0; i < r.getFieldCount(); i++) {
        g.writeFieldName(r.getSchema().getField(i).getName());
        Object v = r.getValue(i);
        if (v == null) {
          g.writeNull();
        } else if (v instanceof ReadableInstant t) {
          g.writeString(TimeText.format(t.getMillis()));
        } else if (v instanceof Long l) {
          g.writeNumber(l);
        } else {
          g.writeString(v.toString());
        }
      }
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return s.toString();
  }

  /** A stream of users' amounts about every 10 ms of event time, one row in thirty late by up to two minutes. */
  static void generate(Path file, int rows) throws IOException {
    Random random = new Random(20261130);
    try (BufferedWriter w = Files.newBufferedWriter(file)) {
      for (int i = 0; i < rows; i++) {
        long t = START + i * 10L + random.nextInt(10);
        if (random.nextInt(30) == 0) {
          t -= 5_000 + random.nextInt(115_000);
        }
        w.write("{\"user\":\"u" + String.format(Locale.ROOT, "%04d", random.nextInt(USERS)) + "\",\"amount\":"
            + (1 + random.nextInt(500)) + ",\"event_time\":\"" + TimeText.format(t) + "\"}\n");
      }
    }
  }

  private static List<String> sortedLines(Path file) throws IOException {
    try (Stream<String> lines = Files.lines(file)) {
      return lines.sorted().toList();
    }
  }

  /** The middle time; with an even number of rounds, the mean of the two in the middle. */
  private static long median(List<Long> times) {
    List<Long> sorted = new ArrayList<>(times);
    Collections.sort(sorted);
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }
}
