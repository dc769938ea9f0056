package io.eventtime.cli;

import static io.eventtime.core.contract.WorkedExamples.B;
import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.core.Stats;
import io.eventtime.core.contract.WorkedExamples;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Runs queries on the local runner and on a Beam runner, in-process, and checks that they print
 * the same lines: the seed page's examples, and queries over a random stream of a few thousand
 * rows with disorder (so late rows under both policies), bad times and malformed lines. Used by
 * the Direct runner test here and by the Flink and Spark modules, which have those runners'
 * classpaths.
 */
public final class RunnerAgreement {
  private RunnerAgreement() {}

  /** A query and the flags it runs with. */
  public record Query(String name, String sql, List<String> flags) {}

  public static final List<Query> RANDOM_STREAM_QUERIES = List.of(
      new Query("keyed hopping, window policy, WHERE and HAVING", "SELECT merchant,"
          + " HOP(event_time, INTERVAL 10 MINUTE, INTERVAL 20 MINUTE) AS w, count(*) AS n, sum(amount) AS total,"
          + " min(amount) AS lo, max(amount) AS hi, avg(amount) AS mean FROM stream WHERE amount > 5"
          + " GROUP BY merchant, HOP(event_time, INTERVAL 10 MINUTE, INTERVAL 20 MINUTE) HAVING count(*) > 1",
          List.of("--watermark-delay", "20 SECOND")),
      new Query("keyed sessions, event policy", "SELECT merchant, SESSION(event_time, INTERVAL 45 SECOND) AS s,"
          + " SESSION_END(event_time, INTERVAL 45 SECOND) AS e, max(event_time) AS last_event, count(*) AS n"
          + " FROM stream GROUP BY merchant, SESSION(event_time, INTERVAL 45 SECOND)",
          List.of("--watermark-delay", "30 SECOND", "--late-policy", "event")),
      new Query("global tumbling, window policy, no delay", "SELECT TUMBLE(event_time, INTERVAL 15 MINUTE),"
          + " TUMBLE_END(event_time, INTERVAL 15 MINUTE), count(*) AS n, count(DISTINCT merchant) AS merchants,"
          + " count(amount) AS amounts FROM stream GROUP BY TUMBLE(event_time, INTERVAL 15 MINUTE)", List.of()));

  /**
   * A stream of {@code n} rows: event times that mostly advance, one in ten behind by up to 20
   * minutes, and a few null times, malformed lines and missing amounts. Windows are wide (the
   * Direct runner's cost grows with the number of result windows, not with rows).
   */
  public static Path randomStream(Path dir, long seed, int n) {
    Random random = new Random(seed);
    String[] merchants = {"acme", "globex", "initech", "umbrella", "hooli"};
    long base = java.time.Instant.parse("2026-07-18T10:00:00Z").toEpochMilli();
    List<String> lines = new ArrayList<>();
    long clock = base;
    for (int i = 0; i < n; i++) {
      clock += random.nextInt(4000);
      long ts = random.nextInt(10) == 0 ? clock - random.nextInt(1_200_000) : clock;
      String time = io.eventtime.core.TimeText.format(ts);
      String merchant = merchants[random.nextInt(merchants.length)];
      int r = random.nextInt(200);
      if (r == 0) {
        lines.add("{\"merchant\":\"" + merchant + "\",\"amount\":1,\"event_time\":null}");
      } else if (r == 1) {
        lines.add("{\"merchant\":\"" + merchant + "\",\"amount\":");
      } else if (r == 2) {
        lines.add("{\"merchant\":\"" + merchant + "\",\"event_time\":\"" + time + "\"}");
      } else {
        lines.add("{\"merchant\":\"" + merchant + "\",\"amount\":" + random.nextInt(1000) + ",\"event_time\":\"" + time
            + "\"}");
      }
    }
    try {
      Path f = dir.resolve("stream.ndjson");
      Files.write(f, lines);
      return f;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Runs one query on local and on {@code runner}; returns the lines, asserting they are the same. */
  public static List<String> assertSameAsLocal(String runner, Path file, String sql, List<String> flags) {
    Cli local = run("local", file, sql, flags);
    Cli other = run(runner, file, sql, flags);
    assertThat(local.status()).as(String.join("\n", local.out())).isZero();
    assertThat(other.out()).as(runner + " vs local, stderr: " + other.err()).containsExactlyElementsOf(local.out());
    assertThat(other.status()).isZero();
    assertThat(other.err()).isEqualTo(local.err());
    return local.out();
  }

  private static Cli run(String runner, Path file, String sql, List<String> flags) {
    List<String> args = new ArrayList<>(List.of("--runner", runner, "--from", "file://" + file));
    args.addAll(flags);
    args.add(sql);
    return Cli.run(args.toArray(String[]::new));
  }

  /**
   * A {@code kafka://} topic read with {@code --until available} on local and on {@code runner}
   * (streaming, the live path): the seed page's examples from one partition (the file run's lines),
   * and the random stream's queries over one partition and over three (its lines dealt at random to
   * the partitions), each printing the local runner's lines. With three partitions stderr is not
   * compared: the local runner tells the first rejected rows in the order the partitions' records
   * came, the Beam runner by partition and offset. Each run has a {@code --kafka-group} of its own,
   * which is told the offsets read (no {@code --state}): every partition's end offset.
   */
  public static void checkKafka(String runner, Path dir, io.eventtime.testing.kafka.KafkaBroker broker)
      throws IOException {
    String seed = "seed_" + runner;
    broker.createTopic(seed, 1);
    broker.produce(seed, 0, SeedPage.EVENTS);
    for (SeedPage.Example e : SeedPage.RESULTS) {
      assertThat(assertKafkaSameAsLocal(runner, broker, seed, e.sql(), List.of("--table", "events"), true))
          .as(e.name()).containsExactlyElementsOf(e.lines());
    }
    List<String> lines = Files.readAllLines(randomStream(dir, 20261204L, 2000));
    String one = "stream1_" + runner;
    broker.createTopic(one, 1);
    broker.produce(one, 0, lines.toArray(String[]::new));
    String three = "stream3_" + runner;
    broker.createTopic(three, 3);
    Random random = new Random(4);
    List<List<String>> dealt = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
    lines.forEach(l -> dealt.get(random.nextInt(3)).add(l));
    for (int p = 0; p < 3; p++) {
      broker.produce(three, p, dealt.get(p).toArray(String[]::new));
    }
    for (Query q : RANDOM_STREAM_QUERIES) {
      List<String> flags = new ArrayList<>(q.flags());
      flags.addAll(List.of("--table", "stream"));
      assertThat(assertKafkaSameAsLocal(runner, broker, one, q.sql(), flags, true)).as(q.name()).hasSizeGreaterThan(5);
      assertThat(assertKafkaSameAsLocal(runner, broker, three, q.sql(), flags, false)).as(q.name()).hasSizeGreaterThan(5);
    }
  }

  private static final String B_SQL = "SELECT TUMBLE(ts, INTERVAL 10 MINUTE) AS window_start, count(*) AS events"
      + " FROM events GROUP BY TUMBLE(ts, INTERVAL 10 MINUTE)";

  /**
   * The contract's example B as two {@code --until available} runs over one topic with
   * {@code --state} and {@code --output}: exactly its rows in the file, with both runs on {@code
   * runner}, and with one run on the local runner and the other on {@code runner}, each way (the
   * runners store one format), though rows written after run 1's commit (as by a run killed then)
   * were in the file when run 2 started: it cuts the file back to the committed length.
   */
  public static void checkKafkaState(String runner, Path dir, io.eventtime.testing.kafka.KafkaBroker broker)
      throws IOException {
    List<List<String>> pairs = List.of(List.of(runner, runner), List.of("local", runner), List.of(runner, "local"));
    for (int i = 0; i < pairs.size(); i++) {
      String topic = "b_" + runner + "_" + i;
      broker.createTopic(topic, 1);
      Path state = dir.resolve("state-" + topic);
      Path output = dir.resolve("windows-" + topic + ".ndjson");
      String group = "group-" + topic;
      List<String> args = List.of("--from", "kafka://" + broker.bootstrapServers() + "/" + topic, "--table", "events",
          "--until", "available", "--state", state.toString(), "--output", output.toString(), "--kafka-group", group,
          "--watermark-delay", B.delay(), "--late-policy", B.policy(), B_SQL);
      broker.produce(topic, 0, bValues(B.run1().times()));
      Cli run1 = runOn(pairs.get(i).get(0), args);
      List<String> printed1 = bPrinted(B.run1().windows(), B.run1().stats());
      assertThat(run1.out()).as("run 1 on %s, stderr %s", pairs.get(i).get(0), run1.err())
          .containsExactly(printed1.get(printed1.size() - 1));
      // the group is told the stored next offset, for monitoring
      assertThat(broker.committedOffsets(group, topic).get(0)).as("the group's offset after run 1 on %s", pairs.get(i).get(0))
          .isEqualTo((long) B.run1().times().size());
      // as if a run had written rows after its last commit and then been killed: the next run cuts them off
      Files.writeString(output, "{\"window_start\":\"written after the commit", java.nio.file.StandardOpenOption.APPEND);
      broker.produce(topic, 0, bValues(B.run2().times()));
      Cli run2 = runOn(pairs.get(i).get(1), args);
      List<String> printed2 = bPrinted(B.run2().windows(), B.run2().stats());
      assertThat(run2.out()).as("run 2 on %s after run 1 on %s, stderr %s", pairs.get(i).get(1), pairs.get(i).get(0),
          run2.err()).containsExactly(printed2.get(printed2.size() - 1));
      List<String> windows = new ArrayList<>(printed1.subList(0, printed1.size() - 1));
      windows.addAll(printed2.subList(0, printed2.size() - 1));
      assertThat(Files.readAllLines(output)).as("--output after run 1 on %s and run 2 on %s", pairs.get(i).get(0),
          pairs.get(i).get(1)).containsExactlyElementsOf(windows);
      assertThat(broker.committedOffsets(group, topic).get(0)).as("the group's offset after run 2 on %s", pairs.get(i).get(1))
          .isEqualTo((long) B.run1().times().size() + B.run2().times().size());
    }
  }

  /**
   * Two {@code --until available} runs with {@code --state} over a 2-partition topic whose
   * partition 1 is empty in the first run: the state holds no offset for it, and the second run
   * reads it from its start; the runner prints what the local runner prints, run for run.
   */
  public static void checkKafkaStateWithAnEmptyPartition(String runner, Path dir,
      io.eventtime.testing.kafka.KafkaBroker broker) {
    List<List<String>> printed = new ArrayList<>();
    for (String on : List.of("local", runner)) {
      String topic = "empty_" + runner + "_" + on;
      broker.createTopic(topic, 2);
      List<String> args = List.of("--from", "kafka://" + broker.bootstrapServers() + "/" + topic, "--table", "events",
          "--until", "available", "--state", dir.resolve("state-" + topic).toString(), "--watermark-delay",
          B.delay(), "--late-policy", B.policy(), B_SQL);
      broker.produce(topic, 0, bValues(B.run1().times()));
      Cli run1 = runOn(on, args);
      broker.produce(topic, 1, bValues(B.run2().times()));
      Cli run2 = runOn(on, args);
      assertThat(run2.status()).as("run 2 on %s: %s %s", on, run2.out(), run2.err()).isZero();
      printed.add(run1.out());
      printed.add(run2.out());
    }
    assertThat(printed.get(2)).as("run 1 on %s", runner).containsExactlyElementsOf(printed.get(0));
    assertThat(printed.get(3)).as("run 2 on %s", runner).containsExactlyElementsOf(printed.get(1));
  }

  /**
   * The contract's example B as two runs over one topic on {@code runner} in child processes: the
   * first with {@code --until idle=2 SECOND}, which ends by itself once no record has come for that
   * long, the second without {@code --until}, ended by SIGTERM once its windows are printed. Each
   * window closed by the watermark is printed while the run goes on (read before the end), and the
   * end hands the windows still open to the state and prints the stats line, exit 0; exactly
   * example B's rows.
   */
  public static void checkKafkaStopped(String runner, Path dir, io.eventtime.testing.kafka.KafkaBroker broker)
      throws IOException, InterruptedException {
    String topic = "b_stopped_" + runner;
    broker.createTopic(topic, 1);
    List<String> args = List.of("--runner", runner, "--from", "kafka://" + broker.bootstrapServers() + "/" + topic,
        "--table", "events", "--state", dir.resolve("state-" + topic).toString(), "--watermark-delay", B.delay(),
        "--late-policy", B.policy(), B_SQL);
    broker.produce(topic, 0, bValues(B.run1().times()));
    List<String> untilIdle = new ArrayList<>(List.of("--until", "idle=2 SECOND"));
    untilIdle.addAll(args);
    assertStoppedRun(untilIdle, bPrinted(B.run1().windows(), B.run1().stats()), dir.resolve("run1.err"), false);
    broker.produce(topic, 0, bValues(B.run2().times()));
    assertStoppedRun(args, bPrinted(B.run2().windows(), B.run2().stats()), dir.resolve("run2.err"), true);
  }

  /**
   * A followed topic of three partitions on {@code runner} prints its window rows in the local
   * runner's order while the run goes on, not only at its end: the random stream dealt to the
   * partitions, read by a child process with {@code --state} until no record has come for 2 seconds,
   * prints exactly the lines of the local runner's {@code --until available} run with a state of its
   * own (the windows the watermark closed, in close order, then the stats line), though the key
   * buckets hand their rows on in bundles of their own.
   */
  public static void checkKafkaFollowedInCloseOrder(String runner, Path dir, io.eventtime.testing.kafka.KafkaBroker broker)
      throws IOException, InterruptedException {
    String topic = "followed_" + runner;
    broker.createTopic(topic, 3);
    produceDealt(broker, topic, Files.readAllLines(randomStream(dir, 20261206L, 2000)), new Random(6));
    Query q = RANDOM_STREAM_QUERIES.get(0);
    List<String> common = new ArrayList<>(List.of("--from", "kafka://" + broker.bootstrapServers() + "/" + topic,
        "--table", "stream"));
    common.addAll(q.flags());
    List<String> local = new ArrayList<>(common);
    local.addAll(List.of("--until", "available", "--state", dir.resolve("state-local").toString(), q.sql()));
    Cli once = Cli.run(local.toArray(String[]::new));
    assertThat(once.status()).as(once.err()).isZero();
    assertThat(once.out()).as("window rows before the stats line").hasSizeGreaterThan(20);
    List<String> followed = new ArrayList<>(List.of("--runner", runner, "--until", "idle=2 SECOND"));
    followed.addAll(common);
    followed.addAll(List.of("--state", dir.resolve("state-" + runner).toString(), q.sql()));
    assertStoppedRun(followed, once.out(), dir.resolve("followed.err"), false);
  }

  /**
   * Exactly once across {@code kill -9} on {@code runner}: a random stream in a topic of three
   * partitions is read with {@code --until available}, {@code --state}, {@code --output} and
   * {@code --late-output}: a first run over its first half runs to its end (it stores a state and
   * the files' lengths); over the second half, runs are killed (SIGKILL) at random points of the
   * output's growth, then one runs to its end. The files are then exactly those of the local
   * runner's two uninterrupted runs (the late rows in any order: they come in the order the
   * partitions interleave). A Beam run stores its state when its job ends, so each killed run
   * leaves rows past the stored lengths, which the next run must cut off.
   */
  public static void checkKafkaKilled(String runner, Path dir, io.eventtime.testing.kafka.KafkaBroker broker)
      throws IOException, InterruptedException {
    String topic = "killed_" + runner;
    broker.createTopic(topic, 3);
    Random random = new Random(20261205L);
    List<String> lines = Files.readAllLines(randomStream(dir, 20261205L, 2000));
    Query q = RANDOM_STREAM_QUERIES.get(0);
    List<String> common = new ArrayList<>(List.of("--from", "kafka://" + broker.bootstrapServers() + "/" + topic,
        "--table", "stream", "--until", "available"));
    common.addAll(q.flags());
    Path once = dir.resolve("once.ndjson");
    Path lateOnce = dir.resolve("late-once.ndjson");
    List<String> uninterrupted = new ArrayList<>(common);
    uninterrupted.addAll(List.of("--state", dir.resolve("state-once").toString(), "--output", once.toString(),
        "--late-output", lateOnce.toString(), q.sql()));
    Path twice = dir.resolve("twice.ndjson");
    Path lateTwice = dir.resolve("late-twice.ndjson");
    List<String> args = new ArrayList<>(List.of("--runner", runner));
    args.addAll(common);
    args.addAll(List.of("--state", dir.resolve("state-killed").toString(), "--output", twice.toString(),
        "--late-output", lateTwice.toString(), q.sql()));

    produceDealt(broker, topic, lines.subList(0, lines.size() / 2), random);
    Cli local1 = Cli.run(uninterrupted.toArray(String[]::new));
    assertThat(local1.status()).as(local1.err()).isZero();
    Cli first = Cli.run(args.toArray(String[]::new));
    assertThat(first.status()).as(first.err()).isZero();
    produceDealt(broker, topic, lines.subList(lines.size() / 2, lines.size()), random);
    Cli local2 = Cli.run(uninterrupted.toArray(String[]::new));
    assertThat(local2.status()).as(local2.err()).isZero();

    long stored = Files.size(twice);
    long full = Files.size(once);
    int killed = 0;
    for (int round = 0; round < 2; round++) {
      long killAt = stored + 1 + (long) (random.nextDouble() * Math.max(1, full - stored - 1));
      Process p = ChildCommand.start(args, ProcessBuilder.Redirect.DISCARD);
      try {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.MINUTES.toNanos(3);
        while (p.isAlive() && Files.size(twice) < killAt) {
          assertThat(System.nanoTime()).as("round %s reaches %s bytes of output", round, killAt).isLessThan(deadline);
          Thread.sleep(1);
        }
        if (p.isAlive()) {
          p.destroyForcibly(); // SIGKILL: no hook runs
          killed++;
        }
        assertThat(p.waitFor(1, java.util.concurrent.TimeUnit.MINUTES)).isTrue();
      } finally {
        p.destroyForcibly();
      }
    }
    Process last = ChildCommand.start(args, ProcessBuilder.Redirect.DISCARD);
    try {
      assertThat(last.waitFor(3, java.util.concurrent.TimeUnit.MINUTES)).isTrue();
      assertThat(last.exitValue()).isZero();
    } finally {
      last.destroyForcibly();
    }
    assertThat(killed).as("kills that landed while the run was going").isPositive();
    assertThat(Files.readString(twice)).isEqualTo(Files.readString(once)).isNotEmpty();
    assertThat(Files.readAllLines(lateTwice).stream().sorted().toList())
        .isEqualTo(Files.readAllLines(lateOnce).stream().sorted().toList()).isNotEmpty();
  }

  /** Produces {@code lines} into the topic's three partitions, each line to one at random. */
  private static void produceDealt(io.eventtime.testing.kafka.KafkaBroker broker, String topic, List<String> lines,
      Random random) {
    List<List<String>> dealt = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
    lines.forEach(l -> dealt.get(random.nextInt(3)).add(l));
    for (int p = 0; p < 3; p++) {
      broker.produce(topic, p, dealt.get(p).toArray(String[]::new));
    }
  }

  /**
   * Runs the command until its window rows (all of {@code printed} but the last, the stats line) are
   * out, in that order, then stops it with SIGTERM ({@code signal}) or lets it end by itself.
   */
  private static void assertStoppedRun(List<String> args, List<String> printed, Path err, boolean signal)
      throws IOException, InterruptedException {
    Process p = ChildCommand.start(args, ProcessBuilder.Redirect.to(err.toFile()), "-Xmx1g");
    try {
      java.util.concurrent.BlockingQueue<String> lines = ChildCommand.lines(p);
      List<String> windows = printed.subList(0, printed.size() - 1);
      List<String> seen = new ArrayList<>();
      while (seen.size() < windows.size()) {
        String line = lines.poll(3, java.util.concurrent.TimeUnit.MINUTES);
        assertThat(line).as("a window row while the run goes on; seen %s; stderr %s", seen, Files.readString(err))
            .isNotNull();
        seen.add(line);
      }
      assertThat(seen).containsExactlyElementsOf(windows);
      if (signal) {
        // SIGTERM by kill(1): Process.destroy() would also close the pipe the stats line comes through
        assertThat(new ProcessBuilder("kill", "-TERM", String.valueOf(p.pid())).start().waitFor()).isZero();
      }
      assertThat(p.waitFor(3, java.util.concurrent.TimeUnit.MINUTES)).isTrue();
      assertThat(p.exitValue()).as(Files.readString(err)).isZero();
      // the stats line, and nothing after it (the reader thread may still be reading the ended process's pipe)
      assertThat(lines.poll(1, java.util.concurrent.TimeUnit.MINUTES)).as(Files.readString(err))
          .isEqualTo(printed.get(printed.size() - 1));
      assertThat(lines.poll(1, java.util.concurrent.TimeUnit.SECONDS)).isNull();
    } finally {
      p.destroyForcibly();
    }
  }

  private static Cli runOn(String runner, List<String> args) {
    List<String> all = new ArrayList<>(List.of("--runner", runner));
    all.addAll(args);
    return Cli.run(all.toArray(String[]::new));
  }

  /** Example B's event times as the topic's values. */
  static String[] bValues(List<String> times) {
    return times.stream().map(t -> "{\"ts\":\"" + t + "\"}").toArray(String[]::new);
  }

  /** What the command prints for example B's windows and stats. */
  static List<String> bPrinted(List<WorkedExamples.Window> windows, Stats stats) {
    List<String> lines = new ArrayList<>(windows.stream()
        .map(w -> "{\"window_start\":\"" + w.start() + "\",\"events\":" + w.count() + "}").toList());
    lines.add(Cli.stats(stats.rowsIn(), stats.rowsOut(), stats.lateDropped(), stats.windowsClosed(),
        stats.rowsFolded(), stats.rowsRejected()));
    return lines;
  }

  private static List<String> assertKafkaSameAsLocal(String runner, io.eventtime.testing.kafka.KafkaBroker broker,
      String topic, String sql, List<String> flags, boolean sameStderr) {
    List<String> args = new ArrayList<>(List.of("--from", "kafka://" + broker.bootstrapServers() + "/" + topic,
        "--until", "available"));
    args.addAll(flags);
    args.add(sql);
    Cli local = Cli.run(withGroup(args, topic + "-local").toArray(String[]::new));
    args.addAll(0, List.of("--runner", runner));
    Cli other = Cli.run(withGroup(args, topic + "-" + runner).toArray(String[]::new));
    assertThat(local.status()).as(String.join("\n", local.out()) + local.err()).isZero();
    assertThat(other.out()).as(runner + " vs local on " + topic + ", stderr: " + other.err())
        .containsExactlyElementsOf(local.out());
    assertThat(other.status()).isZero();
    // without --state the group is told the offsets read, for monitoring: here every partition to its end
    assertThat(broker.committedOffsets(topic + "-local", topic)).isEqualTo(broker.endOffsets(topic));
    assertThat(broker.committedOffsets(topic + "-" + runner, topic)).isEqualTo(broker.endOffsets(topic));
    if (sameStderr) {
      assertThat(other.err()).isEqualTo(local.err());
    }
    return local.out();
  }

  private static List<String> withGroup(List<String> args, String group) {
    List<String> with = new ArrayList<>(List.of("--kafka-group", group));
    with.addAll(args);
    return with;
  }

  /** The seed page's examples and the random stream's queries, each on local and on {@code runner}. */
  public static void checkAll(String runner, Path dir) throws IOException {
    Path events = Cli.write(Files.createDirectories(dir.resolve("seed")), "events.ndjson", SeedPage.EVENTS);
    for (SeedPage.Example e : SeedPage.RESULTS) {
      assertThat(assertSameAsLocal(runner, events, e.sql(), List.of())).as(e.name()).containsExactlyElementsOf(e.lines());
    }
    Path stream = randomStream(dir, 20260718L, 3000);
    for (Query q : RANDOM_STREAM_QUERIES) {
      List<String> out = assertSameAsLocal(runner, stream, q.sql(), q.flags());
      assertThat(out).as(q.name()).hasSizeGreaterThan(5);
    }
  }
}
