package io.eventtime.benchmarks.flink;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
    if (args.length != 1) {
      System.err.println("usage: LiveSummary <results.tsv>");
      System.exit(2);
    }
    List<String> lines = Files.readAllLines(Path.of(args[0]));
    List<String> header = List.of(lines.get(0).split("\t"));
    Map<String, List<String[]>> bySide = new LinkedHashMap<>();
    for (String line : lines.subList(1, lines.size())) {
      String[] cells = line.split("\t");
      bySide.computeIfAbsent(cells[0], s -> new ArrayList<>()).add(cells);
    }
    System.out.println("medians over each side's runs (" + String.join(", ", SHOWN) + "):");
    Map<String, Double> perCpu = new LinkedHashMap<>();
    for (Map.Entry<String, List<String[]>> side : bySide.entrySet()) {
      StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "%-9s runs=%d events=%s",
          side.getKey(), side.getValue().size(), side.getValue().get(0)[header.indexOf("events")]));
      for (String column : SHOWN) {
        double m = median(side.getValue(), header.indexOf(column));
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

  private static double median(List<String[]> runs, int column) {
    double[] v = runs.stream().mapToDouble(r -> Double.parseDouble(r[column])).sorted().toArray();
    return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  }
}
