package io.eventtime.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.core.TimeText;
import io.eventtime.core.contract.WorkedExamples;
import io.eventtime.core.state.StateStore;
import io.eventtime.testing.kafka.KafkaBroker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A live Kafka run of the command as a child process: window rows printed while it runs, a clean
 * end on SIGTERM, and {@code kill -9} at random moments with restarts giving exactly the output of
 * one uninterrupted run. {@code -Deventtime.kill.rounds=N} kills more often (3 by default).
 */
class KafkaProcessTest {
  private static final long T0 = WorkedExamples.millis("2026-07-18 10:00:00");
  private static final String SQL = "SELECT k, TUMBLE(ts, INTERVAL 10 SECOND) AS w, count(*) AS n, sum(v) AS total"
      + " FROM t GROUP BY k, TUMBLE(ts, INTERVAL 10 SECOND)";
  private static KafkaBroker broker;

  @TempDir
  Path dir;

  @BeforeAll
  static void startBroker() {
    broker = KafkaBroker.start();
  }

  @AfterAll
  static void stopBroker() {
    broker.close();
  }

  private static String row(String key, long ts, long v) {
    return "{\"k\":\"" + key + "\",\"ts\":\"" + TimeText.format(ts) + "\",\"v\":" + v + "}";
  }

  /** The command in a JVM of its own, with this test's class path. */
  private static Process start(List<String> args) throws IOException {
    return start(args, null);
  }

  /** With {@code stderr} a file: the child's stderr goes there, and the child is told it is a terminal. */
  private static Process start(List<String> args, Path stderr) throws IOException {
    return stderr == null ? ChildCommand.start(args, ProcessBuilder.Redirect.DISCARD)
        : ChildCommand.start(args, ProcessBuilder.Redirect.to(stderr.toFile()),
            "-D" + io.eventtime.cli.local.Progress.TERMINAL_PROPERTY + "=true");
  }


  @Test
  void windowsArePrintedAsTheyClose_andSigtermStoresTheStateAndExitsZero() throws Exception {
    broker.createTopic("live", 1);
    Path state = dir.resolve("state");
    String from = "kafka://" + broker.bootstrapServers() + "/live";
    broker.produce("live", 0, row("a", T0 + 1_000, 1), row("a", T0 + 5_000, 2));
    Path stderr = dir.resolve("stderr.txt");
    Process p = start(List.of("--from", from, "--table", "t", "--state", state.toString(), SQL), stderr);
    try {
      BlockingQueue<String> out = ChildCommand.lines(p);
      assertThat(out.poll(3, TimeUnit.SECONDS)).as("no window is closed yet").isNull();
      broker.produce("live", 0, row("a", T0 + 12_000, 4));
      assertThat(out.poll(60, TimeUnit.SECONDS)).isEqualTo("{\"k\":\"a\",\"w\":\"2026-07-18 10:00:00\",\"n\":2,\"total\":3}");
      assertThat(p.isAlive()).isTrue();
      // one more row a second later: stderr is a terminal (as the launcher told it), so the progress line
      // shows it; the stop waits for the line that counts it, or it could come before the row is read
      Thread.sleep(1_100);
      broker.produce("live", 0, row("a", T0 + 13_000, 5));
      long deadline = System.nanoTime() + 30_000_000_000L;
      while (!Files.readString(stderr).contains("eventtime: 4 rows read")) {
        assertThat(System.nanoTime()).as("a progress line counts the fourth row").isLessThan(deadline);
        Thread.sleep(50);
      }

      // SIGTERM by kill(1): Process.destroy() would also close the pipe the stats line comes through
      assertThat(new ProcessBuilder("kill", "-TERM", String.valueOf(p.pid())).start().waitFor()).isZero();
      assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(p.exitValue()).isZero();
      assertThat(out.poll(10, TimeUnit.SECONDS)).isEqualTo(Cli.stats(4, 1, 0, 1, 4, 0));
      assertThat(state.resolve(StateStore.STATE_FILE)).exists();
      assertThat(Files.readString(stderr)).matches("(\r\033\\[Keventtime: [34] rows read, \\d+ rows/s, watermark"
          + " 2026-07-18 10:00:1[23], 1 open windows, 0 late)+\n");
    } finally {
      p.destroyForcibly();
    }
    // the window 10:00:10 was stored open, with the offset after the fourth record
    broker.produce("live", 0, row("a", T0 + 25_000, 8));
    Cli next = Cli.run("--from", from, "--table", "t", "--state", state.toString(), "--until", "available", SQL);
    assertThat(next.out()).containsExactly("{\"k\":\"a\",\"w\":\"2026-07-18 10:00:10\",\"n\":2,\"total\":9}",
        Cli.stats(1, 1, 0, 1, 1, 0));
  }

  @Test
  void aBrokerThatGoesAwayAndComesBackIsWaitedFor_noRowLost() throws Exception {
    broker.createTopic("away", 1);
    String from = "kafka://" + broker.bootstrapServers() + "/away";
    broker.produce("away", 0, row("a", T0 + 1_000, 1), row("a", T0 + 12_000, 2));
    Process p = start(List.of("--from", from, "--table", "t", SQL));
    try {
      BlockingQueue<String> out = ChildCommand.lines(p);
      assertThat(out.poll(60, TimeUnit.SECONDS)).isEqualTo("{\"k\":\"a\",\"w\":\"2026-07-18 10:00:00\",\"n\":1,\"total\":1}");

      broker.stop();
      assertThat(out.poll(4, TimeUnit.SECONDS)).isNull();
      assertThat(p.isAlive()).as("the run waits for the broker").isTrue();
      broker.restart();
      broker.produce("away", 0, row("a", T0 + 25_000, 4));
      assertThat(out.poll(60, TimeUnit.SECONDS)).isEqualTo("{\"k\":\"a\",\"w\":\"2026-07-18 10:00:10\",\"n\":1,\"total\":2}");

      assertThat(new ProcessBuilder("kill", "-TERM", String.valueOf(p.pid())).start().waitFor()).isZero();
      assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(p.exitValue()).isZero();
      // without a state, a stop drains: the window still open is emitted
      assertThat(out.poll(10, TimeUnit.SECONDS)).isEqualTo("{\"k\":\"a\",\"w\":\"2026-07-18 10:00:20\",\"n\":1,\"total\":4}");
      assertThat(out.poll(10, TimeUnit.SECONDS)).isEqualTo(Cli.stats(3, 3, 0, 3, 3, 0));
    } finally {
      p.destroyForcibly();
      if (!broker.isRunning()) {
        broker.restart();
      }
    }
  }

  @Test
  void killedAtRandomMomentsAndRestarted_theOutputIsOneUninterruptedRunsExactly() throws Exception {
    int rounds = Integer.getInteger("eventtime.kill.rounds", 3);
    Random random = new Random(Long.getLong("eventtime.kill.seed", 42L));
    broker.createTopic("killed", 3);
    for (int part = 0; part < 3; part++) {
      List<String> values = new ArrayList<>();
      long t = T0;
      for (int i = 0; i < 400; i++) {
        t += random.nextInt(600);
        long ts = random.nextInt(10) == 0 ? t - random.nextInt(4_000) : t;
        values.add(row(String.valueOf((char) ('a' + random.nextInt(4))), ts, random.nextInt(100)));
      }
      broker.produce("killed", part, values.toArray(String[]::new));
    }
    String from = "kafka://" + broker.bootstrapServers() + "/killed";
    Path once = dir.resolve("once.ndjson");
    Path lateOnce = dir.resolve("late-once.ndjson");
    Cli uninterrupted = Cli.run("--from", from, "--table", "t", "--watermark-delay", "1 SECOND", "--until", "available",
        "--state", dir.resolve("state-once").toString(), "--output", once.toString(), "--late-output",
        lateOnce.toString(), SQL);
    assertThat(uninterrupted.status()).isZero();

    Path twice = dir.resolve("twice.ndjson");
    Path lateTwice = dir.resolve("late-twice.ndjson");
    // small polls: many batches and many commits, so that a kill lands between and inside them
    List<String> args = List.of("--from", from, "--table", "t", "--watermark-delay", "1 SECOND", "--until", "available",
        "--state", dir.resolve("state-killed").toString(), "--output", twice.toString(), "--late-output",
        lateTwice.toString(), "--kafka-option", "max.poll.records=7", SQL);
    // each kill lands at a random point of the output's growth, not at a random time: on a fast
    // machine a run can end before a fixed wait runs out, and no kill would land
    long full = Files.size(once);
    int killed = 0;
    for (int round = 0; round < rounds; round++) {
      long reached = sizeOf(twice);
      long killAt = reached + 1 + (long) (random.nextDouble() * Math.max(1, full - reached - 1));
      Process p = start(args);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (p.isAlive() && sizeOf(twice) < killAt) {
        assertThat(System.nanoTime()).as("round %s reaches %s bytes of output", round, killAt).isLessThan(deadline);
        Thread.sleep(1);
      }
      if (p.isAlive()) {
        p.destroyForcibly(); // SIGKILL: no hook runs
        p.waitFor(30, TimeUnit.SECONDS);
        killed++;
      }
    }
    Process last = start(args);
    assertThat(last.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(last.exitValue()).isZero();

    assertThat(killed).as("kills that landed while the run was going").isPositive();
    assertThat(Files.readString(twice)).isEqualTo(Files.readString(once)).isNotEmpty();
    // late rows come in the order the partitions' records interleave, which differs from run to run
    assertThat(Files.readAllLines(lateTwice).stream().sorted().toList())
        .isEqualTo(Files.readAllLines(lateOnce).stream().sorted().toList()).isNotEmpty();
  }

  /** The file's length, 0 while it is not there. */
  private static long sizeOf(Path file) throws IOException {
    try {
      return Files.size(file);
    } catch (java.nio.file.NoSuchFileException e) {
      return 0;
    }
  }
}
