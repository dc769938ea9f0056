package io.eventtime.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How input values are read and told apart, the same on the local and on a Beam runner: a number
 * is a number in a key (1 and 1.0 are one group, in the column's type), and a value that does
 * not fit its column (a fraction in a BIGINT column, a number beyond a double, an object, a
 * field written twice) rejects the row with its field and reason.
 */
class InputValuesTest {
  private static final List<String> RUNNERS = List.of("local", "direct");

  @TempDir
  Path dir;

  /** What one run printed and the rejected rows it wrote. */
  record Run(Cli cli, List<String> rejected) {}

  private Run run(String runner, Path file, String... flagsAndSql) throws IOException {
    Path rejected = dir.resolve("rejected-" + runner + ".ndjson");
    List<String> args = new ArrayList<>(List.of("--runner", runner, "--from", file.toString(), "--rejected-output",
        rejected.toString()));
    args.addAll(List.of(flagsAndSql));
    Cli cli = Cli.run(args.toArray(String[]::new));
    return new Run(cli, Files.exists(rejected) ? Files.readAllLines(rejected) : List.of());
  }

  private static String tumble(String select) {
    return "SELECT k, TUMBLE(t, INTERVAL 1 MINUTE) AS w, " + select + " FROM events GROUP BY k, TUMBLE(t, INTERVAL 1"
        + " MINUTE)";
  }

  @Test
  void oneAndOnePointZeroAreOneKeyPrintedInTheColumnsType() throws IOException {
    Path f = Cli.write(dir, "events.ndjson",
        "{\"k\":1,\"t\":\"2026-07-18 10:00:01\"}",
        "{\"k\":1.0,\"t\":\"2026-07-18 10:00:01\"}",
        "{\"k\":2,\"t\":\"2026-07-18 10:00:03\"}");
    String session = "SELECT k, SESSION(t, INTERVAL 1 MINUTE) AS s, count(*) AS n FROM events"
        + " GROUP BY k, SESSION(t, INTERVAL 1 MINUTE)";
    for (String runner : RUNNERS) {
      // the sample sees 1 and 1.0: k is DOUBLE, and both rows are the key 1.0
      assertThat(run(runner, f, tumble("count(*) AS n")).cli().out()).as(runner).containsExactly(
          "{\"k\":1.0,\"w\":\"2026-07-18 10:00:00\",\"n\":2}",
          "{\"k\":2.0,\"w\":\"2026-07-18 10:00:00\",\"n\":1}",
          Cli.stats(3, 2, 0, 1, 3, 0));
      assertThat(run(runner, f, session).cli().out()).as(runner).containsExactly(
          "{\"k\":1.0,\"s\":\"2026-07-18 10:00:01\",\"n\":2}",
          "{\"k\":2.0,\"s\":\"2026-07-18 10:00:03\",\"n\":1}",
          Cli.stats(3, 2, 0, 2, 3, 0));
      // sampled from its first row, k is BIGINT: 1.0 is the whole number 1
      assertThat(run(runner, f, "--infer-rows", "1", session).cli().out()).as(runner).containsExactly(
          "{\"k\":1,\"s\":\"2026-07-18 10:00:01\",\"n\":2}",
          "{\"k\":2,\"s\":\"2026-07-18 10:00:03\",\"n\":1}",
          Cli.stats(3, 2, 0, 2, 3, 0));
    }
  }

  @Test
  void valuesThatFitNoColumnAreRejectedWithTheirFieldAndReason() throws IOException {
    String[] lines = {
        "{\"k\":\"a\",\"v\":1,\"t\":\"2026-07-18 10:00:01\"}",
        "{\"k\":\"a\",\"v\":0.5,\"t\":\"2026-07-18 10:00:02\"}",
        "{\"k\":\"a\",\"v\":1e400,\"t\":\"2026-07-18 10:00:03\"}",
        "{\"k\":{\"a\":1},\"v\":2,\"t\":\"2026-07-18 10:00:04\"}",
        "{\"k\":\"{\\\"a\\\":1}\",\"v\":3,\"t\":\"2026-07-18 10:00:05\"}",
        "{\"k\":\"a\",\"v\":4,\"t\":\"2026-07-18 10:00:06\",\"t\":\"2026-07-18 11:00:00\"}",
        "{\"k\":\"a\",\"v\":5,\"t\":[1,2]}",
        "{\"k\":\"a\",\"v\":6.0,\"t\":\"2026-07-18 10:00:08\"}"};
    Path f = Cli.write(dir, "events.ndjson", lines);
    for (String runner : RUNNERS) {
      Run run = run(runner, f, "--infer-rows", "1", tumble("count(*) AS n, sum(v) AS total"));
      assertThat(run.cli().out()).as(runner).containsExactly(
          "{\"k\":\"a\",\"w\":\"2026-07-18 10:00:00\",\"n\":2,\"total\":7}",
          "{\"k\":\"{\\\"a\\\":1}\",\"w\":\"2026-07-18 10:00:00\",\"n\":1,\"total\":3}",
          Cli.stats(8, 2, 0, 1, 3, 5));
      assertThat(run.rejected()).as(runner).containsExactly(
          rejected(f, 2, "v", "0.5 is not a whole number (the column is BIGINT)", lines[1]),
          rejected(f, 3, "v", "the number 1e400 is beyond the range of a double (at most about 1.8e308 in size)",
              lines[2]),
          rejected(f, 4, "k", "an object {\"a\":1} is not a column's value (a column holds a number, a string, a"
              + " boolean or null)", lines[3]),
          rejected(f, 6, "t", "the field t appears twice in the object: keep one", lines[5]),
          rejected(f, 7, "t", "an array [1,2] is not a date-time string", lines[6]));
      assertThat(run.cli().err()).as(runner).startsWith("eventtime: rejected line 2 of " + f + ", field v: 0.5 is not"
          + " a whole number (the column is BIGINT)\n");
    }
  }

  /**
   * A pipe gives its bytes once: each runner reads every row of {@code /dev/stdin} (a pipe in a
   * child process), the Beam runner from a copy; it once lost the rows of its schema sample.
   */
  @Test
  void aPipeIsReadOnceOnEveryRunner() throws Exception {
    int rows = 20_000;
    StringBuilder text = new StringBuilder();
    long base = java.time.Instant.parse("2026-07-18T10:00:00Z").toEpochMilli();
    for (int i = 0; i < rows; i++) {
      text.append("{\"t\":\"").append(io.eventtime.core.TimeText.format(base + i * 100L)).append("\",\"v\":1}\n");
    }
    byte[] input = text.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
    for (String runner : RUNNERS) {
      Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
          System.getProperty("java.class.path"), Main.class.getName(), "--runner", runner, "--from", "/dev/stdin",
          "--infer-rows", "10", "SELECT TUMBLE(t, INTERVAL 1 HOUR) AS w, count(*) AS n, sum(v) AS total FROM stdin"
          + " GROUP BY TUMBLE(t, INTERVAL 1 HOUR)")
          .redirectError(ProcessBuilder.Redirect.DISCARD).start();
      Thread feeder = new Thread(() -> {
        try (java.io.OutputStream in = child.getOutputStream()) {
          in.write(input);
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      });
      feeder.start();
      List<String> out = new String(child.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)
          .lines().toList();
      feeder.join();
      assertThat(child.waitFor()).as(runner).isZero();
      assertThat(out).as(runner).containsExactly("{\"w\":\"2026-07-18 10:00:00\",\"n\":20000,\"total\":20000}",
          Cli.stats(rows, 1, 0, 1, rows, 0));
    }
  }

  /** A line whose bytes are not UTF-8 is rejected with the core's reason (the bytes and where), the same on every surface. */
  @Test
  void aLineWithBytesThatAreNotUtf8IsRejectedWithTheBytesAndWhere() throws IOException {
    Path f = dir.resolve("events.ndjson");
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    bytes.writeBytes("{\"k\":\"a".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    bytes.write(0xFF);
    bytes.write(0xFE);
    bytes.writeBytes("b\",\"t\":\"2026-07-18 10:00:01\"}\n{\"k\":\"c\",\"t\":\"2026-07-18 10:00:02\"}\n{\"k\":\"d\",\"x\":\""
        .getBytes(java.nio.charset.StandardCharsets.UTF_8));
    bytes.write(0xFF);
    bytes.writeBytes("\",\"t\":\"2026-07-18 10:00:03\"}\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    Files.write(f, bytes.toByteArray());
    for (String runner : RUNNERS) {
      Run r = run(runner, f, tumble("count(*) AS n"));
      assertThat(r.cli().out()).as(runner).containsExactly(
          "{\"k\":\"c\",\"w\":\"2026-07-18 10:00:00\",\"n\":1}", Cli.stats(3, 1, 0, 1, 1, 2));
      // line 3's bad byte is in a field the query does not read: the line is rejected all the same
      assertThat(r.cli().err().lines()).as(runner).containsExactly(
          "eventtime: rejected line 1 of " + f + ": the line is not UTF-8 text (0xff at byte 8 of the line)",
          "eventtime: rejected line 3 of " + f + ": the line is not UTF-8 text (0xff at byte 15 of the line)");
    }
  }

  /** A UTF-16 file is refused once, naming the file and the encoding to convert from, not rejected line by line. */
  @Test
  void aUtf16FileIsRefusedOnceSayingSo() throws IOException {
    Path withMark = dir.resolve("events.ndjson");
    Files.writeString(withMark, "\uFEFF{\"k\":\"a\",\"t\":\"2026-07-18 10:00:01\"}\n",
        java.nio.charset.StandardCharsets.UTF_16LE);
    Path without = dir.resolve("more.ndjson");
    Files.writeString(without, "{\"k\":\"a\",\"t\":\"2026-07-18 10:00:01\"}\n",
        java.nio.charset.StandardCharsets.UTF_16BE);
    for (String runner : RUNNERS) {
      Cli marked = run(runner, withMark, tumble("count(*) AS n")).cli();
      assertThat(marked.out()).as(runner).containsExactly(Cli.error("UNREADABLE_SOURCE", "cannot read file://" + withMark
          + ": it is UTF-16LE text (it starts with a UTF-16LE byte order mark), not UTF-8: convert it first, e.g."
          + " iconv -f UTF-16LE -t UTF-8"));
      assertThat(marked.status()).isEqualTo(1);
      assertThat(marked.err()).isEmpty();
      assertThat(run(runner, without, "--table", "events", tumble("count(*) AS n")).cli().out()).as(runner)
          .containsExactly(Cli.error("UNREADABLE_SOURCE", "cannot read file://" + without + ": it is UTF-16BE text"
              + " (zero bytes are interleaved with its first characters), not UTF-8: convert it first, e.g. iconv -f"
              + " UTF-16BE -t UTF-8"));
    }
  }

  /** A gzip-compressed file is refused once, saying how to decompress it, not rejected line by line. */
  @Test
  void aCompressedFileIsRefusedOnceSayingSo() throws IOException {
    Path gz = dir.resolve("events.ndjson.gz");
    try (java.util.zip.GZIPOutputStream out = new java.util.zip.GZIPOutputStream(Files.newOutputStream(gz))) {
      out.write("{\"k\":\"a\",\"t\":\"2026-07-18 10:00:01\"}\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
    for (String runner : RUNNERS) {
      Cli cli = run(runner, gz, "--table", "events", tumble("count(*) AS n")).cli();
      assertThat(cli.out()).as(runner).containsExactly(Cli.error("UNREADABLE_SOURCE", "cannot read file://" + gz
          + ": it is gzip-compressed (it starts with gzip's magic bytes), not UTF-8 text: decompress it first, e.g."
          + " with gzip -dc"));
      assertThat(cli.status()).isEqualTo(1);
      assertThat(cli.err()).isEmpty();
    }
  }

  /** A compressed file after a good one is refused before any file is read: no row of the first is printed. */
  @Test
  void aCompressedFileAfterAnotherIsRefusedBeforeTheRun() throws IOException {
    Path good = dir.resolve("events.ndjson");
    Files.writeString(good, "{\"k\":\"a\",\"t\":\"2026-07-18 10:00:01\"}\n");
    Path gz = dir.resolve("more.ndjson.gz");
    try (java.util.zip.GZIPOutputStream out = new java.util.zip.GZIPOutputStream(Files.newOutputStream(gz))) {
      out.write("{\"k\":\"a\",\"t\":\"2026-07-18 10:00:02\"}\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
    for (String runner : RUNNERS) {
      Cli cli = Cli.run("--runner", runner, "--from", good.toString(), "--from", gz.toString(), "--table", "events",
          tumble("count(*) AS n"));
      assertThat(cli.out()).as(runner).containsExactly(Cli.error("UNREADABLE_SOURCE", "cannot read file://" + gz
          + ": it is gzip-compressed (it starts with gzip's magic bytes), not UTF-8 text: decompress it first, e.g."
          + " with gzip -dc"));
      assertThat(cli.status()).isEqualTo(1);
    }
  }

  private static String rejected(Path f, int line, String field, String reason, String row) {
    return "{\"source\":\"" + f + "\",\"line\":" + line + ",\"field\":\"" + field + "\",\"reason\":\""
        + reason.replace("\"", "\\\"") + "\",\"row\":" + row + "}";
  }
}
