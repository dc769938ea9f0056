package io.eventtime.benchmarks.flink;

import io.eventtime.benchmarks.ResultsFile;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Prints the medians of each side's runs from the results file {@link FlinkLiveBenchmark} appends
 * to, and the ratio the issue sets its target on: plain Beam's events per CPU-second over
 * {@code EventTimeWindow}'s (the target is at most 1.5).
 *
 * <pre>{@code
 * java -cp ... io.eventtime.benchmarks.flink.LiveSummary /tmp/bench/results.tsv
 * }</pre>
 */
public final class LiveSummary {
  private static final List<String> SHOWN = List.of("events_per_cpu_s", "cpu_s", "wall_s", "cores",
      "latency_median_ms", "latency_p99_ms", "latency_max_ms", "cpu_from_run_s", "wall_from_run_s");

  private LiveSummary() {}

  public static void main(String[] args) throws IOException {
    ResultsFile.Runs results = ResultsFile.read(args, "LiveSummary");
    Map<String, List<String[]>> bySide = new LinkedHashMap<>();
    for (String[] cells : results.runs()) {
      bySide.computeIfAbsent(cells[0], s -> new ArrayList<>()).add(cells);
    }
    System.out.println("medians over each side's runs (" + String.join(", ", SHOWN) + "):");
    Map<String, Double> perCpu = new LinkedHashMap<>();
    for (Map.Entry<String, List<String[]>> side : bySide.entrySet()) {
      StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "%-9s runs=%d events=%s",
          side.getKey(), side.getValue().size(), results.cell(side.getValue().get(0), "events")));
      for (String column : SHOWN) {
        double m = results.median(side.getValue(), column);
        row.append(String.format(Locale.ROOT, " %s=%.3f", column, m));
        if (column.equals("events_per_cpu_s")) {
          perCpu.put(side.getKey(), m);
        }
      }
      System.out.println(row);
    }
    if (perCpu.containsKey("eventtime") && perCpu.containsKey("beam")) {
      double ratio = perCpu.get("beam") / perCpu.get("eventtime");
      System.out.printf(Locale.ROOT, "plain Beam / EventTimeWindow, events per CPU-second: %.2fx (target: at most 1.5x, %s)%n",
          ratio, ratio <= 1.5 ? "met" : "not met");
    }
  }
}
