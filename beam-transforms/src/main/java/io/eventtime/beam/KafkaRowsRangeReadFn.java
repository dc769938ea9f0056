package io.eventtime.beam;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.Row;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.joda.time.Instant;

/**
 * Reads one partition from a start offset up to (not including) an end offset, in offset order,
 * each record stamped with its arrival ({@link KafkaRowsArrivalStamps}): the bounded read of
 * {@link KafkaRows#withUntilAvailable()}. It is done when the consumer's position reaches the end,
 * so offsets that hold no record (transaction markers, compacted records) do not keep it waiting.
 *
 * <p>Why not KafkaIO for this read (Beam 2.62): {@code withStopReadTime} stops by record timestamp,
 * not offset, and fails on a partition with no record at or after the time;
 * {@code withMaxNumRecords} counts records, which a partition with transaction markers never
 * reaches; and a read of source descriptors with stop offsets gives an unbounded collection
 * (its bounded form is not public), whose range is never finished when its last offsets are markers.
 */
final class KafkaRowsRangeReadFn extends DoFn<KV<Integer, KV<Long, Long>>, Row> {
  private static final Duration POLL = Duration.ofMillis(500);

  private final String topic;
  private final HashMap<String, Object> consumerConfig;
  private final KafkaRowsDecoder decoder;
  private final Counter rowsIn = EventTimeMetrics.counter(EventTimeMetrics.ROWS_IN);
  private final Counter rowsRejected = EventTimeMetrics.counter(EventTimeMetrics.ROWS_REJECTED);

  KafkaRowsRangeReadFn(String topic, Map<String, Object> consumerConfig, KafkaRowsDecoder decoder) {
    this.topic = topic;
    this.consumerConfig = new HashMap<>(consumerConfig);
    this.consumerConfig.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    this.decoder = decoder;
  }

  @ProcessElement
  public void process(@Element KV<Integer, KV<Long, Long>> range, MultiOutputReceiver out) {
    TopicPartition tp = new TopicPartition(topic, range.getKey());
    long end = range.getValue().getValue();
    KafkaRowsArrivalStamps stamps = new KafkaRowsArrivalStamps(null);
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(consumerConfig, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      consumer.assign(List.of(tp));
      consumer.seek(tp, range.getValue().getKey());
      while (consumer.position(tp) < end) {
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(POLL)) {
          if (r.offset() >= end) {
            return;
          }
          Instant stamp = stamps.next(Instant.now());
          KafkaRowsDecoder.Decoded d = decoder.decode(r.partition(), r.offset(), r.value());
          if (d.row() != null) {
            out.get(KafkaRows.ROWS).outputWithTimestamp(d.row(), stamp);
          } else {
            rowsIn.inc();
            rowsRejected.inc();
            out.get(KafkaRows.REJECTED).outputWithTimestamp(d.rejected(), stamp);
          }
        }
      }
    }
  }
}
