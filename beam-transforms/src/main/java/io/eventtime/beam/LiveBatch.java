package io.eventtime.beam;

import java.util.List;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.DelegateCoder;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.ListCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.values.KV;

/**
 * What {@link OrderPartitionFn} hands one key bucket from one release of its partition (by its
 * place in partition order, {@code partition}): the
 * bucket's rows of the release in position order, each with the watermark before it, and the
 * partition's watermark after the release ({@link ArrivedRow#NO_WATERMARK} while there is none).
 * {@code sequence} counts the partition's releases sent to the bucket (0, 1, 2, ... with no gap), so that
 * {@link FoldBucketFn} can put them back in order however the runner delivers them; {@code stamp}
 * is the Beam timestamp of the release, which every output it causes carries. {@code idle} marks
 * a release without rows that the idle timeout made: the partition had no row for the timeout and
 * {@code watermarkAfter} is the wall clock less the delay.
 */
final class LiveBatch {
  /** The partition place of a {@link #start} marker: none. */
  private static final int START = -1;
  final int partition;
  final long sequence;
  final long stamp;
  final long watermarkAfter;
  final List<ArrivedRow> rows;
  final boolean idle;

  LiveBatch(int partition, long sequence, long stamp, long watermarkAfter, List<ArrivedRow> rows) {
    this(partition, sequence, stamp, watermarkAfter, rows, false);
  }

  LiveBatch(int partition, long sequence, long stamp, long watermarkAfter, List<ArrivedRow> rows, boolean idle) {
    this.partition = partition;
    this.sequence = sequence;
    this.stamp = stamp;
    this.watermarkAfter = watermarkAfter;
    this.rows = List.copyOf(rows);
    this.idle = idle;
  }

  /**
   * The marker that starts a key bucket of a run that keeps a state, one per bucket at the start
   * of the run: the bucket takes up its part of the stored state and sets its end timer, so that
   * it hands its windows on at the end even when no release comes to it.
   */
  static LiveBatch start() {
    return new LiveBatch(START, 0, Long.MIN_VALUE, ArrivedRow.NO_WATERMARK, List.of());
  }

  boolean isStart() {
    return partition == START;
  }

  /**
   * The batch as its numbers and rows. A class of its own, equal to every instance of it, not a
   * lambda: a coder that was serialized and read back (as Create's is) must still equal the
   * original, or Flink refuses to flatten the two streams ("cannot union streams of different
   * types").
   */
  private static final class ToKv implements DelegateCoder.CodingFunction<LiveBatch, KV<List<Long>, List<ArrivedRow>>> {
    @Override
    public KV<List<Long>, List<ArrivedRow>> apply(LiveBatch b) {
      return KV.of(List.of((long) b.partition, b.sequence, b.stamp, b.watermarkAfter, b.idle ? 1L : 0L), b.rows);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof ToKv;
    }

    @Override
    public int hashCode() {
      return ToKv.class.hashCode();
    }
  }

  /** The batch back from its numbers and rows; equal to every instance of it, as {@link ToKv}. */
  private static final class FromKv implements DelegateCoder.CodingFunction<KV<List<Long>, List<ArrivedRow>>, LiveBatch> {
    @Override
    public LiveBatch apply(KV<List<Long>, List<ArrivedRow>> kv) {
      return new LiveBatch(kv.getKey().get(0).intValue(), kv.getKey().get(1), kv.getKey().get(2), kv.getKey().get(3),
          kv.getValue(), kv.getKey().get(4) == 1L);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof FromKv;
    }

    @Override
    public int hashCode() {
      return FromKv.class.hashCode();
    }
  }

  private static final ToKv TO_KV = new ToKv();
  private static final FromKv FROM_KV = new FromKv();

  /**
   * Encodes the four numbers and the idle mark (1 or 0), and the rows with the input rows' schema.
   * Two coders for one schema are equal, also after one was serialized and read back, as a runner
   * comparing them expects.
   */
  static Coder<LiveBatch> coder(Schema schema) {
    return DelegateCoder.of(
        KvCoder.of(ListCoder.of(VarLongCoder.of()), ListCoder.of(new ArrivedRow.ArrivedRowCoder(schema))), TO_KV, FROM_KV);
  }
}
