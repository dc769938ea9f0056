package io.eventtime.cli.bench;

import io.eventtime.testing.kafka.KafkaBroker;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The two JVMs of the Kafka-beside-a-file benchmark (scripts/bench-kafka-vs-file.sh), so that the
 * command's process time is its own, not the broker's.
 *
 * <pre>
 * java -cp ... io.eventtime.cli.bench.KafkaTopics serve FILE WORK   # the broker: topics "one" (1 partition) and
 *     # "three" (3) hold the file's lines; writes WORK/broker.properties, ends once WORK/stop exists
 * java -cp ... io.eventtime.cli.bench.KafkaTopics consume SERVERS TOPIC   # a bare consumer: every record once
 * </pre>
 */
public final class KafkaTopics {
  private static final int CHUNK = 50_000;

  private KafkaTopics() {}

  public static void main(String[] args) throws IOException, InterruptedException {
    if (args[0].equals("serve")) {
      serve(Path.of(args[1]), Path.of(args[2]));
    } else {
      System.out.println(consume(args[1], args[2]) + " records");
    }
  }

  private static void serve(Path file, Path work) throws IOException, InterruptedException {
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    try (KafkaBroker broker = KafkaBroker.start()) {
      broker.createTopic("one", 1);
      broker.createTopic("three", 3);
      for (int from = 0; from < lines.size(); from += CHUNK) {
        String[] chunk = lines.subList(from, Math.min(lines.size(), from + CHUNK)).toArray(String[]::new);
        broker.produce("one", 0, chunk);
        broker.produce("three", (from / CHUNK) % 3, chunk); // the file's order, dealt out in chunks
      }
      Files.writeString(work.resolve("broker.properties"), "bootstrap.servers=" + broker.bootstrapServers() + "\n"
          + "rows=" + lines.size() + "\n");
      Path stop = work.resolve("stop");
      while (!Files.exists(stop)) {
        Thread.sleep(200);
      }
    }
  }

  /** Polls every partition of {@code topic} from its first offset to the end it has now: the floor of a Kafka run. */
  private static long consume(String servers, String topic) {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, servers);
    p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "2000"); // as the command's consumer
    try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      List<TopicPartition> partitions = new ArrayList<>();
      for (PartitionInfo info : c.partitionsFor(topic)) {
        partitions.add(new TopicPartition(topic, info.partition()));
      }
      c.assign(partitions);
      c.seekToBeginning(partitions);
      Map<TopicPartition, Long> ends = c.endOffsets(partitions);
      long records = 0;
      long bytes = 0;
      while (partitions.stream().anyMatch(tp -> c.position(tp) < ends.get(tp))) {
        for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) {
          records++;
          bytes += r.value().length;
        }
      }
      if (bytes == 0) {
        throw new IllegalStateException("topic " + topic + " holds no bytes");
      }
      return records;
    }
  }
}
