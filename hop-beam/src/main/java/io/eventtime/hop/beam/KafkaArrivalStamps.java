package io.eventtime.hop.beam;

import java.util.Optional;
import org.apache.beam.sdk.io.kafka.KafkaRecord;
import org.apache.beam.sdk.io.kafka.TimestampPolicy;
import org.apache.beam.sdk.io.kafka.TimestampPolicyFactory;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.kafka.common.TopicPartition;
import org.joda.time.Instant;

/**
 * The element timestamps of the records Event Kafka Input reads on Beam: arrival stamps, as
 * beam-transforms' {@code KafkaRows} gives its rows (docs/design/live-streams.md, 3.2). Each
 * record is stamped with the wall-clock time it was read, never earlier than the record before it
 * in its partition; a partition's watermark is its last stamp, or the clock once it is caught up.
 * Event Time Window's live path ({@code EventTimeWindow} on an unbounded input) needs exactly this:
 * when its input watermark passes {@code t}, every record stamped before {@code t} has arrived.
 *
 * <p>The rule is KafkaRows' ({@code KafkaRowsArrivalStamps}), which its package keeps to itself;
 * the Hop read cannot use KafkaRows whole because it decodes records with the Hop transform's own
 * reader (types, time patterns, key, Kafka timestamp and the reasons of the local engine).
 */
final class KafkaArrivalStamps implements TimestampPolicyFactory<byte[], byte[]> {
  private static final long serialVersionUID = 1L;

  @Override
  public TimestampPolicy<byte[], byte[]> createTimestampPolicy(TopicPartition tp, Optional<Instant> previousWatermark) {
    return new Policy(previousWatermark.orElse(BoundedWindow.TIMESTAMP_MIN_VALUE));
  }

  /**
   * One partition's stamps. KafkaIO creates a policy each time it resumes a partition, with the
   * partition's watermark so far, so the stamps go on from there and never go back.
   */
  private static final class Policy extends TimestampPolicy<byte[], byte[]> {
    private Instant last;

    Policy(Instant previous) {
      this.last = previous;
    }

    private Instant next() {
      Instant now = Instant.now();
      if (now.isAfter(last)) {
        last = now;
      }
      return last;
    }

    @Override
    public Instant getTimestampForRecord(PartitionContext ctx, KafkaRecord<byte[], byte[]> record) {
      return next();
    }

    @Override
    public Instant getWatermark(PartitionContext ctx) {
      // a backlog of 0 means caught up; KafkaIO reports an unknown backlog as a negative or maximal number
      return ctx.getMessageBacklog() == 0 ? next() : last;
    }
  }
}
