package io.eventtime.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.core.TimeText;
import io.eventtime.core.contract.WorkedExamples;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --from -}: the command as a child process, its standard input written by the test while
 * it runs; each window row is read from its stdout before the input ends.
 */
class StdinProcessTest {
  private static final long T0 = WorkedExamples.millis("2026-07-18 10:00:00");
  private static final String SQL = "SELECT k, TUMBLE(ts, INTERVAL 10 SECOND) AS w, count(*) AS n, sum(v) AS total"
      + " FROM stdin GROUP BY k, TUMBLE(ts, INTERVAL 10 SECOND)";

  @TempDir
  Path dir;

  private static String row(String key, long ts, long v) {
    return "{\"k\":\"" + key + "\",\"ts\":\"" + TimeText.format(ts) + "\",\"v\":" + v + "}";
  }

  private static Process start(List<String> args) throws IOException {
    return ChildCommand.start(args, ProcessBuilder.Redirect.DISCARD);
  }


  private static void write(OutputStream in, String... rows) throws IOException {
    for (String r : rows) {
      in.write((r + "\n").getBytes(StandardCharsets.UTF_8));
    }
    in.flush();
  }

  @Test
  void windowsArePrintedAsTheyClose_beforeTheInputEnds_andTheEndDrains() throws Exception {
    Path rejected = dir.resolve("rejected.ndjson");
    Process p = start(List.of("--from", "-", "--infer-rows", "2", "--rejected-output", rejected.toString(), SQL));
    try (OutputStream in = p.getOutputStream()) {
      BlockingQueue<String> out = ChildCommand.lines(p);
      write(in, row("a", T0 + 1_000, 1), row("a", T0 + 5_000, 2));
      assertThat(out.poll(3, TimeUnit.SECONDS)).as("no window is closed yet").isNull();
      write(in, "{\"k\":\"a\",\"ts\":", row("a", T0 + 12_000, 4));
      assertThat(out.poll(30, TimeUnit.SECONDS)).isEqualTo("{\"k\":\"a\",\"w\":\"2026-07-18 10:00:00\",\"n\":2,\"total\":3}");
      assertThat(p.isAlive()).as("the run waits for more input").isTrue();
      write(in, row("b", T0 + 13_000, 5), "", row("a", T0 + 21_000, 6));
      assertThat(out.poll(30, TimeUnit.SECONDS)).isEqualTo("{\"k\":\"a\",\"w\":\"2026-07-18 10:00:10\",\"n\":1,\"total\":4}");
      assertThat(out.poll(30, TimeUnit.SECONDS)).isEqualTo("{\"k\":\"b\",\"w\":\"2026-07-18 10:00:10\",\"n\":1,\"total\":5}");
      in.close(); // the end of the input: the window still open is emitted
      assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
      assertThat(p.exitValue()).isZero();
      assertThat(out.poll(10, TimeUnit.SECONDS)).isEqualTo("{\"k\":\"a\",\"w\":\"2026-07-18 10:00:20\",\"n\":1,\"total\":6}");
      assertThat(out.poll(10, TimeUnit.SECONDS)).isEqualTo(Cli.stats(6, 4, 0, 3, 5, 1));
      assertThat(out.poll(1, TimeUnit.SECONDS)).isNull();
    } finally {
      p.destroyForcibly();
    }
    assertThat(Files.readAllLines(rejected)).hasSize(1).first().asString()
        .startsWith("{\"source\":\"stdin\",\"line\":3,\"reason\":\"malformed JSON");
  }

  @Test
  void sigtermEndsTheRunCleanly_andWithStateTheOpenWindowGoesToTheNextRun() throws Exception {
    Path state = dir.resolve("state");
    Process p = start(List.of("--from", "-", "--infer-rows", "1", "--state", state.toString(), SQL));
    try (OutputStream in = p.getOutputStream()) {
      BlockingQueue<String> out = ChildCommand.lines(p);
      write(in, row("a", T0 + 1_000, 1), row("a", T0 + 11_000, 2));
      assertThat(out.poll(30, TimeUnit.SECONDS)).isEqualTo("{\"k\":\"a\",\"w\":\"2026-07-18 10:00:00\",\"n\":1,\"total\":1}");
      // SIGTERM while the input stays open: the stop hands the open window 10:00:10 to the state
      assertThat(new ProcessBuilder("kill", "-TERM", String.valueOf(p.pid())).start().waitFor()).isZero();
      assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
      assertThat(p.exitValue()).isZero();
      assertThat(out.poll(10, TimeUnit.SECONDS)).isEqualTo(Cli.stats(2, 1, 0, 1, 2, 0));
    } finally {
      p.destroyForcibly();
    }
    // the next run, over a file, goes on from the stored watermark and window
    Path more = Cli.write(dir, "more.ndjson", row("a", T0 + 15_000, 3), row("a", T0 + 25_000, 4));
    Cli next = Cli.run("--from", more.toString(), "--table", "stdin", "--state", state.toString(), SQL);
    assertThat(next.out()).containsExactly("{\"k\":\"a\",\"w\":\"2026-07-18 10:00:10\",\"n\":2,\"total\":5}",
        Cli.stats(2, 1, 0, 1, 2, 0));
  }

  /**
   * Stderr a terminal (as the launcher tells the command): a progress line, rewritten in place,
   * counts the rows read so far; with {@code --quiet} there is none.
   */
  @Test
  void aProgressLineWhileStderrIsATerminal_noneWithQuiet() throws Exception {
    for (boolean quiet : new boolean[] {false, true}) {
      Path stderr = dir.resolve("stderr-" + quiet + ".txt");
      List<String> args = new java.util.ArrayList<>(List.of("--from", "-", "--infer-rows", "1", SQL));
      if (quiet) {
        args.add(0, "--quiet");
      }
      Process p = ChildCommand.start(args, ProcessBuilder.Redirect.to(stderr.toFile()),
          "-D" + io.eventtime.cli.local.Progress.TERMINAL_PROPERTY + "=true");
      try (OutputStream in = p.getOutputStream()) {
        BlockingQueue<String> out = ChildCommand.lines(p);
        write(in, row("a", T0 + 1_000, 1), row("a", T0 + 11_000, 2));
        assertThat(out.poll(30, TimeUnit.SECONDS)).isEqualTo("{\"k\":\"a\",\"w\":\"2026-07-18 10:00:00\",\"n\":1,\"total\":1}");
        // a line at most once a second, at a batch: the third row comes after that second
        Thread.sleep(1_100);
        write(in, row("b", T0 + 12_000, 3));
        if (!quiet) {
          long deadline = System.nanoTime() + 30_000_000_000L;
          while (!Files.readString(stderr).contains("eventtime: 3 rows read")) {
            assertThat(System.nanoTime()).as("a progress line counts the third row").isLessThan(deadline);
            Thread.sleep(50);
          }
        }
        in.close();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isZero();
      } finally {
        p.destroyForcibly();
      }
      if (quiet) {
        assertThat(Files.readString(stderr)).isEmpty();
      } else {
        assertThat(Files.readString(stderr)).matches("(\r\033\\[Keventtime: [23] rows read, \\d+ rows/s, watermark"
            + " 2026-07-18 10:00:1[12], [12] open windows, 0 late)+\n");
      }
    }
  }

  @Test
  void stdinIsReadAloneAndOnTheLocalRunnerOnly() {
    assertThat(Cli.run("--from", "-", "--runner", "flink", SQL).out()).containsExactly(Cli.error("INVALID_ARGUMENT",
        "--runner flink cannot read --from - (standard input): a live input runs on the local runner only; drop"
            + " --runner, or write the input to a file and give --from file://..."));
    assertThat(Cli.run("--from", "-", "--from", "file://x.ndjson", SQL).out()).containsExactly(Cli.error(
        "INVALID_ARGUMENT", "--from - (standard input) is read alone: give it as the only --from (to read files after"
            + " it, cat them into the same pipe)"));
    Cli until = Cli.run("--from", "-", "--until", "available", SQL);
    assertThat(until.out()).containsExactly(Cli.error("INVALID_ARGUMENT", "--until goes with a Kafka source, --from"
        + " kafka://HOST:PORT/TOPIC; files are read to their end"));
    assertThat(until.status()).isEqualTo(2);
  }

  @Test
  void helpDocumentsStdinWithAnExample() {
    String help = String.join("\n", Cli.run("--help").out()).replaceAll("\\s+", " ");
    assertThat(help).contains("Or - for standard input", "tail -f app.ndjson | eventtime --from - --infer-rows 1");
  }
}
