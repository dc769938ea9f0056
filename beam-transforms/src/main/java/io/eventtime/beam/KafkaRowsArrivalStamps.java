package io.eventtime.beam;

import java.util.Optional;
import org.apache.beam.sdk.io.kafka.KafkaRecord;
import org.apache.beam.sdk.io.kafka.TimestampPolicy;
import org.apache.beam.sdk.io.kafka.TimestampPolicyFactory;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.kafka.common.TopicPartition;
import org.joda.time.Instant;

/**
 * Arrival stamps, the element timestamps {@link KafkaRows} gives its rows (design 3.2): each
 * record is stamped with the wall-clock time it was read, never earlier than the record read
 * before it from the same partition, so that within a partition the stamps follow the offsets.
 * The watermark of a partition is its last stamp, or the wall clock when the partition is caught
 * up (no record waits in it), so that the watermark moves on while a partition is quiet. When the
 * input watermark of a later step passes a time {@code t}, every record stamped before {@code t}
 * has arrived: that is the completeness signal the live path of {@link EventTimeWindow} needs,
 * since a DoFn cannot read positions' gaps or the watermark itself.
 */
public final class KafkaRowsArrivalStamps {
  private Instant last;

  /** Stamps that continue after {@code previous} (a restored watermark), or start afresh. */
  KafkaRowsArrivalStamps(Instant previous) {
    this.last = previous == null ? BoundedWindow.TIMESTAMP_MIN_VALUE : previous;
  }

  /** The stamp of a record read at {@code now}: now, unless the clock went back. */
  Instant next(Instant now) {
    if (now.isAfter(last)) {
      last = now;
    }
    return last;
  }

  /** The last stamp given, or the start. */
  Instant last() {
    return last;
  }

  /**
   * KafkaIO's per-partition hook for the stamps, created for each partition it reads: for a read
   * of one's own with {@code KafkaIO.read().withTimestampPolicyFactory(new PolicyFactory())} whose
   * rows go to {@link EventTimeWindow}'s live path (as Hop on Beam's Event Kafka Input does).
   */
  public static final class PolicyFactory implements TimestampPolicyFactory<byte[], byte[]> {
    private static final long serialVersionUID = 1L;

    @Override
    public TimestampPolicy<byte[], byte[]> createTimestampPolicy(TopicPartition tp, Optional<Instant> previousWatermark) {
      return new Policy(new KafkaRowsArrivalStamps(previousWatermark.orElse(null)));
    }
  }

  /**
   * The stamps as KafkaIO's policy. KafkaIO's splittable read creates a policy each time it
   * resumes a partition, with the partition's watermark so far: the stamps go on from there, so
   * they never go back across resumptions either (the watermark is never above the last stamp
   * given, or it is the clock, which the next stamp is at or after).
   */
  private static final class Policy extends TimestampPolicy<byte[], byte[]> {
    private final KafkaRowsArrivalStamps stamps;

    Policy(KafkaRowsArrivalStamps stamps) {
      this.stamps = stamps;
    }

    @Override
    public Instant getTimestampForRecord(PartitionContext ctx, KafkaRecord<byte[], byte[]> record) {
      return stamps.next(Instant.now());
    }

    @Override
    public Instant getWatermark(PartitionContext ctx) {
      // a backlog of 0 means caught up; KafkaIO reports an unknown backlog as a negative or maximal number
      return ctx.getMessageBacklog() == 0 ? stamps.next(Instant.now()) : stamps.last();
    }
  }
}
