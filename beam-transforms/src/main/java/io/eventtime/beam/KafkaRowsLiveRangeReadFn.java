package io.eventtime.beam;

import java.time.Duration;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.InstantCoder;
import org.apache.beam.sdk.io.range.OffsetRange;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.splittabledofn.ManualWatermarkEstimator;
import org.apache.beam.sdk.transforms.splittabledofn.OffsetRangeTracker;
import org.apache.beam.sdk.transforms.splittabledofn.RestrictionTracker;
import org.apache.beam.sdk.transforms.splittabledofn.WatermarkEstimators;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.Row;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.joda.time.Instant;

/**
 * Reads one partition from a start offset up to (not including) an end offset as a <b>live</b>
 * stream, the read of {@link KafkaRows#withLiveUntilAvailable()}: a splittable DoFn, unbounded per
 * element, so the rows are an unbounded PCollection (streaming mode, {@link EventTimeWindow}'s live
 * path) that ends once every partition has reached its end. Each record is stamped with its arrival
 * ({@link KafkaRowsArrivalStamps}) and the partition's watermark follows the stamps, so windows
 * leave while the read goes on; when a poll brings nothing the watermark moves to the clock, since
 * every later record is stamped at or after it.
 *
 * <p>The restriction is the range of offsets; a runner that checkpoints the read (Flink every few
 * seconds) resumes it from the next offset with the watermark so far. The range is done once the
 * consumer's position reaches the end, so offsets that hold no record (transaction markers,
 * compacted records) do not keep it waiting: the end's last offset is claimed then.
 */
@DoFn.UnboundedPerElement
final class KafkaRowsLiveRangeReadFn extends DoFn<KV<Integer, KV<Long, Long>>, Row> {
  private static final Duration POLL = Duration.ofMillis(200);

  private final KafkaRowsRange range;

  KafkaRowsLiveRangeReadFn(KafkaRowsRange range) {
    this.range = range;
  }

  @GetInitialRestriction
  public OffsetRange initialRange(@Element KV<Integer, KV<Long, Long>> range) {
    return new OffsetRange(range.getValue().getKey(), range.getValue().getValue());
  }

  @NewTracker
  public OffsetRangeTracker tracker(@Restriction OffsetRange range) {
    return new OffsetRangeTracker(range);
  }

  @GetRestrictionCoder
  public Coder<OffsetRange> rangeCoder() {
    return OffsetRange.Coder.of();
  }

  @GetInitialWatermarkEstimatorState
  public Instant initialWatermark() {
    return BoundedWindow.TIMESTAMP_MIN_VALUE;
  }

  @GetWatermarkEstimatorStateCoder
  public Coder<Instant> watermarkCoder() {
    return InstantCoder.of();
  }

  @NewWatermarkEstimator
  public WatermarkEstimators.Manual watermarkEstimator(@WatermarkEstimatorState Instant state) {
    return new WatermarkEstimators.Manual(state);
  }

  @ProcessElement
  public ProcessContinuation process(@Element KV<Integer, KV<Long, Long>> offsets,
      RestrictionTracker<OffsetRange, Long> tracker, ManualWatermarkEstimator<Instant> watermark,
      MultiOutputReceiver out) {
    TopicPartition tp = range.partition(offsets.getKey());
    long from = tracker.currentRestriction().getFrom();
    long end = tracker.currentRestriction().getTo();
    KafkaRowsArrivalStamps stamps = new KafkaRowsArrivalStamps(watermark.currentWatermark());
    try (KafkaConsumer<byte[], byte[]> consumer = range.consumer(tp, from)) {
      long claimed = from - 1;
      while (consumer.position(tp) < end) {
        ConsumerRecords<byte[], byte[]> records = consumer.poll(POLL);
        if (records.isEmpty()) {
          watermark.setWatermark(stamps.next(Instant.now()));
          continue;
        }
        for (ConsumerRecord<byte[], byte[]> r : records) {
          if (r.offset() >= end) {
            break;
          }
          if (!tracker.tryClaim(r.offset())) {
            return ProcessContinuation.stop(); // the runner took the rest as a residual: it resumes there
          }
          claimed = r.offset();
          Instant stamp = stamps.next(Instant.now());
          range.output(r, stamp, out);
          watermark.setWatermark(stamp);
        }
      }
      // the end is reached; offsets up to it that held no record are claimed with it
      if (claimed < end - 1 && !tracker.tryClaim(end - 1)) {
        return ProcessContinuation.stop();
      }
    }
    return ProcessContinuation.stop();
  }
}
