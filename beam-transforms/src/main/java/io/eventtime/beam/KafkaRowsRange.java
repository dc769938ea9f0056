package io.eventtime.beam;

import java.io.Serializable;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.joda.time.Instant;

/**
 * What the two reads of a partition's range of offsets share ({@link KafkaRowsRangeReadFn}, bounded,
 * and {@link KafkaRowsLiveRangeReadFn}, live): a consumer placed at the range's start, and each
 * record's way out, as a row or as a rejected row, counted as the other reads count them; and the
 * read position told to the group of {@link KafkaRows#withOffsetsCommittedTo}.
 */
final class KafkaRowsRange implements Serializable {
  private static final long serialVersionUID = 1L;

  private final String topic;
  private final HashMap<String, Object> consumerConfig;
  private static final Duration COMMIT_WAIT = Duration.ofSeconds(5);

  private final KafkaRowsDecoder decoder;
  private final String commitGroup;
  private final Counter rowsIn = EventTimeMetrics.counter(EventTimeMetrics.ROWS_IN);
  private final Counter rowsRejected = EventTimeMetrics.counter(EventTimeMetrics.ROWS_REJECTED);

  /** {@code commitGroup}: the group told the read positions ({@link KafkaRows#withOffsetsCommittedTo}), or null. */
  KafkaRowsRange(String topic, Map<String, Object> consumerConfig, KafkaRowsDecoder decoder, String commitGroup) {
    this.topic = topic;
    this.consumerConfig = new HashMap<>(consumerConfig);
    this.consumerConfig.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false); // a commit is asked for, with its offset
    if (commitGroup != null) {
      this.consumerConfig.put(ConsumerConfig.GROUP_ID_CONFIG, commitGroup);
    }
    this.commitGroup = commitGroup;
    this.decoder = decoder;
  }

  /**
   * Tells the group, if there is one, that {@code partition} is read up to {@code nextOffset}, and
   * waits for the answer: an answer that came later than the next commit (from another worker's
   * consumer of the partition) would take the group's offset back. For monitoring only, so a
   * failed commit is passed over.
   */
  void commitRead(KafkaConsumer<byte[], byte[]> consumer, TopicPartition partition, long nextOffset) {
    if (commitGroup == null) {
      return;
    }
    try {
      consumer.commitSync(Map.of(partition, new OffsetAndMetadata(nextOffset)), COMMIT_WAIT);
    } catch (KafkaException e) {
      // the group's offsets are for monitoring: the rows are read all the same
    }
  }

  /** A consumer of {@code partition} alone, at {@code from}; the caller closes it. */
  KafkaConsumer<byte[], byte[]> consumer(TopicPartition partition, long from) {
    KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(consumerConfig, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    consumer.assign(List.of(partition));
    consumer.seek(partition, from);
    return consumer;
  }

  TopicPartition partition(int number) {
    return new TopicPartition(topic, number);
  }

  /** Hands {@code record} on, stamped {@code stamp}: its row, or its rejected row. */
  void output(ConsumerRecord<byte[], byte[]> record, Instant stamp, DoFn.MultiOutputReceiver out) {
    KafkaRowsDecoder.Decoded d = decoder.decode(record.partition(), record.offset(), record.timestamp(), record.key(),
        record.value());
    if (d.row() != null) {
      out.get(KafkaRows.ROWS).outputWithTimestamp(d.row(), stamp);
    } else {
      rowsIn.inc();
      rowsRejected.inc();
      out.get(KafkaRows.REJECTED).outputWithTimestamp(d.rejected(), stamp);
    }
  }
}
