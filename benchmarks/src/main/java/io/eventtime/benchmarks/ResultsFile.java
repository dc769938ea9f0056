package io.eventtime.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** The tab-separated results file the benchmark scripts summarize: one line per run, under one header line. */
public final class ResultsFile {
  private ResultsFile() {}

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
