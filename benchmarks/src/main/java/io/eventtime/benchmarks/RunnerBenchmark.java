package io.eventtime.benchmarks;

import io.eventtime.beam.EventTimeMetrics;
import io.eventtime.beam.EventTimeWindow;
import io.eventtime.core.Key;
import io.eventtime.core.Stats;
import io.eventtime.core.WindowProcessor;
import io.eventtime.core.WindowQuery;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.transforms.Combine;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.WithTimestamps;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.FixedWindows;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.transforms.windowing.Sessions;
import org.apache.beam.sdk.transforms.windowing.SlidingWindows;
import org.apache.beam.sdk.transforms.windowing.Window;
import org.apache.beam.sdk.transforms.windowing.WindowFn;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.TupleTagList;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.joda.time.Duration;
import org.joda.time.Instant;

/**
 * Issue 13, goals 2 and 3: one measured run, in a JVM of its own, of one side over the same
 * events (see {@link Events}) on one runner: {@code direct} (the DirectRunner, checks off as in
 * {@link DirectRunnerPipelines}), {@code flink} (an embedded Flink, {@code [local]}, batch, 2
 * parallel tasks) or {@code spark} ({@code local[2]}). Which runners the class path holds decides
 * which can run: the DirectRunner's is this module's, Flink's is benchmarks/flink's, Spark's is
 * benchmarks/spark's (their Kryo versions clash).
 *
 * <p>The sides: {@code eventtime}, {@link EventTimeWindow} under the named late policy, whose stats
 * must equal the core {@link WindowProcessor}'s over the same events in arrival order; and
 * {@code beam}, plain Beam as a Beam user writes it: event timestamps from the rows,
 * {@code Window.into} fixed, sliding or session windows and {@code Combine.perKey} of count and sum
 * in one accumulator, then a row per window. Plain Beam has no arrival-order lateness: on a bounded
 * input it folds every row, so its window rows must be exactly the (key, window) pairs of all the
 * events and their counts and sums must add up to the events'. And {@code beam-stored}: plain Beam
 * whose rows first pass through a step with two outputs (the rows, and nothing on the second),
 * checked as plain Beam is. The Spark runner stores every output of such a step, so on Spark this is
 * plain Beam plus its rows stored once (in Beam's row encoding): what looking at its rows twice, as
 * {@link EventTimeWindow} must (the watermark index first, then the folding), costs a plain Beam
 * pipeline there. And {@code beam-stored-fields}: the same with only what the windows need of each
 * row stored, (key, (amount, event time)) in Beam's plainest coders. A run that fails its check
 * prints no numbers.
 *
 * <p>The rows are built before the run (the generator source of {@link DirectRunnerPipelines}:
 * {@code Create} of 16 slice numbers and a ParDo handing on each slice's prebuilt rows); measured
 * from just before {@code run()} to the end of {@code waitUntilFinish()}: the process CPU time
 * (every thread: the runner's, GC, JIT), the wall time, and events per CPU-second.
 *
 * <pre>{@code
 * java -cp ... io.eventtime.benchmarks.RunnerBenchmark flink eventtime hopping event 1000000 /tmp/results.tsv
 * java -cp ... io.eventtime.benchmarks.RunnerBenchmark spark beam tumbling - 1000000 /tmp/results.tsv
 * java -cp ... io.eventtime.benchmarks.RunnerBenchmark spark eventtime tumbling window 1000000 /tmp/results.tsv \
 *     --storageLevel=MEMORY_ONLY_SER
 * }</pre>
 */
public final class RunnerBenchmark {
  static final String HEADER =
      "runner\tside\twindow\tpolicy\tevents\tcpu_s\twall_s\tevents_per_cpu_s\tcores\twindow_rows\tlate_rows";
  private static final List<String> RUNNERS = List.of("direct", "flink", "spark");
  private static final List<String> SIDES = List.of("eventtime", "beam", "beam-stored", "beam-stored-fields");

  private RunnerBenchmark() {}

  public static void main(String[] args) {
    try {
      run(args);
    } catch (Exception | Error e) {
      e.printStackTrace();
      System.exit(1); // a failed check must end the JVM too, whatever threads the runner left
    }
    System.exit(0); // an embedded cluster's threads would keep the JVM
  }

  private static void run(String[] args) throws IOException {
    if (args.length < 6 || !RUNNERS.contains(args[0]) || !SIDES.contains(args[1])) {
      System.err.println("usage: RunnerBenchmark direct|flink|spark " + String.join("|", SIDES) + " tumbling|hopping|session "
          + "window|event|- <events> <results.tsv> [pipeline options...]");
      System.exit(2);
    }
    String runner = args[0];
    String side = args[1];
    String window = args[2];
    String policy = side.startsWith("beam") ? "-" : args[3];
    int count = Integer.parseInt(args[4]);
    Events.spec(window); // refuses an unknown window before anything runs
    Events.rows(count);

    Pipeline p = Pipeline.create(options(runner, Arrays.copyOfRange(args, 6, args.length)));
    WindowQuery query = side.equals("eventtime") ? Events.query(window, policy) : null;
    if (query != null) {
      DirectRunnerPipelines.events(p, "slices", count)
          .apply("Window", EventTimeWindow.of(query).withTimeField("event_time"));
    } else {
      addPlainBeam(p, window, count, side);
    }

    com.sun.management.OperatingSystemMXBean os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    long cpuAtRun = os.getProcessCpuTime();
    long wallAtRun = System.nanoTime();
    PipelineResult result = p.run();
    result.waitUntilFinish();
    double cpu = (os.getProcessCpuTime() - cpuAtRun) / 1e9;
    double wall = (System.nanoTime() - wallAtRun) / 1e9;

    long windowRows;
    long lateRows;
    if (query != null) {
      Stats stats = EventTimeMetrics.stats(result, "Window");
      Stats core = coreStats(query, count);
      if (!core.equals(stats)) {
        throw new IllegalStateException(runner + ", " + window + ", " + policy + ": the transform's stats " + stats
            + " differ from the core processor's " + core + " over the same events");
      }
      windowRows = stats.rowsOut();
      lateRows = stats.lateDropped();
    } else {
      windowRows = DirectRunnerPipelines.counter(result, "window_rows");
      checkPlainBeam(runner, window, count, windowRows, DirectRunnerPipelines.counter(result, "n_sum"),
          DirectRunnerPipelines.counter(result, "total_sum"));
      lateRows = 0;
    }

    String line = String.join("\t", runner, side, window, policy, String.valueOf(count), f(cpu), f(wall),
        f(count / cpu), f(cpu / wall), String.valueOf(windowRows), String.valueOf(lateRows));
    ResultsFile.append(Path.of(args[5]), HEADER, line);
  }

  /** The runner's options, and after them {@code more} (e.g. {@code --storageLevel=MEMORY_ONLY_SER} on Spark). */
  private static PipelineOptions options(String runner, String... more) {
    List<String> args = new ArrayList<>();
    switch (runner) {
      case "direct":
        args.addAll(List.of(DirectRunnerPipelines.DIRECT_ARGS));
        break;
      case "flink":
        args.addAll(List.of("--runner=FlinkRunner", "--flinkMaster=[local]", "--parallelism=2"));
        break;
      default:
        args.addAll(List.of("--runner=SparkRunner", "--sparkMaster=local[2]"));
    }
    args.addAll(List.of(more));
    return PipelineOptionsFactory.fromArgs(args.toArray(String[]::new)).create();
  }

  private static WindowFn<Object, IntervalWindow> windowFn(String window) {
    switch (window) {
      case "tumbling":
        return FixedWindows.of(Duration.millis(Events.MINUTE));
      case "hopping":
        return SlidingWindows.of(Duration.millis(Events.MINUTE)).every(Duration.millis(Events.MINUTE / 2));
      default:
        return Sessions.withGapDuration(Duration.millis(Events.SESSION_GAP_MILLIS));
    }
  }

  private static void addPlainBeam(Pipeline p, String window, int count, String side) {
    PCollection<Row> events = DirectRunnerPipelines.events(p, "slices", count);
    if (side.equals("beam-stored-fields")) {
      addPlainBeamOverStoredFields(events, window);
      return;
    }
    if (side.equals("beam-stored")) {
      events = storedOnce(events).setRowSchema(Events.SCHEMA);
    }
    events
        .apply("EventTimestamps", WithTimestamps.of((Row r) -> r.getDateTime("event_time").toInstant()))
        .apply("Windows", Window.<Row>into(windowFn(window)))
        .apply("KeyAmount", MapElements.into(TypeDescriptors.kvs(TypeDescriptors.strings(), TypeDescriptors.longs()))
            .via((Row r) -> KV.of(r.getString("key"), r.getInt64("amount"))))
        .apply("CountAndSum", Combine.perKey(new CountSumFn()))
        .apply("WindowRows", ParDo.of(new WindowRowFn()))
        .setRowSchema(DirectRunnerPipelines.WINDOW_ROW);
  }

  /**
   * Plain Beam that keeps of each row only what its windows need, (key, (amount, event time)) in
   * Beam's plainest coders, and stores that once, an element per row.
   */
  private static void addPlainBeamOverStoredFields(PCollection<Row> events, String window) {
    PCollection<KV<String, KV<Long, Long>>> fields = events
        .apply("Fields", MapElements
            .into(TypeDescriptors.kvs(TypeDescriptors.strings(), TypeDescriptors.kvs(TypeDescriptors.longs(), TypeDescriptors.longs())))
            .via((Row r) -> KV.of(r.getString("key"), KV.of(r.getInt64("amount"), r.getDateTime("event_time").getMillis()))));
    KvCoder<String, KV<Long, Long>> coder = KvCoder.of(StringUtf8Coder.of(), KvCoder.of(VarLongCoder.of(), VarLongCoder.of()));
    storedOnce(fields.setCoder(coder)).setCoder(coder)
        .apply("EventTimestamps", WithTimestamps.of((KV<String, KV<Long, Long>> e) -> new Instant(e.getValue().getValue())))
        .apply("Windows", Window.<KV<String, KV<Long, Long>>>into(windowFn(window)))
        .apply("KeyAmount", MapElements.into(TypeDescriptors.kvs(TypeDescriptors.strings(), TypeDescriptors.longs()))
            .via((KV<String, KV<Long, Long>> e) -> KV.of(e.getKey(), e.getValue().getKey())))
        .apply("CountAndSum", Combine.perKey(new CountSumFn()))
        .apply("WindowRows", ParDo.of(new WindowRowFn()))
        .setRowSchema(DirectRunnerPipelines.WINDOW_ROW);
  }

  /** {@code in} through a step with two outputs (the second empty), which the Spark runner stores. */
  private static <T> PCollection<T> storedOnce(PCollection<T> in) {
    TupleTag<T> passed = new TupleTag<>("passed");
    TupleTag<T> nothing = new TupleTag<>("nothing");
    PCollectionTuple both = in.apply("TwoOutputs",
        ParDo.of(new PassFn<T>()).withOutputTags(passed, TupleTagList.of(nothing)));
    both.get(nothing).setCoder(in.getCoder());
    return both.get(passed);
  }

  /** The core processor's stats over the same events in arrival order: what the transform owes. */
  private static Stats coreStats(WindowQuery query, int count) {
    Events events = Events.get(count);
    Key[] keys = events.coreKeys();
    Object[][] inputs = events.countAndSumInputs();
    WindowProcessor processor = new WindowProcessor(query, w -> {});
    for (int i = 0; i < count; i++) {
      processor.process(keys[events.key[i]], events.eventTime[i], inputs[i]);
    }
    processor.finish();
    return processor.stats();
  }

  /**
   * Plain Beam folds every row: its rows must be the distinct (key, window) pairs of all the events,
   * and their counts and sums the events' own, once per window an event is in.
   */
  private static void checkPlainBeam(String runner, String window, int count, long windowRows, long nSum,
      long totalSum) {
    Events events = Events.get(count);
    long amounts = 0;
    for (int i = 0; i < count; i++) {
      amounts += events.amount[i];
    }
    int perEvent = window.equals("hopping") ? 2 : 1;
    long expectedRows = window.equals("session") ? sessionCount(events) : gridWindowCount(events, window);
    if (windowRows != expectedRows || nSum != (long) count * perEvent || totalSum != amounts * perEvent) {
      throw new IllegalStateException(runner + ", plain Beam " + window + ": " + windowRows + " window rows, counts "
          + nSum + ", sums " + totalSum + "; the events owe " + expectedRows + " rows, counts " + (long) count * perEvent
          + ", sums " + amounts * perEvent);
    }
  }

  /** The distinct (key, window start) pairs of fixed or sliding windows, starts on the epoch's grid. */
  private static long gridWindowCount(Events events, String window) {
    long period = window.equals("hopping") ? Events.MINUTE / 2 : Events.MINUTE;
    Set<Long> pairs = new HashSet<>();
    for (int i = 0; i < events.count; i++) {
      long start = events.eventTime[i] - Math.floorMod(events.eventTime[i], period);
      for (long s = start; s > events.eventTime[i] - Events.MINUTE; s -= period) {
        pairs.add(s * Events.KEYS + events.key[i]);
      }
    }
    return pairs.size();
  }

  /** Beam's merged sessions per key: each event's [t, t + gap), merged while they overlap. */
  private static long sessionCount(Events events) {
    List<List<Long>> times = new ArrayList<>();
    for (int k = 0; k < Events.KEYS; k++) {
      times.add(new ArrayList<>());
    }
    for (int i = 0; i < events.count; i++) {
      times.get(events.key[i]).add(events.eventTime[i]);
    }
    long sessions = 0;
    for (List<Long> keyTimes : times) {
      long[] sorted = keyTimes.stream().mapToLong(Long::longValue).toArray();
      Arrays.sort(sorted);
      long end = Long.MIN_VALUE;
      for (long t : sorted) {
        if (t >= end) {
          sessions++;
        }
        end = Math.max(end, t + Events.SESSION_GAP_MILLIS);
      }
    }
    return sessions;
  }

  /** Hands each element on unchanged; its second output stays empty. */
  private static final class PassFn<T> extends DoFn<T, T> {
    @ProcessElement
    public void process(@Element T element, OutputReceiver<T> out) {
      out.output(element);
    }
  }

  /** A row per window, counted with its count and sum, so that the run can be checked. */
  private static final class WindowRowFn extends DoFn<KV<String, KV<Long, Long>>, Row> {
    private final Counter windowRows = Metrics.counter(DirectRunnerPipelines.NAMESPACE, "window_rows");
    private final Counter nSum = Metrics.counter(DirectRunnerPipelines.NAMESPACE, "n_sum");
    private final Counter totalSum = Metrics.counter(DirectRunnerPipelines.NAMESPACE, "total_sum");

    @ProcessElement
    public void process(@Element KV<String, KV<Long, Long>> e, BoundedWindow window, OutputReceiver<Row> out) {
      IntervalWindow w = (IntervalWindow) window;
      windowRows.inc();
      nSum.inc(e.getValue().getKey());
      totalSum.inc(e.getValue().getValue());
      out.output(Row.withSchema(DirectRunnerPipelines.WINDOW_ROW)
          .addValues(e.getKey(), w.start(), w.end(), e.getValue().getKey(), e.getValue().getValue())
          .build());
    }
  }

  private static String f(double v) {
    return String.format(Locale.ROOT, "%.3f", v);
  }
}
