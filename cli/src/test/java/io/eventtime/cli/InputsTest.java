package io.eventtime.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Sources: missing, empty, malformed lines, bad times, bad values, several files, and what is written out. */
class InputsTest {
  private static final String SQL = "SELECT TUMBLE(t, INTERVAL 1 MINUTE) AS w, count(*) AS n, sum(v) AS total"
      + " FROM events GROUP BY TUMBLE(t, INTERVAL 1 MINUTE)";

  @TempDir
  Path dir;

  @Test
  void missingFile() {
    Path f = dir.resolve("events.ndjson");
    Cli run = Cli.run("--from", "file://" + f, SQL);
    assertThat(run.out()).containsExactly(Cli.error("UNREADABLE_SOURCE", "cannot read file://" + f + ": there is no"
        + " file " + f + " (give an NDJSON file, e.g. --from file://events.ndjson)"));
    assertThat(run.status()).isEqualTo(1);
  }

  @Test
  void aDirectoryIsNotASource() throws IOException {
    Path d = Files.createDirectory(dir.resolve("events.ndjson"));
    Cli run = Cli.run("--from", "file://" + d, SQL);
    assertThat(run.out()).containsExactly(Cli.error("UNREADABLE_SOURCE", "cannot read file://" + d + ": it is a"
        + " directory; name its files with one --from each"));
  }

  @Test
  void aWholeNumberSumThatOverflowsIsRefusedTheSameOnTheLocalAndABeamRunner() {
    Path f = Cli.write(dir, "events.ndjson",
        "{\"t\":\"2026-03-01 00:00:10\",\"v\":9223372036854775807}",
        "{\"t\":\"2026-03-01 00:00:20\",\"v\":9223372036854775807}",
        "{\"t\":\"2026-03-01 00:01:20\",\"v\":1}");
    String refusal = Cli.error("TYPE_MISMATCH", "the sum 'sum(v)' of window [2026-03-01 00:00:00, 2026-03-01 00:01:00)"
        + " overflows a 64-bit whole number (about 1.8446744073709552E19): sum a DOUBLE (floating-point) field instead");
    for (String runner : new String[] {"local", "direct"}) {
      Cli run = Cli.run("--runner", runner, "--from", "file://" + f, SQL);
      assertThat(run.out()).as(runner).containsExactly(refusal);
      assertThat(run.status()).as(runner).isEqualTo(1);
    }
  }

  @Test
  void emptyFilePrintsOnlyTheStats() {
    Path f = Cli.write(dir, "events.ndjson");
    Cli run = Cli.run("--from", "file://" + f, SQL);
    assertThat(run.out()).containsExactly(Cli.stats(0, 0, 0, 0, 0, 0));
    assertThat(run.status()).isZero();
  }

  @Test
  void malformedLinesAreRejectedWithTheirLineNumbers() throws IOException {
    Path f = Cli.write(dir, "events.ndjson",
        "{\"t\":\"2026-07-18 10:00:01\",\"v\":1}",
        "{\"t\":\"2026-07-18 10:00:02\",\"v\":",
        "",
        "[1,2]",
        "{\"t\":\"2026-07-18 10:00:03\",\"v\":2} trailing",
        "{\"t\":\"2026-07-18 10:00:04\",\"v\":3}");
    Path rejected = dir.resolve("rejected.ndjson");
    Cli run = Cli.run("--from", "file://" + f, "--rejected-output", "file://" + rejected, SQL);
    assertThat(run.out()).containsExactly(
        "{\"w\":\"2026-07-18 10:00:00\",\"n\":2,\"total\":4}",
        Cli.stats(5, 1, 0, 1, 2, 3));
    String source = f.toString();
    java.util.List<String> err = run.err().lines().toList();
    assertThat(err).hasSize(3);
    assertThat(err.get(0)).startsWith("eventtime: rejected line 2 of " + source + ": malformed JSON: Unexpected end-of-input");
    assertThat(err.get(1)).isEqualTo("eventtime: rejected line 4 of " + source
        + ": the line is not a JSON object (it starts with '[')");
    assertThat(err.get(2)).isEqualTo("eventtime: rejected line 5 of " + source + ": there is more after the JSON object"
        + " ('trailing')");
    assertThat(Files.readAllLines(rejected)).hasSize(3).allSatisfy(l -> assertThat(l).contains("\"text\":"))
        .first().asString().startsWith("{\"source\":\"" + source + "\",\"line\":2,\"reason\":\"malformed JSON");
  }

  /** With a one-row sample, the later lines are read from the file's buffer, not from the sample's copies. */
  @Test
  void malformedLinesPastTheSample() {
    Path f = Cli.write(dir, "events.ndjson",
        "{\"t\":\"2026-07-18 10:00:01\",\"v\":1}",
        "{\"t\":\"2026-07-18 10:00:03\",\"v\":2} trailing",
        "{\"t\":\"2026-07-18 10:00:04\",\"v\":3}");
    Cli run = Cli.run("--from", f.toString(), "--infer-rows", "1", SQL);
    assertThat(run.out()).containsExactly(
        "{\"w\":\"2026-07-18 10:00:00\",\"n\":2,\"total\":4}",
        Cli.stats(3, 1, 0, 1, 2, 1));
    assertThat(run.err()).isEqualTo("eventtime: rejected line 2 of " + f + ": there is more after the JSON object"
        + " ('trailing')\n");
  }

  @Test
  void nullMissingAndUnparseableTimesAreRejectedAndCounted() throws IOException {
    Path f = Cli.write(dir, "events.ndjson",
        "{\"t\":\"2026-07-18 10:00:01\",\"v\":1}",
        "{\"t\":null,\"v\":10}",
        "{\"v\":20}",
        "{\"t\":\"not a time\",\"v\":30}",
        "{\"t\":1784368803000,\"v\":40}",
        "{\"t\":\"2026-07-18T10:00:05Z\",\"v\":2}",
        "{\"t\":\"2026-07-18 10:00:06.250\",\"v\":\"three\"}");
    Path rejected = dir.resolve("rejected.ndjson");
    Cli run = Cli.run("--from", "file://" + f, "--rejected-output", "file://" + rejected, SQL);
    assertThat(run.out()).containsExactly(
        "{\"w\":\"2026-07-18 10:00:00\",\"n\":2,\"total\":3}",
        Cli.stats(7, 1, 0, 1, 2, 5));
    assertThat(Files.readAllLines(rejected)).containsExactly(
        "{\"source\":\"" + f + "\",\"line\":2,\"field\":\"t\",\"reason\":\"the time is null\",\"row\":{\"t\":null,\"v\":10}}",
        "{\"source\":\"" + f + "\",\"line\":3,\"field\":\"t\",\"reason\":\"the row has no field t\",\"row\":{\"v\":20}}",
        "{\"source\":\"" + f + "\",\"line\":4,\"field\":\"t\",\"reason\":\"'not a time' is not a time in ISO-8601 form"
            + " (e.g. 2026-07-18 10:00:03 or 2026-07-18T10:00:03Z)\",\"row\":{\"t\":\"not a time\",\"v\":30}}",
        "{\"source\":\"" + f + "\",\"line\":5,\"field\":\"t\",\"reason\":\"1784368803000 is not a date-time string\","
            + "\"row\":{\"t\":1784368803000,\"v\":40}}",
        "{\"source\":\"" + f + "\",\"line\":7,\"field\":\"v\",\"reason\":\"'three' is not a number (the column is"
            + " BIGINT)\",\"row\":{\"t\":\"2026-07-18 10:00:06.250\",\"v\":\"three\"}}");
    assertThat(run.err().lines()).hasSize(5).first().asString()
        .isEqualTo("eventtime: rejected line 2 of " + f + ", field t: the time is null");
  }

  @Test
  void millisecondsArePrintedOnlyWhenNotZero() {
    Path f = Cli.write(dir, "events.ndjson",
        "{\"t\":\"2026-07-18 10:00:00.250\",\"v\":1}",
        "{\"t\":\"2026-07-18 10:00:01\",\"v\":2}");
    Cli run = Cli.run("--from", "file://" + f, "SELECT TUMBLE(t, INTERVAL 500 MILLISECONDS) AS w, max(t) AS last"
        + " FROM events GROUP BY TUMBLE(t, INTERVAL 500 MILLISECONDS)");
    assertThat(run.rows()).containsExactly(
        "{\"w\":\"2026-07-18 10:00:00\",\"last\":\"2026-07-18 10:00:00.250\"}",
        "{\"w\":\"2026-07-18 10:00:01\",\"last\":\"2026-07-18 10:00:01\"}");
  }

  @Test
  void severalFilesAreOneStreamNamedAfterTheFirst() throws IOException {
    Path day1 = Cli.write(dir, "clicks.ndjson",
        "{\"t\":\"2026-07-18 10:00:01\",\"v\":1}",
        "{\"t\":\"2026-07-18 10:01:01\",\"v\":2}");
    Path day2 = Cli.write(dir, "more.ndjson",
        "{\"t\":\"2026-07-18 10:00:30\",\"v\":4}",
        "{\"t\":\"2026-07-18 10:02:01\",\"v\":8}");
    String sql = SQL.replace("FROM events", "FROM clicks");
    // on Beam the late row's file and line come back from its arrival position (file index 1, line 1)
    for (String runner : new String[] {"local", "direct"}) {
      Path late = dir.resolve("late-" + runner + ".ndjson");
      Cli run = Cli.run("--runner", runner, "--from", "file://" + day1, "--from", "file://" + day2,
          "--late-output", "file://" + late, sql);
      assertThat(run.out()).as(runner).containsExactly(
          "{\"w\":\"2026-07-18 10:00:00\",\"n\":1,\"total\":1}",
          "{\"w\":\"2026-07-18 10:01:00\",\"n\":1,\"total\":2}",
          "{\"w\":\"2026-07-18 10:02:00\",\"n\":1,\"total\":8}",
          Cli.stats(4, 3, 1, 3, 3, 0));
      assertThat(Files.readAllLines(late)).as(runner).containsExactly("{\"source\":\"" + day2 + "\",\"line\":1,"
          + "\"event_time\":\"2026-07-18 10:00:30\",\"reason\":\"every window of event time 2026-07-18 10:00:30 had"
          + " closed at watermark 2026-07-18 10:01:01 (late policy window)\",\"row\":{\"t\":\"2026-07-18 10:00:30\",\"v\":4}}");
    }

    Cli named = Cli.run("--from", "file://" + day2, "--from", "file://" + day1, "--table", "events", SQL);
    assertThat(named.rows()).containsExactly(
        "{\"w\":\"2026-07-18 10:00:00\",\"n\":1,\"total\":4}",
        "{\"w\":\"2026-07-18 10:02:00\",\"n\":1,\"total\":8}");
  }

  @Test
  void theDelayKeepsWindowsOpenForLateRows() {
    Path f = Cli.write(dir, "events.ndjson",
        "{\"t\":\"2026-07-18 10:00:01\",\"v\":1}",
        "{\"t\":\"2026-07-18 10:01:01\",\"v\":2}",
        "{\"t\":\"2026-07-18 10:00:30\",\"v\":4}");
    assertThat(Cli.run("--from", "file://" + f, SQL).out()).containsExactly(
        "{\"w\":\"2026-07-18 10:00:00\",\"n\":1,\"total\":1}",
        "{\"w\":\"2026-07-18 10:01:00\",\"n\":1,\"total\":2}",
        Cli.stats(3, 2, 1, 2, 2, 0));
    assertThat(Cli.run("--from", "file://" + f, "--watermark-delay", "5 SECONDS", SQL).out()).containsExactly(
        "{\"w\":\"2026-07-18 10:00:00\",\"n\":2,\"total\":5}",
        "{\"w\":\"2026-07-18 10:01:00\",\"n\":1,\"total\":2}",
        Cli.stats(3, 2, 0, 2, 3, 0));
  }

  @Test
  void crlfBlankLinesAndAByteOrderMark() throws IOException {
    Path f = dir.resolve("events.ndjson");
    Files.write(f, ("\uFEFF{\"t\":\"2026-07-18 10:00:01\",\"v\":1}\r\n\r\n   \n{\"t\":\"2026-07-18 10:00:02\",\"v\":2}")
        .getBytes(java.nio.charset.StandardCharsets.UTF_8));
    assertThat(Cli.run("--from", f.toString(), SQL).out()).containsExactly(
        "{\"w\":\"2026-07-18 10:00:00\",\"n\":2,\"total\":3}",
        Cli.stats(2, 1, 0, 1, 2, 0));
  }

  @Test
  void aLineLongerThanTheReadBuffer() throws IOException {
    String big = "x".repeat(3 << 20);
    Path f = Cli.write(dir, "events.ndjson",
        "{\"t\":\"2026-07-18 10:00:01\",\"v\":1,\"pad\":\"" + big + "\"}",
        "{\"t\":\"2026-07-18 10:00:02\",\"v\":2}");
    assertThat(Cli.run("--from", f.toString(), SQL).out()).containsExactly(
        "{\"w\":\"2026-07-18 10:00:00\",\"n\":2,\"total\":3}",
        Cli.stats(2, 1, 0, 1, 2, 0));
  }
}
