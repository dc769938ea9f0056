package io.eventtime.cli.bench;

import io.eventtime.cli.Main;
import io.eventtime.testing.kafka.KafkaBroker;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The local runner over a Kafka topic of 1 and of 3 partitions beside the same rows from a file
 * (issue 12's benchmark): each read with the seed page's tumbling query, {@code --until available}
 * for the topics, taking the best of a few rounds, printed as ratios to the file's time.
 *
 * <pre>java -cp ... io.eventtime.cli.bench.KafkaVsFile 1000000 3</pre>
 */
public final class KafkaVsFile {
  private static final String SQL = "SELECT merchant, TUMBLE(event_time, INTERVAL 1 MINUTE) AS w, count(*) AS n,"
      + " sum(amount) AS total FROM events GROUP BY merchant, TUMBLE(event_time, INTERVAL 1 MINUTE)";

  private KafkaVsFile() {}

  public static void main(String[] args) throws IOException {
    int rows = Integer.parseInt(args[0]);
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    List<String> lines = lines(rows);
    Path file = Files.createTempFile("eventtime-bench-", ".ndjson");
    Files.write(file, lines, StandardCharsets.UTF_8);
    try (KafkaBroker broker = KafkaBroker.start()) {
      broker.createTopic("one", 1);
      broker.createTopic("three", 3);
      for (int from = 0; from < rows; from += 50_000) {
        String[] chunk = lines.subList(from, Math.min(rows, from + 50_000)).toArray(String[]::new);
        broker.produce("one", 0, chunk);
        broker.produce("three", (from / 50_000) % 3, chunk);
      }
      List<String> options = new ArrayList<>();
      for (String o : System.getProperty("eventtime.bench.kafka.options", "").split(" ")) {
        if (!o.isBlank()) {
          options.addAll(List.of("--kafka-option", o));
        }
      }
      String[][] runs = {
          {"--from", file.toString(), "--table", "events", SQL},
          kafka(broker, "one", options),
          kafka(broker, "three", options)};
      long[] best = new long[runs.length];
      Arrays.fill(best, Long.MAX_VALUE);
      for (int r = 0; r < rounds; r++) {
        for (int i = 0; i < runs.length; i++) {
          best[i] = Math.min(best[i], time(runs[i]));
        }
      }
      long raw = Long.MAX_VALUE;
      for (int r = 0; r < rounds; r++) {
        raw = Math.min(raw, rawPoll(broker, rows));
      }
      System.out.printf("a bare consumer polling the 1-partition topic: %d ms%n", raw / 1_000_000);
      System.out.printf("rows %d: file %d ms; kafka 1 partition %d ms (%.2fx); kafka 3 partitions %d ms (%.2fx)%n", rows,
          best[0] / 1_000_000, best[1] / 1_000_000, (double) best[1] / best[0], best[2] / 1_000_000,
          (double) best[2] / best[0]);
    } finally {
      Files.deleteIfExists(file);
    }
  }

  private static String[] kafka(KafkaBroker broker, String topic, List<String> options) {
    List<String> args = new ArrayList<>(List.of("--from", "kafka://" + broker.bootstrapServers() + "/" + topic, "--table",
        "events", "--until", "available"));
    args.addAll(options);
    args.add(SQL);
    return args.toArray(String[]::new);
  }

  /** How long a consumer alone takes to poll every record of topic "one": the floor of a Kafka run. */
  private static long rawPoll(KafkaBroker broker, int rows) {
    java.util.Properties p = new java.util.Properties();
    p.put("bootstrap.servers", broker.bootstrapServers());
    p.put("isolation.level", "read_committed");
    p.put("max.poll.records", "2000");
    long start = System.nanoTime();
    try (org.apache.kafka.clients.consumer.KafkaConsumer<byte[], byte[]> c = new org.apache.kafka.clients.consumer.KafkaConsumer<>(
        p, new org.apache.kafka.common.serialization.ByteArrayDeserializer(),
        new org.apache.kafka.common.serialization.ByteArrayDeserializer())) {
      org.apache.kafka.common.TopicPartition tp = new org.apache.kafka.common.TopicPartition("one", 0);
      c.assign(List.of(tp));
      c.seekToBeginning(List.of(tp));
      long n = 0;
      long bytes = 0;
      while (n < rows) {
        for (var r : c.poll(java.time.Duration.ofMillis(200))) {
          n++;
          bytes += r.value().length;
        }
      }
      if (bytes == 0) {
        throw new IllegalStateException("no bytes");
      }
    }
    return System.nanoTime() - start;
  }

  private static long time(String[] args) {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    long start = System.nanoTime();
    int status = Main.run(args, OutputStream.nullOutputStream(), new PrintStream(err, true, StandardCharsets.UTF_8));
    long took = System.nanoTime() - start;
    if (status != 0) {
      throw new IllegalStateException("the run failed: " + err.toString(StandardCharsets.UTF_8));
    }
    return took;
  }

  /** Seed-page-shaped rows: 1,000 merchants, times about 20 ms apart, one in twenty up to 10 minutes behind. */
  private static List<String> lines(int rows) {
    SplittableRandom random = new SplittableRandom(20260718L);
    DateTimeFormatter format = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");
    long clock = LocalDateTime.of(2026, 7, 18, 0, 0).toInstant(ZoneOffset.UTC).toEpochMilli();
    List<String> lines = new ArrayList<>(rows);
    for (int i = 0; i < rows; i++) {
      clock += random.nextInt(40);
      long ts = random.nextInt(20) == 0 ? clock - random.nextInt(600_000) : clock;
      lines.add("{\"merchant\":\"m" + random.nextInt(1000) + "\",\"amount\":" + random.nextInt(1000) + ",\"event_time\":\""
          + format.format(LocalDateTime.ofEpochSecond(ts / 1000, 0, ZoneOffset.UTC)) + "\"}");
    }
    return lines;
  }
}
