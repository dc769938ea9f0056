package io.eventtime.beam;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.apache.beam.sdk.io.kafka.KafkaRecord;
import org.apache.beam.sdk.io.kafka.KafkaTimestampType;
import org.apache.beam.sdk.io.kafka.TimestampPolicy;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.kafka.common.TopicPartition;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;

class KafkaRowsArrivalStampsTest {
  @Test
  void aStampIsTheClock_butNeverEarlierThanThePartitionsLastStamp() {
    KafkaRowsArrivalStamps stamps = new KafkaRowsArrivalStamps(null);
    assertThat(stamps.last()).isEqualTo(BoundedWindow.TIMESTAMP_MIN_VALUE);
    assertThat(stamps.next(new Instant(1_000))).isEqualTo(new Instant(1_000));
    assertThat(stamps.next(new Instant(400))).as("the clock went back").isEqualTo(new Instant(1_000));
    assertThat(stamps.next(new Instant(1_500))).isEqualTo(new Instant(1_500));
    assertThat(new KafkaRowsArrivalStamps(new Instant(9_000)).next(new Instant(5_000)))
        .as("stamps go on from a restored watermark").isEqualTo(new Instant(9_000));
  }

  @Test
  void theWatermarkIsTheLastStampWhileRecordsWait_andTheClockWhenCaughtUp() {
    Instant restored = Instant.now().plus(org.joda.time.Duration.standardHours(1));
    TimestampPolicy<byte[], byte[]> policy = new KafkaRowsArrivalStamps.PolicyFactory()
        .createTimestampPolicy(new TopicPartition("t", 0), Optional.of(restored));
    Instant stamp = policy.getTimestampForRecord(context(5), record());
    assertThat(stamp).isEqualTo(restored);
    assertThat(policy.getWatermark(context(4))).isEqualTo(stamp);

    TimestampPolicy<byte[], byte[]> fresh = new KafkaRowsArrivalStamps.PolicyFactory()
        .createTimestampPolicy(new TopicPartition("t", 0), Optional.empty());
    Instant before = Instant.now();
    Instant caughtUp = fresh.getWatermark(context(0));
    assertThat(caughtUp).isBetween(before, Instant.now());
    assertThat(fresh.getTimestampForRecord(context(0), record())).as("a record after it is not behind it")
        .isGreaterThanOrEqualTo(caughtUp);
  }

  private static TimestampPolicy.PartitionContext context(long backlog) {
    return new TimestampPolicy.PartitionContext() {
      @Override
      public long getMessageBacklog() {
        return backlog;
      }

      @Override
      public Instant getBacklogCheckTime() {
        return Instant.now();
      }
    };
  }

  private static KafkaRecord<byte[], byte[]> record() {
    return new KafkaRecord<>("t", 0, 0, 0, KafkaTimestampType.CREATE_TIME, null, new byte[0], new byte[0]);
  }
}
