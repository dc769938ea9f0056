package io.eventtime.beam;

import java.time.Duration;
import java.util.ConcurrentModificationException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.InstantCoder;
import org.apache.beam.sdk.io.range.OffsetRange;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.SerializableFunction;
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
import org.apache.kafka.common.errors.WakeupException;
import org.joda.time.Instant;

/**
 * Reads one partition from a start offset up to (not including) an end offset as a <b>live</b>
 * stream, the read of {@link KafkaRows#withLiveUntilAvailable()} and {@link KafkaRows#withLiveUntil}
 * (whose end is open: {@code Long.MAX_VALUE}): a splittable DoFn, unbounded per element, so the
 * rows are an unbounded PCollection (streaming mode, {@link EventTimeWindow}'s live path) that
 * ends once every partition's read has ended. Each record is stamped with its arrival ({@link
 * KafkaRowsArrivalStamps}) and the partition's watermark follows the stamps, so windows leave while
 * the read goes on; when a poll brings nothing the watermark moves to the clock, since every later
 * record is stamped at or after it.
 *
 * <p>The restriction is the range of offsets. A call returns to the runner (which resumes the rest
 * at the next offset) when a poll brings nothing and at least every second, because a runner
 * passes the watermark on only between calls; a runner that checkpoints the read (Flink every few
 * seconds) resumes it the same way. Each partition's consumer is kept between calls, so a call goes
 * on from the records fetched ahead. The range is done once the consumer's position reaches the
 * end, so offsets that hold no record (transaction markers, compacted records) do not keep it
 * waiting: the end's last offset is claimed then; and done at once, wherever it is, when the stop
 * function (if any) says so.
 */
@DoFn.UnboundedPerElement
final class KafkaRowsLiveRangeReadFn extends DoFn<KV<Integer, KV<Long, Long>>, Row> {
  private static final Duration POLL = Duration.ofMillis(200);
  /** How long a call reads before it hands back to the runner, so that the watermark moves on. */
  private static final Duration CALL = Duration.ofSeconds(1);

  private final KafkaRowsRange range;
  private final SerializableFunction<Integer, Boolean> stopReading;
  private transient Map<Integer, KafkaConsumer<byte[], byte[]>> consumers;

  /** {@code stopReading}: whether a partition's read ends now ({@link KafkaRows#withLiveUntil}), or null. */
  KafkaRowsLiveRangeReadFn(KafkaRowsRange range, SerializableFunction<Integer, Boolean> stopReading) {
    this.range = range;
    this.stopReading = stopReading;
  }

  @Setup
  public void setup() {
    consumers = new ConcurrentHashMap<>(); // torn down from another thread, see teardown
  }

  /**
   * Closes the consumers. A runner that cancels a pipeline may tear the DoFn down while a read
   * still runs on another thread (the Direct runner does): that read's consumer is woken instead
   * (a consumer is for one thread), and the read closes it as it ends ({@link #process}).
   */
  @Teardown
  public void teardown() {
    if (consumers != null) {
      for (KafkaConsumer<byte[], byte[]> consumer : consumers.values()) {
        try {
          consumer.close();
        } catch (ConcurrentModificationException inUse) {
          consumer.wakeup();
        }
      }
      consumers.clear();
    }
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
    int partition = offsets.getKey();
    TopicPartition tp = range.partition(partition);
    KafkaConsumer<byte[], byte[]> consumer = consumerAt(partition, tp, tracker.currentRestriction().getFrom());
    try {
      return read(partition, tp, consumer, tracker, watermark, out);
    } catch (WakeupException tornDown) {
      consumer.close(); // woken by teardown: this thread had it, so it closes it
      throw tornDown;
    }
  }

  private ProcessContinuation read(int partition, TopicPartition tp, KafkaConsumer<byte[], byte[]> consumer,
      RestrictionTracker<OffsetRange, Long> tracker, ManualWatermarkEstimator<Instant> watermark, MultiOutputReceiver out) {
    long from = tracker.currentRestriction().getFrom();
    long end = tracker.currentRestriction().getTo();
    KafkaRowsArrivalStamps stamps = new KafkaRowsArrivalStamps(watermark.currentWatermark());
    long handBackAt = System.nanoTime() + CALL.toNanos();
    long claimed = from - 1;
    while (consumer.position(tp) < end) {
      if (stopReading != null && stopReading.apply(partition)) {
        break; // told to end here: the rest of the range is claimed below, unread
      }
      ConsumerRecords<byte[], byte[]> records = consumer.poll(POLL);
      if (records.isEmpty()) {
        watermark.setWatermark(stamps.next(Instant.now()));
        long passed = Math.min(consumer.position(tp), end) - 1;
        if (passed > claimed) { // offsets that held no record (transaction markers): done with
          if (!tracker.tryClaim(passed)) {
            return ProcessContinuation.stop();
          }
          claimed = passed;
        }
        if (passed < end - 1) {
          commitRead(consumer, tp, from, claimed + 1);
          return ProcessContinuation.resume(); // nothing to read: hand the watermark on and come back
        }
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
      if (System.nanoTime() - handBackAt > 0 && consumer.position(tp) < end) {
        commitRead(consumer, tp, from, claimed + 1);
        return ProcessContinuation.resume();
      }
    }
    // the end is reached, or the read was told to stop: the offsets up to the end are claimed with it
    if (claimed < end - 1 && !tracker.tryClaim(end - 1)) {
      return ProcessContinuation.stop();
    }
    // where this read ended: the end, or the position reached when told to stop (the rest is not read)
    range.commitRead(consumer, tp, Math.min(consumer.position(tp), end));
    consumers.remove(partition).close();
    return ProcessContinuation.stop();
  }

  /** Tells the group how far the read got in this call, if it got anywhere: not at every empty poll. */
  private void commitRead(KafkaConsumer<byte[], byte[]> consumer, TopicPartition tp, long from, long next) {
    if (next > from) {
      range.commitRead(consumer, tp, next);
    }
  }

  /** The partition's consumer kept from the last call, at {@code from}: moved there only when it is not. */
  private KafkaConsumer<byte[], byte[]> consumerAt(int partition, TopicPartition tp, long from) {
    KafkaConsumer<byte[], byte[]> consumer = consumers.get(partition);
    if (consumer == null) {
      consumer = range.consumer(tp, from);
      consumers.put(partition, consumer);
    } else if (consumer.position(tp) != from) {
      consumer.seek(tp, from); // a seek drops the records fetched ahead: only when the range moved
    }
    return consumer;
  }
}
