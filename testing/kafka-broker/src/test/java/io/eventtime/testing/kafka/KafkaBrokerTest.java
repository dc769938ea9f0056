package io.eventtime.testing.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class KafkaBrokerTest {
  /** One broker for the class: a start takes seconds. */
  private static final KafkaBroker broker = KafkaBroker.start();

  @AfterAll
  static void closeBroker() {
    broker.close();
  }

  @Test
  void recordsProducedToThreePartitionsAreReadBackWithTheirOffsets() {
    broker.createTopic("three", 3);
    assertThat(broker.produce("three", 0, "a0", "a1")).containsExactly(0L, 1L);
    assertThat(broker.produce("three", 2, "c0")).containsExactly(0L);
    assertThat(broker.produce("three", 0, "a2")).containsExactly(2L);

    assertThat(broker.endOffsets("three")).isEqualTo(Map.of(0, 3L, 1, 0L, 2, 1L));
    assertThat(consumeAll("three", 3, 4)).containsExactly("0@0=a0", "0@1=a1", "0@2=a2", "2@0=c0");
  }

  @Test
  void bytesGoAsTheyAre() {
    broker.createTopic("bytes", 1);
    byte[] notUtf8 = {(byte) 0xC3, (byte) 0x28};
    assertThat(broker.produce("bytes", 0, notUtf8)).containsExactly(0L);
    List<byte[]> values = new ArrayList<>();
    try (KafkaConsumer<byte[], byte[]> consumer = consumer()) {
      consumer.assign(List.of(new TopicPartition("bytes", 0)));
      consumer.seekToBeginning(consumer.assignment());
      while (values.isEmpty()) {
        consumer.poll(Duration.ofMillis(200)).forEach(r -> values.add(r.value()));
      }
    }
    assertThat(values.get(0)).containsExactly(0xC3, 0x28);
  }

  @Test
  void aStoppedBrokerComesBackWithItsRecords() {
    broker.createTopic("restarted", 1);
    broker.produce("restarted", 0, "before");
    broker.stop();
    assertThat(broker.isRunning()).isFalse();
    assertThatThrownBy(() -> broker.produce("restarted", 0, "while stopped"))
        .hasMessage("the test broker at " + broker.bootstrapServers() + " is stopped: restart it first");

    broker.restart();
    assertThat(broker.produce("restarted", 0, "after")).containsExactly(1L);
    assertThat(consumeAll("restarted", 1, 2)).containsExactly("0@0=before", "0@1=after");
  }

  @Test
  void aTopicThatExistsIsRefusedWithKafkasReason() {
    broker.createTopic("twice", 1);
    assertThatThrownBy(() -> broker.createTopic("twice", 1))
        .hasMessageStartingWith("cannot create topic twice on the test broker at " + broker.bootstrapServers() + ": ")
        .hasMessageContaining("already exists");
  }

  /** Every record of the topic as partition@offset=value, partition after partition. */
  private static List<String> consumeAll(String topic, int partitions, int expected) {
    List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
    try (KafkaConsumer<byte[], byte[]> consumer = consumer()) {
      List<TopicPartition> all = new ArrayList<>();
      for (int p = 0; p < partitions; p++) {
        all.add(new TopicPartition(topic, p));
      }
      consumer.assign(all);
      consumer.seekToBeginning(all);
      for (int polls = 0; records.size() < expected && polls < 100; polls++) {
        consumer.poll(Duration.ofMillis(200)).forEach(records::add);
      }
    }
    return records.stream()
        .sorted((a, b) -> a.partition() != b.partition() ? Integer.compare(a.partition(), b.partition()) : Long.compare(a.offset(), b.offset()))
        .map(r -> r.partition() + "@" + r.offset() + "=" + new String(r.value(), StandardCharsets.UTF_8))
        .toList();
  }

  private static KafkaConsumer<byte[], byte[]> consumer() {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    return new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
  }
}
