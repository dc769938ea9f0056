package io.eventtime.cli;

import static io.eventtime.core.contract.WorkedExamples.B;
import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.core.AggregateKind;
import io.eventtime.core.AggregateSpec;
import io.eventtime.core.Key;
import io.eventtime.core.LatePolicy;
import io.eventtime.core.PartitionedWindowProcessor;
import io.eventtime.core.Stats;
import io.eventtime.core.TimeText;
import io.eventtime.core.WindowQuery;
import io.eventtime.core.WindowResult;
import io.eventtime.core.WindowSpec;
import io.eventtime.core.contract.WorkedExamples;
import io.eventtime.testing.kafka.KafkaBroker;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code --from kafka://}: the local runner over a real broker's topics (design 4.2, issue 12). */
class KafkaSourceTest {
  private static final long T0 = WorkedExamples.millis("2026-07-18 10:00:00");
  private static final String RANDOM_SQL = "SELECT k, TUMBLE(ts, INTERVAL 10 SECOND) AS w, count(*) AS n, sum(v) AS total"
      + " FROM t GROUP BY k, TUMBLE(ts, INTERVAL 10 SECOND)";
  private static final String B_SQL = "SELECT TUMBLE(ts, INTERVAL 10 MINUTE) AS window_start, count(*) AS events"
      + " FROM events GROUP BY TUMBLE(ts, INTERVAL 10 MINUTE)";
  private static KafkaBroker broker;
  private static int topics;

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

  private static String topic(String name, int partitions) {
    String topic = name + "_" + topics++;
    broker.createTopic(topic, partitions);
    return topic;
  }

  private static String uri(String topic) {
    return "kafka://" + broker.bootstrapServers() + "/" + topic;
  }

  private static Cli run(String topic, String... more) {
    List<String> args = new ArrayList<>(List.of("--from", uri(topic)));
    args.addAll(List.of(more));
    return Cli.run(args.toArray(String[]::new));
  }

  static Stream<SeedPage.Example> seedExamples() {
    return SeedPage.RESULTS.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("seedExamples")
  void seedPageExamplesFromOnePartitionEqualTheFileRun(SeedPage.Example example) {
    String topic = topic("seed", 1);
    broker.produce(topic, 0, SeedPage.EVENTS);
    Cli file = Cli.run("--from", Cli.write(dir, "events.ndjson", SeedPage.EVENTS).toString(), example.sql());

    Cli kafka = run(topic, "--table", "events", "--until", "available", example.sql());

    assertThat(kafka.out()).containsExactlyElementsOf(example.lines()).isEqualTo(file.out());
    assertThat(kafka.status()).isZero();
    assertThat(kafka.err()).isEmpty();
  }

  @Test
  void exampleB_asTwoRunsOverOneTopicWithState_givesExactlyItsRows() {
    String topic = topic("b", 1);
    Path state = dir.resolve("state");
    String[] args = {"--table", "events", "--until", "available", "--state", state.toString(), "--watermark-delay",
        B.delay(), "--late-policy", B.policy(), B_SQL};

    broker.produce(topic, 0, RunnerAgreement.bValues(B.run1().times()));
    Cli run1 = run(topic, args);
    assertThat(run1.out()).isEqualTo(RunnerAgreement.bPrinted(B.run1().windows(), B.run1().stats()));

    broker.produce(topic, 0, RunnerAgreement.bValues(B.run2().times()));
    Cli run2 = run(topic, args);
    assertThat(run2.out()).isEqualTo(RunnerAgreement.bPrinted(B.run2().windows(), B.run2().stats()));
    assertThat(run2.err()).isEmpty();

    // a run with nothing new emits nothing and reads nothing again
    Cli run3 = run(topic, args);
    assertThat(run3.out()).containsExactly(Cli.stats(0, 0, 0, 0, 0, 0));
  }

  @Test
  void threePartitions_giveThePartitionedProcessorsAnswer() {
    String topic = topic("three", 3);
    List<List<Row>> partitions = randomPartitions(new Random(7), 3, 60);
    produce(topic, partitions);

    Cli run = run(topic, "--table", "t", "--watermark-delay", "2 SECOND", "--until", "available", RANDOM_SQL);

    assertThat(run.status()).isZero();
    assertThat(run.out()).isEqualTo(expected(partitions));
  }

  @Test
  void untilIdle_stopsOnceNoRecordCameForThatLong_andDrainsAsUntilAvailable() {
    String topic = topic("idle", 3);
    produce(topic, randomPartitions(new Random(3), 3, 40));
    Cli available = run(topic, "--table", "t", "--watermark-delay", "2 SECOND", "--until", "available", RANDOM_SQL);

    long started = System.nanoTime();
    Cli idle = run(topic, "--table", "t", "--watermark-delay", "2 SECOND", "--until", "idle=1 SECOND", RANDOM_SQL);

    assertThat(idle.status()).isZero();
    assertThat(idle.out()).isEqualTo(available.out()).hasSizeGreaterThan(1);
    assertThat(System.nanoTime() - started).isGreaterThanOrEqualTo(1_000_000_000L);
    assertThat(run(topic, "--until", "idle=0 SECOND", RANDOM_SQL).out()).containsExactly(Cli.error("INVALID_ARGUMENT",
        "--until idle=0 SECOND: '0 SECOND' is not a positive duration: e.g. --until 'idle=30 SECOND'"));
  }

  @Test
  void aRecordThatCannotBeReadIsRejectedWithItsPartitionAndOffset_andTheRunGoesOn() throws IOException {
    String topic = topic("bad", 2);
    broker.produce(topic, 0, "{\"k\":\"a\",\"ts\":\"2026-07-18 10:00:01\",\"v\":1}", "{\"k\":\"a\",\"ts\":");
    byte[] notUtf8 = "{\"k\":\"#\",\"ts\":\"2026-07-18 10:00:03\",\"v\":1}".getBytes(StandardCharsets.UTF_8);
    notUtf8[6] = (byte) 0xff; // the key's one character
    broker.produce(topic, 1, notUtf8, null);
    broker.produce(topic, 1, "{\"k\":\"b\",\"v\":2}", "{\"k\":\"b\",\"ts\":\"2026-07-18 10:00:02\",\"v\":3}");
    java.io.ByteArrayOutputStream gzipped = new java.io.ByteArrayOutputStream();
    try (java.util.zip.GZIPOutputStream gz = new java.util.zip.GZIPOutputStream(gzipped)) {
      gz.write("{\"k\":\"a\",\"ts\":\"2026-07-18 10:00:04\",\"v\":1}".getBytes(StandardCharsets.UTF_8));
    }
    broker.produce(topic, 0, new byte[][] {gzipped.toByteArray()});
    Path rejected = dir.resolve("rejected.ndjson");

    Cli run = run(topic, "--table", "t", "--until", "available", "--rejected-output", rejected.toString(), RANDOM_SQL);

    assertThat(run.out()).containsExactly(
        "{\"k\":\"a\",\"w\":\"2026-07-18 10:00:00\",\"n\":1,\"total\":1}",
        "{\"k\":\"b\",\"w\":\"2026-07-18 10:00:00\",\"n\":1,\"total\":3}",
        Cli.stats(7, 2, 0, 1, 2, 5));
    // in the order the partitions' records came: by partition and offset here
    List<String> lines = Files.readAllLines(rejected, StandardCharsets.UTF_8).stream().sorted().toList();
    String source = "\"source\":\"" + uri(topic) + "\"";
    assertThat(lines).hasSize(5);
    assertThat(lines.get(0)).startsWith("{" + source + ",\"partition\":0,\"offset\":1,\"reason\":\"");
    // a compressed value is named as such, as by every Kafka reader
    assertThat(lines.get(1)).startsWith("{" + source + ",\"partition\":0,\"offset\":2,\"reason\":\"the value is not"
        + " UTF-8 text: it is gzip-compressed (it starts with gzip's magic bytes), not UTF-8 text: decompress it first,"
        + " e.g. with gzip -dc\"");
    assertThat(lines.get(2)).startsWith("{" + source + ",\"partition\":1,\"offset\":0,\"reason\":\"");
    assertThat(lines.get(2)).contains("\"reason\":\"the value is not UTF-8 text (0xff at byte 7 of the value)\"");
    assertThat(lines.get(3)).isEqualTo("{" + source + ",\"partition\":1,\"offset\":1,\"reason\":\"the record has no value\","
        + "\"text\":\"\"}");
    assertThat(lines.get(4)).startsWith("{" + source + ",\"partition\":1,\"offset\":2,\"field\":\"ts\",\"reason\":\"");
    assertThat(run.err()).contains("eventtime: rejected offset 1 of partition 0 of " + uri(topic));
  }

  @Test
  void aRestartAfterAStoredStateEmitsNoWindowTwice() throws IOException {
    Random random = new Random(11);
    List<List<Row>> partitions = randomPartitions(random, 3, 90);
    String whole = topic("whole", 3);
    produce(whole, partitions);
    Path once = dir.resolve("once.ndjson");
    Cli uninterrupted = run(whole, "--table", "t", "--watermark-delay", "2 SECOND", "--until", "available",
        "--state", dir.resolve("state-once").toString(), "--output", once.toString(), RANDOM_SQL);
    assertThat(uninterrupted.status()).isZero();

    String cut = topic("cut", 3);
    Path twice = dir.resolve("twice.ndjson");
    String[] args = {"--table", "t", "--watermark-delay", "2 SECOND", "--until", "available", "--state",
        dir.resolve("state-cut").toString(), "--output", twice.toString(), RANDOM_SQL};
    List<List<Row>> first = new ArrayList<>();
    List<List<Row>> rest = new ArrayList<>();
    for (List<Row> p : partitions) {
      int at = random.nextInt(p.size() + 1);
      first.add(p.subList(0, at));
      rest.add(p.subList(at, p.size()));
    }
    produce(cut, first);
    Cli run1 = run(cut, args);
    produce(cut, rest);
    Cli run2 = run(cut, args);

    assertThat(run1.status()).isZero();
    assertThat(run2.status()).isZero();
    assertThat(Files.readString(twice)).isEqualTo(Files.readString(once)).isNotEmpty();
    assertThat(run1.out()).hasSize(1);
    Stats s1 = stats(run1.last());
    Stats s2 = stats(run2.last());
    assertThat(new long[] {s1.rowsIn() + s2.rowsIn(), s1.rowsOut() + s2.rowsOut(), s1.lateDropped() + s2.lateDropped()})
        .containsExactly(stats(uninterrupted.last()).rowsIn(), stats(uninterrupted.last()).rowsOut(),
            stats(uninterrupted.last()).lateDropped());
  }

  @Test
  void aBrokerThatNeverAnswersIsAClearErrorWithinTheTimeout() {
    long started = System.nanoTime();
    Cli run = Cli.run("--from", "kafka://127.0.0.1:1/orders", "--kafka-option", "default.api.timeout.ms=2000",
        "--until", "available", "SELECT count(*) AS n FROM orders GROUP BY TUMBLE(ts, INTERVAL 1 MINUTE)");
    assertThat(run.out()).containsExactly(Cli.error("UNREADABLE_SOURCE", "cannot read kafka://127.0.0.1:1/orders: the"
        + " Kafka broker at 127.0.0.1:1 gave no answer within 2 s when asked for the partitions of topic orders: check"
        + " the address and that the broker runs (--kafka-option default.api.timeout.ms=MILLIS waits longer)"));
    assertThat(System.nanoTime() - started).isLessThan(20_000_000_000L);
  }

  @Test
  void refusesKafkaFlagsWithFilesAndWhatABeamRunnerDoesNotOfferWithKafka() {
    Path file = Cli.write(dir, "events.ndjson", SeedPage.EVENTS);
    assertThat(Cli.run("--from", file.toString(), "--until", "available", B_SQL).out()).containsExactly(
        Cli.error("INVALID_ARGUMENT", "--until goes with a Kafka source, --from kafka://HOST:PORT/TOPIC; files are read"
            + " to their end"));
    String topic = "kafka://127.0.0.1:9092/orders";
    assertThat(Cli.run("--from", topic, "--runner", "spark", B_SQL).out()).containsExactly(
        Cli.error("INVALID_ARGUMENT", "--runner spark cannot read --from " + topic + ": a Kafka topic is read as a live"
            + " stream, whose windows need event-time timers, which Beam's Spark runner does not run in streaming mode"
            + " (Beam 2.62); use --runner local (the default), flink or direct"));
    assertThat(Cli.run("--from", topic, "--runner", "flink", "--until", "available", "--flink-master", "jm:8081",
        B_SQL).out()).containsExactly(
        Cli.error("INVALID_ARGUMENT", "--flink-master with --from " + topic + " is not offered yet: the command reads"
            + " the job's rows from files on this machine, so the job runs on embedded Flink (drop --flink-master)"));
    assertThat(Cli.run("--from", "kafka://127.0.0.1:9092/orders", "--until", "idle", B_SQL).status()).isEqualTo(2);
    assertThat(Cli.run("--from", "kafka://127.0.0.1:9092", B_SQL).out()).containsExactly(
        Cli.error("INVALID_ARGUMENT", "--from kafka://127.0.0.1:9092 names no topic: write kafka://127.0.0.1:9092/orders"));
  }

  // ---- helpers

  /** One row of the random streams: key, event time, value. */
  private record Row(String key, long ts, long v) {
    String json() {
      return "{\"k\":\"" + key + "\",\"ts\":\"" + TimeText.format(ts) + "\",\"v\":" + v + "}";
    }
  }

  /** Rows whose times mostly rise, with some behind: late against their partition's watermark. */
  private static List<List<Row>> randomPartitions(Random r, int partitions, int rows) {
    List<List<Row>> all = new ArrayList<>();
    for (int p = 0; p < partitions; p++) {
      List<Row> rowsOf = new ArrayList<>();
      long t = T0 + r.nextInt(5_000);
      for (int i = 0; i < rows; i++) {
        t += r.nextInt(1_500);
        long ts = r.nextInt(8) == 0 ? t - r.nextInt(6_000) : t;
        rowsOf.add(new Row(String.valueOf((char) ('a' + r.nextInt(3))), ts, r.nextInt(100)));
      }
      all.add(rowsOf);
    }
    return all;
  }

  private static void produce(String topic, List<List<Row>> partitions) {
    for (int p = 0; p < partitions.size(); p++) {
      if (!partitions.get(p).isEmpty()) {
        broker.produce(topic, p, partitions.get(p).stream().map(Row::json).toArray(String[]::new));
      }
    }
  }

  /** What core's processor gives for the partitions' rows, as the command prints it. */
  private static List<String> expected(List<List<Row>> partitions) {
    WindowQuery query = WindowQuery.of(WindowSpec.tumbling(10_000)).withKeys("k").withDelay(2_000)
        .withLatePolicy(LatePolicy.WINDOW)
        .withAggregates(AggregateSpec.countAll("n"), AggregateSpec.of(AggregateKind.SUM, "v", "total"));
    List<String> lines = new ArrayList<>();
    PartitionedWindowProcessor p = new PartitionedWindowProcessor(query, partitions.size(),
        (WindowResult w) -> lines.add("{\"k\":\"" + w.key().get(0) + "\",\"w\":\"" + TimeText.format(w.start())
            + "\",\"n\":" + w.values()[0] + ",\"total\":" + w.values()[1] + "}"));
    int[] next = new int[partitions.size()];
    boolean more = true;
    while (more) { // the partitions interleaved one row each: the answer does not depend on it
      more = false;
      for (int q = 0; q < partitions.size(); q++) {
        if (next[q] < partitions.get(q).size()) {
          Row row = partitions.get(q).get(next[q]++);
          p.process(q, Key.of(row.key()), row.ts(), new Object[] {null, row.v()});
          more = true;
        }
      }
    }
    p.finish();
    Stats s = p.stats();
    lines.add(Cli.stats(s.rowsIn(), s.rowsOut(), s.lateDropped(), s.windowsClosed(), s.rowsFolded(), s.rowsRejected()));
    return lines;
  }

  private static Stats stats(String line) {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\d+").matcher(line);
    long[] v = new long[6];
    for (int i = 0; i < 6 && m.find(); i++) {
      v[i] = Long.parseLong(m.group());
    }
    return new Stats(v[0], v[1], v[2], v[3], v[4], v[5]);
  }
}
