package io.eventtime.beam;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.core.AggregateKind;
import io.eventtime.core.AggregateSpec;
import io.eventtime.core.Key;
import io.eventtime.core.LatePolicy;
import io.eventtime.core.PartitionedWindowProcessor;
import io.eventtime.core.Stats;
import io.eventtime.core.TimeText;
import io.eventtime.core.WindowQuery;
import io.eventtime.core.WindowSpec;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.coders.RowCoder;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TimestampedValue;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The live path holds the open windows and the rows waiting to be put in order, not the stream
 * (issue 11): a long stream with a fixed number of keys over two partitions, N and then 4N rows of
 * the same periodic pattern, on the DirectRunner. What the metrics report held at any moment (the
 * most open windows in one key bucket, the largest held state of one bucket in bytes, the most
 * rows waiting in one partition) is the same for 4N rows as for N, and under the bound that the
 * keys and windows give; the gauges end at zero after the drain, and the results are the core's.
 */
class LiveStateStaysBoundedTest {
  private static final Schema SCHEMA = Schema.builder().addInt32Field(KafkaRows.PARTITION_FIELD)
      .addStringField("user").addInt64Field("amount").addStringField("event_time")
      .addInt64Field(EventTimeWindow.DEFAULT_ARRIVAL_FIELD).build();
  private static final int KEYS = 24;
  private static final int N = 480;
  /** Rows read together, with one arrival stamp, between two watermark advances: half of them wait in each partition. */
  private static final int STRETCH = 120;
  private static final long START = java.time.Instant.parse("2026-05-01T08:00:00Z").toEpochMilli();
  /** Hopping windows of 60 s every 20 s, a delay of 5 s; rows half a second of event time apart. */
  private static final WindowQuery QUERY = WindowQuery.of(WindowSpec.hopping(20_000, 60_000)).withKeys("user")
      .withDelay(5_000).withLatePolicy(LatePolicy.EVENT)
      .withAggregates(AggregateSpec.countAll("n"), AggregateSpec.of(AggregateKind.SUM, "amount", "total"));
  /**
   * The most windows a key can hold open: those that start between the stream's watermark less the
   * size and the key's latest row. The stream's watermark (the least of the two partitions') lags
   * the latest row by the delay and at most one stretch of event time (one partition's release of
   * a stretch folded before the other's): (60 s + 5 s + 60 s) / 20 s, rounded up.
   */
  private static final int WINDOWS_PER_KEY = (int) Math.ceil((60_000 + 5_000 + STRETCH * 500) / 20_000.0);

  record Held(long bucketOpenWindows, long bucketStateBytes, long partitionBuffered, Stats stats) {}

  @Test
  void theHeldStateDoesNotGrowWithTheStream() {
    Held shorter = run(N);
    Held longer = run(4 * N);
    // a partition's half of one stretch waits for the watermark advance after it, and of the next one
    // too when the runner delivers that before it fires the release timer
    assertThat(shorter.partitionBuffered).isBetween((long) STRETCH / 2, (long) STRETCH);
    assertThat(longer.partitionBuffered).isBetween((long) STRETCH / 2, (long) STRETCH);
    assertThat(longer.bucketOpenWindows).isEqualTo(shorter.bucketOpenWindows)
        .isLessThanOrEqualTo((long) mostKeysInABucket() * WINDOWS_PER_KEY).isPositive();
    // the bytes of a held state differ only by the varint lengths of counts and sums, a few per window
    assertThat(longer.bucketStateBytes).isBetween(shorter.bucketStateBytes,
        shorter.bucketStateBytes + 4 * longer.bucketOpenWindows);
    assertThat(longer.stats.rowsIn()).isEqualTo(4L * N);
    assertThat(longer.stats.lateDropped()).isPositive();
  }

  /** Runs {@code rows} rows through the live path and reads what it held; the results must be the core's. */
  private static Held run(int rows) {
    // the DirectRunner's checks of every element's encoding and immutability cost more than the run here
    Pipeline p = Pipeline.create(PipelineOptionsFactory.fromArgs("--runner=DirectRunner", "--targetParallelism=2",
        "--enforceImmutability=false", "--enforceEncodability=false").create());
    TestStream.Builder<Row> stream = TestStream.create(RowCoder.of(SCHEMA));
    PartitionedWindowProcessor core = new PartitionedWindowProcessor(QUERY, 2, w -> {});
    long[] positions = new long[2];
    for (int first = 0; first < rows; first += STRETCH) {
      TimestampedValue<Row>[] stretch = stretch(first, Math.min(rows, first + STRETCH), positions, core);
      stream = stream.addElements(stretch[0], java.util.Arrays.copyOfRange(stretch, 1, stretch.length))
          .advanceWatermarkTo(stamp(first).plus(org.joda.time.Duration.millis(1)));
    }
    core.finish();
    p.apply(stream.advanceWatermarkToInfinity()).apply("Long", EventTimeWindow.of(QUERY).withTimeField("event_time")
        .withPartitionField(KafkaRows.PARTITION_FIELD).withPartitions(0, 1));
    PipelineResult result = p.run();
    result.waitUntilFinish();
    Stats stats = EventTimeMetrics.stats(result, "Long");
    assertThat(stats).isEqualTo(core.stats());
    assertThat(EventTimeMetrics.read(result, "Long", EventTimeMetrics.OPEN_WINDOWS)).isZero();
    assertThat(EventTimeMetrics.read(result, "Long", EventTimeMetrics.BUFFERED_ROWS)).isZero();
    return new Held(EventTimeMetrics.max(result, "Long", EventTimeMetrics.BUCKET_OPEN_WINDOWS),
        EventTimeMetrics.max(result, "Long", EventTimeMetrics.BUCKET_STATE_BYTES),
        EventTimeMetrics.max(result, "Long", EventTimeMetrics.PARTITION_BUFFERED_ROWS), stats);
  }

  /**
   * Rows {@code from} to {@code to} of the periodic pattern, stamped as read together and fed to
   * {@code core} too: row i has key i mod KEYS, partition by key, an event time half a second on
   * from row i-1's, and every sixth row 40 s behind (late under the 5 s delay): a pattern that
   * repeats every stretch.
   */
  @SuppressWarnings("unchecked")
  private static TimestampedValue<Row>[] stretch(int from, int to, long[] positions, PartitionedWindowProcessor core) {
    TimestampedValue<Row>[] out = new TimestampedValue[to - from];
    for (int i = from; i < to; i++) {
      int key = i % KEYS;
      int partition = key % 2;
      long time = START + 500L * i - (i % 6 == 0 ? 40_000 : 0);
      String user = "user-" + key;
      long amount = i % 12;
      Row row = Row.withSchema(SCHEMA).addValues(partition, user, amount, TimeText.format(time),
          positions[partition]++).build();
      core.process(partition, Key.of(user), time, new Object[] {null, amount});
      out[i - from] = TimestampedValue.of(row, stamp(from));
    }
    return out;
  }

  private static Instant stamp(int i) {
    return new Instant(LiveStreams.FIRST_STAMP + i);
  }

  private static int mostKeysInABucket() {
    int[] perBucket = new int[LiveWindows.KEY_BUCKETS];
    int most = 0;
    for (int k = 0; k < KEYS; k++) {
      int b = Key.of("user-" + k).hashCode() & (LiveWindows.KEY_BUCKETS - 1);
      most = Math.max(most, ++perBucket[b]);
    }
    return most;
  }
}
