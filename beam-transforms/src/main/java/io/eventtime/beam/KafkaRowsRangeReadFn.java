package io.eventtime.beam;

import java.time.Duration;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.Row;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
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

  private final KafkaRowsRange range;

  KafkaRowsRangeReadFn(KafkaRowsRange range) {
    this.range = range;
  }

  @ProcessElement
  public void process(@Element KV<Integer, KV<Long, Long>> offsets, MultiOutputReceiver out) {
    TopicPartition tp = range.partition(offsets.getKey());
    long end = offsets.getValue().getValue();
    KafkaRowsArrivalStamps stamps = new KafkaRowsArrivalStamps(null);
    try (KafkaConsumer<byte[], byte[]> consumer = range.consumer(tp, offsets.getValue().getKey())) {
      read:
      while (consumer.position(tp) < end) {
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(POLL)) {
          if (r.offset() >= end) {
            break read;
          }
          range.output(r, stamps.next(Instant.now()), out);
        }
      }
      range.commitRead(consumer, tp, end);
    }
  }
}
