package io.eventtime.beam;

import java.io.Serializable;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.joda.time.Instant;

/**
 * What the two reads of a partition's range of offsets share ({@link KafkaRowsRangeReadFn}, bounded,
 * and {@link KafkaRowsLiveRangeReadFn}, live): a consumer placed at the range's start, and each
 * record's way out, as a row or as a rejected row, counted as the other reads count them.
 */
final class KafkaRowsRange implements Serializable {
  private static final long serialVersionUID = 1L;

  private final String topic;
  private final HashMap<String, Object> consumerConfig;
  private final KafkaRowsDecoder decoder;
  private final Counter rowsIn = EventTimeMetrics.counter(EventTimeMetrics.ROWS_IN);
  private final Counter rowsRejected = EventTimeMetrics.counter(EventTimeMetrics.ROWS_REJECTED);

  KafkaRowsRange(String topic, Map<String, Object> consumerConfig, KafkaRowsDecoder decoder) {
    this.topic = topic;
    this.consumerConfig = new HashMap<>(consumerConfig);
    this.consumerConfig.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false); // the reads commit nothing
    this.decoder = decoder;
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
