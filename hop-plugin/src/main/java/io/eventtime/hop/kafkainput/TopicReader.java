package io.eventtime.hop.kafkainput;

import java.io.Closeable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.hop.core.exception.HopException;
import org.apache.hop.i18n.BaseMessages;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads every partition of a topic, the partitions the topic has when the reading starts, each in
 * offset order, with {@code read_committed} isolation (no row of an aborted transaction). With
 * "stop when caught up" it reads each partition up to the end offset it had at the start (the
 * last stable offset), leaves out what came after, and then says it is done. Offsets are
 * committed to the consumer group, when there is one, for monitoring only.
 */
final class TopicReader implements Closeable {
  private static final Class<?> PKG = EventKafkaInputMeta.class;

  private final KafkaInputSettings settings;
  private final KafkaConsumer<byte[], byte[]> consumer;
  private final Duration timeout;
  private List<TopicPartition> partitions = List.of();
  /** With stop when caught up: each partition's end offset at the start, and the partitions read up to it. */
  private final Map<TopicPartition, Long> ends = new HashMap<>();
  private final Set<TopicPartition> caughtUp = new HashSet<>();

  TopicReader(KafkaInputSettings settings, String clientId) {
    this.settings = settings;
    this.timeout = Duration.ofMillis(settings.timeoutMillis);
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, settings.servers);
    p.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
    if (settings.group != null) {
      p.put(ConsumerConfig.GROUP_ID_CONFIG, settings.group);
    }
    p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, settings.fromEarliest ? "earliest" : "latest");
    p.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) Math.min(Integer.MAX_VALUE, settings.timeoutMillis));
    p.put(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) Math.min(Integer.MAX_VALUE, settings.timeoutMillis));
    consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
  }

  /**
   * Finds the topic's partitions and takes each from the start position; fails, within the
   * connection timeout, when no broker answers or the topic does not exist.
   */
  List<TopicPartition> open() throws HopException {
    List<PartitionInfo> infos;
    try {
      infos = consumer.partitionsFor(settings.topic, timeout);
    } catch (TimeoutException e) {
      throw new HopException(BaseMessages.getString(PKG, "EventKafkaInput.Problem.NoBroker", settings.servers,
          timeoutText(), settings.topic));
    } catch (KafkaException e) {
      throw new HopException(BaseMessages.getString(PKG, "EventKafkaInput.Problem.Kafka", settings.servers,
          e.getMessage()), e);
    }
    if (infos == null || infos.isEmpty()) {
      throw new HopException(BaseMessages.getString(PKG, "EventKafkaInput.Problem.NoTopic", settings.topic,
          settings.servers));
    }
    List<TopicPartition> found = new ArrayList<>();
    infos.forEach(i -> found.add(new TopicPartition(i.topic(), i.partition())));
    found.sort((a, b) -> Integer.compare(a.partition(), b.partition()));
    partitions = List.copyOf(found);
    consumer.assign(partitions);
    try {
      if (settings.fromEarliest) {
        consumer.seekToBeginning(partitions);
      } else {
        consumer.seekToEnd(partitions);
      }
      if (settings.stopWhenCaughtUp) {
        ends.putAll(consumer.endOffsets(partitions, timeout));
        for (TopicPartition tp : partitions) {
          noteCaughtUp(tp);
        }
      }
    } catch (TimeoutException e) {
      throw new HopException(BaseMessages.getString(PKG, "EventKafkaInput.Problem.NoBroker", settings.servers,
          timeoutText(), settings.topic));
    }
    return partitions;
  }

  /**
   * Starts each partition of {@code offsets} (partition number to the next offset to read) there;
   * with stop when caught up, a partition is caught up again by its new position.
   */
  void seekTo(Map<Integer, Long> offsets, String stateOwner) throws HopException {
    for (Map.Entry<Integer, Long> e : offsets.entrySet()) {
      if (e.getKey() >= partitions.size()) {
        throw new HopException(BaseMessages.getString(PKG, "EventKafkaInput.Problem.StatePartitions", stateOwner,
            e.getKey(), settings.topic, partitions.size()));
      }
      consumer.seek(partitions.get(e.getKey()), e.getValue());
    }
    if (settings.stopWhenCaughtUp) {
      consumer.resume(List.copyOf(caughtUp));
      caughtUp.clear();
      try {
        for (TopicPartition tp : partitions) {
          noteCaughtUp(tp);
        }
      } catch (TimeoutException e) {
        throw new HopException(BaseMessages.getString(PKG, "EventKafkaInput.Problem.NoBroker", settings.servers,
            timeoutText(), settings.topic));
      }
    }
  }

  private String timeoutText() {
    long ms = settings.timeoutMillis;
    return ms % 1000 == 0 ? ms / 1000 + " s" : ms + " ms";
  }

  /**
   * The records that came within {@code wait}, in offset order within each partition; with stop
   * when caught up, none at or after a partition's end offset. While the brokers are away it
   * returns nothing, and the reading goes on when they come back.
   */
  List<ConsumerRecord<byte[], byte[]>> poll(Duration wait) {
    ConsumerRecords<byte[], byte[]> polled = consumer.poll(wait);
    List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>(polled.count());
    for (TopicPartition tp : polled.partitions()) {
      for (ConsumerRecord<byte[], byte[]> r : polled.records(tp)) {
        if (!settings.stopWhenCaughtUp || r.offset() < ends.get(tp)) {
          records.add(r);
        }
      }
    }
    if (settings.group != null && !polled.isEmpty()) {
      consumer.commitAsync();
    }
    if (settings.stopWhenCaughtUp) {
      for (TopicPartition tp : polled.partitions()) {
        noteCaughtUp(tp);
      }
    }
    return records;
  }

  /** A partition whose position reached its end offset is read no further (paused). */
  private void noteCaughtUp(TopicPartition tp) {
    if (!caughtUp.contains(tp) && consumer.position(tp, timeout) >= ends.get(tp)) {
      caughtUp.add(tp);
      consumer.pause(List.of(tp));
    }
  }

  /**
   * With stop when caught up: whether every partition has been read up to its end offset. A
   * partition is asked its position again here, as transaction markers move it without a record.
   */
  boolean isCaughtUp() {
    if (!settings.stopWhenCaughtUp) {
      return false;
    }
    for (TopicPartition tp : partitions) {
      noteCaughtUp(tp);
    }
    return caughtUp.size() == partitions.size();
  }

  @Override
  public void close() {
    if (settings.group != null && !partitions.isEmpty()) {
      try {
        consumer.commitSync(Duration.ofSeconds(5));
      } catch (KafkaException e) {
        // for monitoring only: the rows are already read
      }
    }
    consumer.close(Duration.ofSeconds(5));
  }
}
