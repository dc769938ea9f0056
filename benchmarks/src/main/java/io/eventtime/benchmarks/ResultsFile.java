package io.eventtime.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/** The tab-separated results file the benchmark scripts summarize: one line per run, under one header line. */
public final class ResultsFile {
  private ResultsFile() {}

  /** A results file read back: its column names and each run's cells. */
  public record Runs(List<String> header, List<String[]> runs) {
    /** The cell of {@code column} in {@code run}. */
    public String cell(String[] run, String column) {
      return run[header.indexOf(column)];
    }

    /** The median of {@code column} over {@code runs}. */
    public double median(List<String[]> runs, String column) {
      int c = header.indexOf(column);
      double[] v = runs.stream().mapToDouble(r -> Double.parseDouble(r[c])).sorted().toArray();
      return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }
  }

  /**
   * The results file a summary's {@code args} name (its only argument; else the usage, and exit 2),
   * a header line met again (files appended to by several script runs) skipped.
   */
  public static Runs read(String[] args, String summary) throws IOException {
    if (args.length != 1) {
      System.err.println("usage: " + summary + " <results.tsv>");
      System.exit(2);
    }
    List<String> lines = Files.readAllLines(Path.of(args[0]));
    List<String[]> runs = new ArrayList<>();
    for (String line : lines.subList(1, lines.size())) {
      if (!line.equals(lines.get(0))) {
        runs.add(line.split("\t"));
      }
    }
    return new Runs(List.of(lines.get(0).split("\t")), runs);
  }

  /** Prints {@code header} and {@code line}, and appends the line to {@code file} (with the header first, if new). */
  public static void append(Path file, String header, String line) throws IOException {
    System.out.println(header);
    System.out.println(line);
    if (!Files.exists(file)) {
      Files.writeString(file, header + "\n");
    }
    Files.writeString(file, line + "\n", StandardOpenOption.APPEND);
  }
}
