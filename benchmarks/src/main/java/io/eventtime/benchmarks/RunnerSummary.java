package io.eventtime.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Prints, from the results file {@link RunnerBenchmark} appends to, a Markdown table of the medians
 * of each (runner, window, side, policy)'s runs, and the ratio issue 13 sets its targets on: plain
 * Beam's events per CPU-second over {@code EventTimeWindow}'s in the same runner and window (at most
 * 1.3 for tumbling and hopping windows, 1.5 for sessions).
 *
 * <pre>{@code
 * java -cp ... io.eventtime.benchmarks.RunnerSummary /tmp/results.tsv
 * }</pre>
 */
public final class RunnerSummary {
  private RunnerSummary() {}

  public static void main(String[] args) throws IOException {
    if (args.length != 1) {
      System.err.println("usage: RunnerSummary <results.tsv>");
      System.exit(2);
    }
    List<String> lines = Files.readAllLines(Path.of(args[0]));
    List<String> header = List.of(lines.get(0).split("\t"));
    Map<String, List<String[]>> byGroup = new LinkedHashMap<>();
    for (String line : lines.subList(1, lines.size())) {
      if (line.equals(lines.get(0))) {
        continue; // a header again, from a results file appended to by several script runs
      }
      String[] c = line.split("\t");
      String group = String.join("\t", c[header.indexOf("runner")], c[header.indexOf("window")],
          c[header.indexOf("side")], c[header.indexOf("policy")]);
      byGroup.computeIfAbsent(group, g -> new ArrayList<>()).add(c);
    }
    Map<String, Double> beamPerCpu = new LinkedHashMap<>();
    for (Map.Entry<String, List<String[]>> g : byGroup.entrySet()) {
      String[] k = g.getKey().split("\t");
      if (k[2].equals("beam")) {
        beamPerCpu.put(k[0] + "\t" + k[1], median(g.getValue(), header.indexOf("events_per_cpu_s")));
      }
    }
    System.out.println("| runner | window | side | late policy | runs | events | events/CPU-s | CPU s | wall s | cores "
        + "| window rows | late rows | plain Beam / EventTimeWindow (target) |");
    System.out.println("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    for (Map.Entry<String, List<String[]>> g : byGroup.entrySet()) {
      String[] k = g.getKey().split("\t");
      List<String[]> runs = g.getValue();
      double perCpu = median(runs, header.indexOf("events_per_cpu_s"));
      String ratio = "";
      Double beam = beamPerCpu.get(k[0] + "\t" + k[1]);
      if (k[2].equals("eventtime") && beam != null) {
        double target = k[1].equals("session") ? 1.5 : 1.3;
        double r = beam / perCpu;
        ratio = String.format(Locale.ROOT, "%.2fx (%.1fx: %s)", r, target, r <= target ? "met" : "not met");
      }
      System.out.printf(Locale.ROOT, "| %s | %s | %s | %s | %d | %s | %,.0f | %.2f | %.2f | %.2f | %s | %s | %s |%n",
          k[0], k[1], k[2].equals("beam") ? "plain Beam" : "EventTimeWindow", k[3], runs.size(),
          runs.get(0)[header.indexOf("events")], perCpu, median(runs, header.indexOf("cpu_s")),
          median(runs, header.indexOf("wall_s")), median(runs, header.indexOf("cores")),
          runs.get(0)[header.indexOf("window_rows")], runs.get(0)[header.indexOf("late_rows")], ratio);
    }
  }

  private static double median(List<String[]> runs, int column) {
    double[] v = runs.stream().mapToDouble(r -> Double.parseDouble(r[column])).sorted().toArray();
    return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  }
}
