package io.eventtime.samples;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.eventtime.beam.EventTimeMetrics;
import io.eventtime.beam.EventTimeWindow;
import io.eventtime.beam.EventTimeWindowResult;
import io.eventtime.beam.NdjsonIO;
import io.eventtime.core.AggregateKind;
import io.eventtime.core.AggregateSpec;
import io.eventtime.core.TimeText;
import io.eventtime.core.WindowSpec;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.io.TextIO;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.joda.time.ReadableInstant;

/**
 * The sample job: each merchant's orders per minute of event time (count and total amount) from
 * an NDJSON file, on the Beam runner its options name (the DirectRunner by default). It prints
 * one JSON object per window in close order, then the stats line.
 *
 * <pre>
 * java io.eventtime.samples.MerchantMinutes samples/data/events.ndjson [--runner=DirectRunner ...]
 * </pre>
 */
public final class MerchantMinutes {
  private static final ObjectMapper JSON = new ObjectMapper();

  private MerchantMinutes() {}

  public static void main(String[] args) throws IOException {
    String input = args.length > 0 && !args[0].startsWith("--") ? args[0] : "samples/data/events.ndjson";
    String[] options = Stream.of(args).filter(a -> a.startsWith("--")).toArray(String[]::new);
    run(input, options, System.out);
  }

  /** Runs the job over {@code input} and prints its windows and stats to {@code out}. */
  public static void run(String input, String[] options, PrintStream out) throws IOException {
    Path results = Files.createTempDirectory("merchant-minutes");
    Pipeline p = Pipeline.create(PipelineOptionsFactory.fromArgs(options).withValidation().create());
    EventTimeWindowResult windows = p.apply("Read", NdjsonIO.read(input)).rows()
        .apply("MerchantMinutes", EventTimeWindow.of(WindowSpec.tumbling(60_000))
            .withTimeField("event_time")
            .withKeys("merchant")
            .withAggregates(AggregateSpec.countAll("n"), AggregateSpec.of(AggregateKind.SUM, "amount", "total")));
    windows.windows()
        .apply("ToJson", MapElements.into(TypeDescriptors.strings()).via(MerchantMinutes::toJson))
        .apply("Write", TextIO.write().to(results.resolve("windows").toString()).withSuffix(".ndjson"));
    PipelineResult result = p.run();
    result.waitUntilFinish();
    for (String line : inCloseOrder(results)) {
      out.println(line);
    }
    out.println(EventTimeMetrics.stats(result).toJson());
  }

  static String toJson(Row row) {
    Map<String, Object> fields = new LinkedHashMap<>();
    for (int i = 0; i < row.getFieldCount(); i++) {
      Object v = row.getValue(i);
      fields.put(row.getSchema().getField(i).getName(), v instanceof ReadableInstant t ? TimeText.format(t.getMillis()) : v);
    }
    try {
      return JSON.writeValueAsString(fields);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The written windows sorted as they close: by end, then start, then merchant. */
  private static List<String> inCloseOrder(Path dir) throws IOException {
    List<String> lines = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : files.sorted().toList()) {
        lines.addAll(Files.readAllLines(f));
      }
    }
    lines.sort(Comparator.comparing((String l) -> field(l, "window_end"))
        .thenComparing(l -> field(l, "window_start"))
        .thenComparing(l -> field(l, "merchant")));
    return lines;
  }

  private static String field(String json, String name) {
    try {
      return JSON.readTree(json).path(name).asText();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
