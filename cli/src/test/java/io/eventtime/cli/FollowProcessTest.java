package io.eventtime.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.core.TimeText;
import io.eventtime.core.contract.WorkedExamples;
import io.eventtime.core.state.StateStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --from 'file://in/*.ndjson' --follow}: the command as a child process while the test
 * appends lines and lands new files; each window row is read from its stdout before the input
 * ends, and the whole output equals the file run over the same files.
 */
class FollowProcessTest {
  private static final long T0 = WorkedExamples.millis("2026-07-18 10:00:00");
  private static final String SQL = "SELECT k, TUMBLE(ts, INTERVAL 10 SECOND) AS w, count(*) AS n, sum(v) AS total"
      + " FROM t GROUP BY k, TUMBLE(ts, INTERVAL 10 SECOND)";

  @TempDir
  Path dir;

  private static String row(String key, long ts, long v) {
    return "{\"k\":\"" + key + "\",\"ts\":\"" + TimeText.format(ts) + "\",\"v\":" + v + "}";
  }

  private static String window(String key, String start, long n, long total) {
    return "{\"k\":\"" + key + "\",\"w\":\"2026-07-18 " + start + "\",\"n\":" + n + ",\"total\":" + total + "}";
  }

  private static Process start(List<String> args, Path stderr) throws IOException {
    return ChildCommand.start(args, ProcessBuilder.Redirect.to(stderr.toFile()));
  }


  /** Appends text as it is (a line without its newline stays so). */
  private static void append(Path file, String text) throws IOException {
    Files.writeString(file, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
  }

  private static String lines(String... rows) {
    return String.join("\n", rows) + "\n";
  }

  private static void sigterm(Process p) throws Exception {
    assertThat(new ProcessBuilder("kill", "-TERM", String.valueOf(p.pid())).start().waitFor()).isZero();
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).isZero();
  }

  private static List<String> drain(BlockingQueue<String> out) throws InterruptedException {
    List<String> rest = new ArrayList<>();
    for (String line; (line = out.poll(2, TimeUnit.SECONDS)) != null; ) {
      rest.add(line);
    }
    return rest;
  }

  @Test
  void windowsArePrintedAsTheyClose_asLinesAreAppendedAndFilesLand_andTheWholeEqualsTheFileRun() throws Exception {
    Path in = Files.createDirectory(dir.resolve("in"));
    Path a = in.resolve("a.ndjson");
    Path b = in.resolve("b.ndjson");
    Path c = in.resolve("c.ndjson");
    append(a, lines(row("a", T0 + 1_000, 1), row("a", T0 + 5_000, 2)));
    append(in.resolve("notes.txt"), "not matched\n");
    Process p = start(List.of("--from", "file://" + in + "/*.ndjson", "--follow", "--table", "t", "--infer-rows", "2",
        "--late-output", dir.resolve("late.ndjson").toString(), "--rejected-output",
        dir.resolve("rejected.ndjson").toString(), SQL), dir.resolve("err.txt"));
    List<String> seen = new ArrayList<>();
    try {
      BlockingQueue<String> out = ChildCommand.lines(p);
      assertThat(out.poll(3, TimeUnit.SECONDS)).as("no window is closed yet").isNull();
      append(a, "{\"k\":\"a\",\"ts\":\"" + TimeText.format(T0 + 12_000) + "\"");
      assertThat(out.poll(2, TimeUnit.SECONDS)).as("a line waits for its newline").isNull();
      append(a, ",\"v\":4}\n");
      seen.add(out.poll(30, TimeUnit.SECONDS));
      assertThat(seen).containsExactly(window("a", "10:00:00", 2, 3));

      append(b, lines(row("b", T0 + 13_000, 5), row("a", T0 + 3_000, 9), "{\"k\":", row("a", T0 + 21_000, 6)));
      seen.add(out.poll(30, TimeUnit.SECONDS));
      seen.add(out.poll(30, TimeUnit.SECONDS));
      assertThat(seen.subList(1, 3)).containsExactly(window("a", "10:00:10", 1, 4), window("b", "10:00:10", 1, 5));
      assertThat(p.isAlive()).as("the run waits for more").isTrue();

      append(c, lines(row("a", T0 + 22_000, 7)));
      append(c, lines(row("a", T0 + 35_000, 8)));
      seen.add(out.poll(30, TimeUnit.SECONDS));
      assertThat(seen.get(3)).isEqualTo(window("a", "10:00:20", 2, 13));
      // a line never finished: a run without a state reads it at the stop, as a file run reads a last line
      append(c, "{\"k\":\"a\",\"ts\":");
      Thread.sleep(500);
      sigterm(p);
      seen.addAll(drain(out));
    } finally {
      p.destroyForcibly();
    }
    Cli file = Cli.run("--from", a.toString(), "--from", b.toString(), "--from", c.toString(), "--table", "t",
        "--infer-rows", "2", "--late-output", dir.resolve("file-late.ndjson").toString(), "--rejected-output",
        dir.resolve("file-rejected.ndjson").toString(), SQL);
    assertThat(file.rows()).hasSize(5);
    assertThat(seen).isEqualTo(file.out());
    assertThat(Files.readAllLines(dir.resolve("late.ndjson")))
        .isEqualTo(Files.readAllLines(dir.resolve("file-late.ndjson"))).hasSize(1);
    List<String> rejected = Files.readAllLines(dir.resolve("rejected.ndjson"));
    assertThat(rejected).isEqualTo(Files.readAllLines(dir.resolve("file-rejected.ndjson"))).hasSize(2);
    assertThat(rejected.get(0)).startsWith("{\"source\":\"" + b + "\",\"line\":3,");
    assertThat(rejected.get(1)).startsWith("{\"source\":\"" + c + "\",\"line\":3,");
  }

  /** Stderr a terminal (as the launcher tells the command): a progress line counts the lines read so far. */
  @Test
  void aProgressLineWhileStderrIsATerminal() throws Exception {
    Path in = Files.createDirectory(dir.resolve("in"));
    Path a = in.resolve("a.ndjson");
    append(a, lines(row("a", T0 + 1_000, 1), row("a", T0 + 11_000, 2)));
    Path stderr = dir.resolve("err.txt");
    Process p = ChildCommand.start(List.of("--from", "file://" + in + "/*.ndjson", "--follow", "--table", "t",
        "--infer-rows", "1", SQL), ProcessBuilder.Redirect.to(stderr.toFile()),
        "-D" + io.eventtime.cli.local.Progress.TERMINAL_PROPERTY + "=true");
    try {
      BlockingQueue<String> out = ChildCommand.lines(p);
      assertThat(out.poll(30, TimeUnit.SECONDS)).isEqualTo(window("a", "10:00:00", 1, 1));
      // a line at most once a second, at a batch: the third row comes after that second
      Thread.sleep(1_100);
      append(a, lines(row("b", T0 + 12_000, 3)));
      long deadline = System.nanoTime() + 30_000_000_000L;
      while (!Files.readString(stderr).contains("eventtime: 3 rows read")) {
        assertThat(System.nanoTime()).as("a progress line counts the third row").isLessThan(deadline);
        Thread.sleep(50);
      }
      sigterm(p);
    } finally {
      p.destroyForcibly();
    }
    assertThat(Files.readString(stderr)).matches("(\r\033\\[Keventtime: [23] rows read, \\d+ rows/s, watermark"
        + " 2026-07-18 10:00:1[12], [12] open windows, 0 late)+\n");
  }

  @Test
  void sigtermWithStateStoresTheFileAndByteReached_andTheRestartGoesOnFromThere() throws Exception {
    Path in = Files.createDirectory(dir.resolve("in"));
    Path a = in.resolve("a.ndjson");
    Path b = in.resolve("b.ndjson");
    Path state = dir.resolve("state");
    Path output = dir.resolve("windows.ndjson");
    String pattern = "file://" + in + "/*.ndjson";
    append(a, lines(row("a", T0 + 1_000, 1), row("b", T0 + 2_000, 2), row("a", T0 + 11_000, 3)));
    List<String> args = List.of("--from", pattern, "--follow", "--table", "t", "--infer-rows", "1", "--state",
        state.toString(), "--output", "file://" + output, SQL);
    Process p = start(args, dir.resolve("err1.txt"));
    try {
      BlockingQueue<String> out = ChildCommand.lines(p);
      long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while ((!Files.exists(output) || Files.readAllLines(output).size() < 2) && System.nanoTime() < until) {
        Thread.sleep(50);
      }
      assertThat(Files.readAllLines(output)).as("written as the windows close")
          .containsExactly(window("a", "10:00:00", 1, 1), window("b", "10:00:00", 1, 2));
      append(a, "{\"k\":\"a\",\"ts\":\"" + TimeText.format(T0 + 12_000) + "\""); // no newline yet at the stop
      Thread.sleep(500);
      sigterm(p);
      assertThat(drain(out)).containsExactly(Cli.stats(3, 2, 0, 1, 3, 0));
    } finally {
      p.destroyForcibly();
    }
    String stored = Files.readString(state.resolve(StateStore.STATE_FILE));
    long bytes = lines(row("a", T0 + 1_000, 1), row("b", T0 + 2_000, 2), row("a", T0 + 11_000, 3))
        .getBytes(StandardCharsets.UTF_8).length;
    assertThat(stored).contains("{\"file\":\"" + a + "\",\"line\":4,\"byte\":" + bytes + "}", "\"kind\": \"files\"");

    // while it is stopped: the line is finished, more lines, a new file
    append(a, ",\"v\":4}\n" + row("a", T0 + 14_000, 5) + "\n");
    append(b, lines(row("b", T0 + 15_000, 6), row("a", T0 + 25_000, 7)));
    Process again = start(List.of("--from", pattern, "--follow", "--table", "t", "--infer-rows", "1", "--state",
        state.toString(), "--output", "file://" + output, "--until", "idle=1 SECOND", SQL), dir.resolve("err2.txt"));
    try {
      BlockingQueue<String> out = ChildCommand.lines(again);
      assertThat(again.waitFor(60, TimeUnit.SECONDS)).as("--until idle ends it").isTrue();
      assertThat(again.exitValue()).isZero();
      assertThat(drain(out)).containsExactly(Cli.stats(4, 2, 0, 1, 4, 0));
    } finally {
      again.destroyForcibly();
    }
    // the two runs wrote what one file run writes, each window once; the state still holds the last one
    Cli file = Cli.run("--from", a.toString(), "--from", b.toString(), "--table", "t", "--state",
        dir.resolve("file-state").toString(), SQL);
    assertThat(Files.readAllLines(output)).isEqualTo(file.rows());
    assertThat(file.last()).isEqualTo(Cli.stats(7, 4, 0, 2, 7, 0));

    // a run that reads the files to their end cannot go on from where a followed run got to
    Cli bounded = Cli.run("--from", a.toString(), "--table", "t", "--state", state.toString(), SQL);
    assertThat(bounded.out()).containsExactly(Cli.error("STATE_REFUSED", "--state " + state + ": the state was stored"
        + " by a --follow run, which goes on at line 3 of " + b + ": go on with the same --from and --follow (with --until"
        + " 'idle=1 SECOND' it stops once it has read what is there)"));
  }

  @Test
  void aFollowedFileThatShrinksIsAnErrorNamingIt() throws Exception {
    Path in = Files.createDirectory(dir.resolve("in"));
    Path a = in.resolve("a.ndjson");
    append(a, lines(row("a", T0 + 1_000, 1), row("a", T0 + 11_000, 2)));
    Process p = start(List.of("--from", a.toString(), "--follow", "--table", "t", "--infer-rows", "1", SQL),
        dir.resolve("err.txt"));
    try {
      BlockingQueue<String> out = ChildCommand.lines(p);
      assertThat(out.poll(30, TimeUnit.SECONDS)).isEqualTo(window("a", "10:00:00", 1, 1));
      Files.writeString(a, lines(row("a", T0 + 1_000, 1)));
      assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
      assertThat(p.exitValue()).isEqualTo(1);
      assertThat(drain(out)).containsExactly(Cli.error("UNREADABLE_SOURCE", "cannot read " + a + " after line 2: " + a
          + " shrank from " + Files.size(a) * 2 + " to " + Files.size(a) + " bytes while it was followed: a followed"
          + " file may only grow (it was truncated or rewritten)"));
    } finally {
      p.destroyForcibly();
    }
  }

  @Test
  void aCompressedFileAmongTheFollowedIsAnErrorNamingIt() throws IOException {
    Path in = Files.createDirectory(dir.resolve("in"));
    append(in.resolve("a.ndjson"), lines(row("a", T0 + 1_000, 1)));
    Path b = in.resolve("b.ndjson");
    try (java.util.zip.GZIPOutputStream gz = new java.util.zip.GZIPOutputStream(Files.newOutputStream(b))) {
      gz.write(lines(row("a", T0 + 2_000, 2)).getBytes(StandardCharsets.UTF_8));
    }
    Cli run = Cli.run("--from", "file://" + in + "/*.ndjson", "--follow", "--until", "idle=1 SECOND", "--table", "t",
        "--infer-rows", "1", SQL);
    assertThat(run.out()).containsExactly(Cli.error("UNREADABLE_SOURCE", "cannot read " + b + ": it is gzip-compressed"
        + " (it starts with gzip's magic bytes), not UTF-8 text: decompress it first, e.g. with gzip -dc"));
    assertThat(run.status()).isEqualTo(1);
  }

  /** Without a state no later run would read a last line that waits for its newline: the run reads it at the stop. */
  @Test
  void aRunWithoutStateReadsTheLastLineWithoutItsNewlineAtTheStop() throws IOException {
    Path in = Files.createDirectory(dir.resolve("in"));
    append(in.resolve("a.ndjson"), lines(row("a", T0 + 1_000, 1)) + row("a", T0 + 2_000, 2));
    Cli run = Cli.run("--from", "file://" + in + "/*.ndjson", "--follow", "--until", "idle=1 SECOND", "--table", "t",
        "--infer-rows", "1", SQL);
    assertThat(run.out()).containsExactly(window("a", "10:00:00", 2, 3), Cli.stats(2, 1, 0, 1, 2, 0));
  }

  @Test
  void badCombinationsAreRefusedBeforeTheRun() throws IOException {
    Path in = Files.createDirectory(dir.resolve("in"));
    String pattern = "file://" + in + "/*.ndjson";
    assertThat(Cli.run("--from", "-", "--follow", SQL).out()).containsExactly(Cli.error("INVALID_ARGUMENT",
        "--follow goes with files: --from - (standard input) is read as its lines come already; drop --follow, or"
            + " give the file: --from file://app.ndjson --follow"));
    assertThat(Cli.run("--from", "kafka://127.0.0.1:9/t", "--follow", SQL).out()).containsExactly(Cli.error(
        "INVALID_ARGUMENT", "--follow goes with files: --from kafka://127.0.0.1:9/t is a Kafka topic, read as its"
            + " records come already; drop --follow"));
    assertThat(Cli.run("--from", pattern, "--follow", "--runner", "flink", SQL).out()).containsExactly(Cli.error(
        "INVALID_ARGUMENT", "--runner flink cannot --follow files: following runs on the local runner only; drop"
            + " --runner, or drop --follow to read the files as they are now"));
    Cli available = Cli.run("--from", pattern, "--follow", "--until", "available", SQL);
    assertThat(available.out()).containsExactly(Cli.error("INVALID_ARGUMENT", "--until available does not go with"
        + " --follow: to read the files as they are now and stop, drop --follow and --until; to follow them until they"
        + " stay quiet, give --until 'idle=30 SECOND'"));
    assertThat(available.status()).isEqualTo(2);
    assertThat(Cli.run("--from", pattern, "--from", pattern, "--follow", SQL).out()).containsExactly(Cli.error(
        "INVALID_ARGUMENT", "--follow follows one file, folder or glob: give it as the only --from, e.g. --from"
            + " 'file://in/*.ndjson' --follow (the files are read in name order)"));
    assertThat(Cli.run("--from", pattern, "--follow", "--kafka-group", "g", SQL).out()).containsExactly(Cli.error(
        "INVALID_ARGUMENT", "--kafka-group goes with a Kafka source, --from kafka://HOST:PORT/TOPIC; files are read"
            + " to their end"));
    assertThat(Cli.run("--from", pattern, "--follow", "--output", in.resolve("out.ndjson").toString(), SQL).out())
        .containsExactly(Cli.error("INVALID_ARGUMENT", "--output " + in.resolve("out.ndjson") + " is among the files"
            + " --from " + pattern + " --follow reads: it would read its own output; write it elsewhere"));
    Path missing = dir.resolve("missing");
    Cli noFolder = Cli.run("--from", missing + "/*.ndjson", "--follow", SQL);
    assertThat(noFolder.out()).containsExactly(Cli.error("UNREADABLE_SOURCE", "cannot follow " + missing
        + "/*.ndjson: there is no folder " + missing + " (--follow waits for files to land in a folder that exists)"));
    assertThat(noFolder.status()).isEqualTo(1);
  }

  @Test
  void helpDocumentsFollowWithAnExample() {
    String help = String.join("\n", Cli.run("--help").out()).replaceAll("\\s+", " ");
    assertThat(help).contains("--follow Follow the --from file, folder or glob",
        "eventtime --from 'file://in/*.ndjson' --follow --state ./state --output file://windows.ndjson");
  }
}
