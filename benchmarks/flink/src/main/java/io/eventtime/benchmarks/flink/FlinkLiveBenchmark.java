package io.eventtime.benchmarks.flink;

import io.eventtime.benchmarks.ResultsFile;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.runners.flink.FlinkRunner;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.options.ExperimentalOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;

/**
 * One measured run of one side on embedded Flink in streaming mode (one task wide, no
 * checkpoints, KafkaIO's unbounded-source read on both sides: see {@link #main}), reading the topic {@link LiveTopic} produced from its first offset: {@code eventtime}
 * ({@link EventTimeWindows}) or {@code beam} ({@link PlainBeamWindows}). The job JVM holds the job
 * only (the broker runs in its own JVM), so its process CPU time is the job's.
 *
 * <p>Measured from the first record read to the last expected window row at the sink: the process
 * CPU time (every thread: Flink's tasks, KafkaIO's consumer, GC, JIT) and the wall time; events per
 * CPU-second over that span; and from {@code run()} on, with the embedded cluster's start. The
 * window-close latency of each window row is the wall time it reached the sink less the wall time
 * at which the record that closed its window (the first after which the latest event time less
 * the delay reaches the window's end) was read, just after the source, in the same JVM. Then the
 * rows are checked against the counts and sums computed from the events: every window exactly
 * once, nothing late, nothing rejected; a run that fails the check reports no numbers.
 *
 * <pre>{@code
 * java -cp ... io.eventtime.benchmarks.flink.FlinkLiveBenchmark eventtime /tmp/bench /tmp/bench/results.tsv
 * }</pre>
 */
public final class FlinkLiveBenchmark {
  /** A bound on waiting for one run, not a measurement. */
  private static final long RUN_TIMEOUT_MINUTES = 30;
  /** After the last expected row, how long a row emitted twice would have to show. */
  private static final long SETTLE_MILLIS = 2_000;
  static final String HEADER = "side\tevents\tcpu_s\twall_s\tevents_per_cpu_s\tcores\tcpu_from_run_s\twall_from_run_s"
      + "\tlatency_median_ms\tlatency_p99_ms\tlatency_max_ms\twindow_rows";

  private FlinkLiveBenchmark() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 3 || !List.of("eventtime", "beam").contains(args[0])) {
      System.err.println("usage: FlinkLiveBenchmark eventtime|beam <folder with broker.properties> <results.tsv>");
      System.exit(2);
    }
    String side = args[0];
    Properties broker = new Properties();
    try (Reader in = Files.newBufferedReader(Path.of(args[1]).resolve(LiveTopic.PROPERTIES))) {
      broker.load(in);
    }
    LiveEvents events = LiveEvents.of(Integer.parseInt(broker.getProperty("events")));
    Map<String, LiveEvents.WindowRow> expected = events.expectedWindows();
    long[] closing = events.closingOffsets();
    LiveProbe.TO_COME.set(expected.size());

    FlinkPipelineOptions options = PipelineOptionsFactory.create().as(FlinkPipelineOptions.class);
    options.setRunner(FlinkRunner.class);
    options.setFlinkMaster("[local]");
    // One task wide, and KafkaIO's unbounded-source read, on both sides: with the one partition
    // two tasks wide, a reader task has no split, and on Beam 2.62's runner plain Beam's watermark
    // then stalled (no window ever closed: always with the default splittable-DoFn read, at
    // 200k events with this one), while EventTimeWindow, which moves by the rows, went on.
    options.setParallelism(1);
    options.setStreaming(true);
    ExperimentalOptions.addExperiment(options.as(ExperimentalOptions.class), "use_deprecated_read");
    options.setAttachedMode(false); // run() returns while the job runs
    Pipeline p = Pipeline.create(options);
    if (side.equals("eventtime")) {
      EventTimeWindows.addTo(p, broker.getProperty("bootstrap.servers"), broker.getProperty("topic"), closing);
    } else {
      PlainBeamWindows.addTo(p, broker.getProperty("bootstrap.servers"), broker.getProperty("topic"), closing);
    }

    long cpuAtRun = LiveProbe.cpuNanos();
    long wallAtRun = System.nanoTime();
    PipelineResult job = p.run();
    try {
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(RUN_TIMEOUT_MINUTES);
      for (int second = 1; !LiveProbe.DONE.await(1, TimeUnit.SECONDS); second++) {
        if (second % 15 == 0) {
          System.err.printf("%s: %d s, %d of %d closing records read, %d window rows at the sink%n", side, second,
              LiveProbe.READ_NANOS.size(), closing.length, LiveProbe.ROWS.size());
        }
        if (job.getState().isTerminal() || System.nanoTime() > deadline) {
          throw new IllegalStateException(side + ": with the job " + job.getState() + ", " + LiveProbe.TO_COME.get()
              + " of " + expected.size() + " window rows had not come");
        }
      }
      Thread.sleep(SETTLE_MILLIS);
    } finally {
      job.cancel();
    }
    check(side, expected);

    double cpu = (LiveProbe.DONE_CPU_NANOS.get() - LiveProbe.FIRST_READ_CPU_NANOS.get()) / 1e9;
    double wall = (LiveProbe.DONE_NANOS.get() - LiveProbe.FIRST_READ_NANOS.get()) / 1e9;
    double[] latency = latenciesMillis(events, closing);
    String line = String.join("\t", side, String.valueOf(events.records()), f(cpu), f(wall), f(events.records() / cpu),
        f(cpu / wall), f((LiveProbe.DONE_CPU_NANOS.get() - cpuAtRun) / 1e9), f((LiveProbe.DONE_NANOS.get() - wallAtRun) / 1e9),
        f(percentile(latency, 0.5)), f(percentile(latency, 0.99)), f(latency[latency.length - 1]),
        String.valueOf(expected.size()));
    ResultsFile.append(Path.of(args[2]), HEADER, line);
    System.exit(0); // the embedded cluster's threads would keep the JVM
  }

  /** Every expected window row exactly once with its count and sum; nothing else but the closing key's. */
  private static void check(String side, Map<String, LiveEvents.WindowRow> expected) {
    Map<String, LiveProbe.Emitted> came = new HashMap<>();
    List<String> wrong = new ArrayList<>();
    for (LiveProbe.Emitted e : LiveProbe.ROWS) {
      if (e.key().equals(LiveEvents.CLOSING_KEY)) {
        continue;
      }
      String id = LiveEvents.id(e.key(), e.start());
      LiveEvents.WindowRow want = expected.get(id);
      if (came.put(id, e) != null) {
        wrong.add("twice: " + e);
      } else if (want == null) {
        wrong.add("not a window of the events: " + e);
      } else if (want.count() != e.count() || want.sum() != e.sum()) {
        wrong.add("expected " + want + ", came " + e);
      }
    }
    if (came.size() != expected.size()) {
      wrong.add((expected.size() - came.size()) + " of " + expected.size() + " window rows missing");
    }
    if (LiveProbe.UNEXPECTED.get() > 0) {
      wrong.add(LiveProbe.UNEXPECTED.get() + " late or rejected rows, e.g. " + LiveProbe.UNEXPECTED_TEXTS);
    }
    if (!wrong.isEmpty()) {
      throw new IllegalStateException(side + ": the window rows differ from the events' ("
          + wrong.size() + " problems): " + wrong.subList(0, Math.min(10, wrong.size())));
    }
  }

  /** Each events' window row's latency, sorted: its time at the sink less the read time of its closing record. */
  private static double[] latenciesMillis(LiveEvents events, long[] closing) {
    long firstEnd = events.firstWindowEnd();
    List<Double> all = new ArrayList<>();
    for (LiveProbe.Emitted e : LiveProbe.ROWS) {
      if (e.key().equals(LiveEvents.CLOSING_KEY)) {
        continue;
      }
      int end = (int) ((e.start() + LiveEvents.WINDOW_MILLIS - firstEnd) / LiveEvents.WINDOW_MILLIS);
      Long read = LiveProbe.READ_NANOS.get(closing[end]);
      if (read == null) {
        throw new IllegalStateException("the closing record at offset " + closing[end] + " was never seen read");
      }
      all.add((e.atNanos() - read) / 1e6);
    }
    double[] sorted = all.stream().mapToDouble(Double::doubleValue).toArray();
    Arrays.sort(sorted);
    return sorted;
  }

  /** The nearest-rank percentile of sorted values. */
  static double percentile(double[] sorted, double q) {
    int rank = (int) Math.ceil(q * sorted.length);
    return sorted[Math.max(0, rank - 1)];
  }

  private static String f(double v) {
    return String.format(Locale.ROOT, "%.3f", v);
  }
}
