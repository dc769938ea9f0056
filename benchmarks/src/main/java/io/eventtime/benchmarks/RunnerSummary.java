package io.eventtime.benchmarks;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Prints, from the results file {@link RunnerBenchmark} appends to, a Markdown table of the medians
 * of each (runner, window, side, policy)'s runs, and the ratio issue 13 sets its targets on: plain
 * Beam's events per CPU-second over {@code EventTimeWindow}'s in the same runner and window (at most
 * 1.3 for tumbling and hopping windows, 1.5 for sessions); the same ratio for plain Beam with its
 * rows stored once ({@code beam-stored}).
 *
 * <pre>{@code
 * java -cp ... io.eventtime.benchmarks.RunnerSummary /tmp/results.tsv
 * }</pre>
 */
public final class RunnerSummary {
  private RunnerSummary() {}

  private static String side(String side) {
    switch (side) {
      case "beam":
        return "plain Beam";
      case "beam-stored":
        return "plain Beam, rows stored once";
      case "beam-stored-fields":
        return "plain Beam, key, amount and time stored once";
      default:
        return "EventTimeWindow";
    }
  }

  public static void main(String[] args) throws IOException {
    ResultsFile.Runs results = ResultsFile.read(args, "RunnerSummary");
    Map<String, List<String[]>> byGroup = new LinkedHashMap<>();
    for (String[] c : results.runs()) {
      String group = String.join("\t", results.cell(c, "runner"), results.cell(c, "window"), results.cell(c, "side"),
          results.cell(c, "policy"));
      byGroup.computeIfAbsent(group, g -> new ArrayList<>()).add(c);
    }
    Map<String, Double> beamPerCpu = new LinkedHashMap<>();
    for (Map.Entry<String, List<String[]>> g : byGroup.entrySet()) {
      String[] k = g.getKey().split("\t");
      if (k[2].equals("beam")) {
        beamPerCpu.put(k[0] + "\t" + k[1], results.median(g.getValue(), "events_per_cpu_s"));
      }
    }
    System.out.println("| runner | window | side | late policy | runs | events | events/CPU-s | CPU s | wall s | cores "
        + "| window rows | late rows | plain Beam / this side, events per CPU-s (target) |");
    System.out.println("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    for (Map.Entry<String, List<String[]>> g : byGroup.entrySet()) {
      String[] k = g.getKey().split("\t");
      List<String[]> runs = g.getValue();
      double perCpu = results.median(runs, "events_per_cpu_s");
      String ratio = "";
      Double beam = beamPerCpu.get(k[0] + "\t" + k[1]);
      if (!k[2].equals("beam") && beam != null) {
        double target = k[1].equals("session") ? 1.5 : 1.3;
        double r = beam / perCpu;
        ratio = String.format(Locale.ROOT, "%.2fx (%.1fx: %s)", r, target, r <= target ? "met" : "not met");
      }
      System.out.printf(Locale.ROOT, "| %s | %s | %s | %s | %d | %s | %,.0f | %.2f | %.2f | %.2f | %s | %s | %s |%n",
          k[0], k[1], side(k[2]), k[3], runs.size(),
          results.cell(runs.get(0), "events"), perCpu, results.median(runs, "cpu_s"),
          results.median(runs, "wall_s"), results.median(runs, "cores"),
          results.cell(runs.get(0), "window_rows"), results.cell(runs.get(0), "late_rows"), ratio);
    }
  }
}
