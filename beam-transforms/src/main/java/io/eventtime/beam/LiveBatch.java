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

  private static final DelegateCoder.CodingFunction<LiveBatch, KV<List<Long>, List<ArrivedRow>>> TO_KV =
      b -> KV.of(List.of((long) b.partition, b.sequence, b.stamp, b.watermarkAfter, b.idle ? 1L : 0L), b.rows);
  private static final DelegateCoder.CodingFunction<KV<List<Long>, List<ArrivedRow>>, LiveBatch> FROM_KV =
      kv -> new LiveBatch(kv.getKey().get(0).intValue(), kv.getKey().get(1), kv.getKey().get(2), kv.getKey().get(3),
          kv.getValue(), kv.getKey().get(4) == 1L);

  /**
   * Encodes the four numbers and the idle mark (1 or 0), and the rows with the input rows' schema.
   * Two coders for one schema are equal (the functions are shared), as a runner comparing them expects.
   */
  static Coder<LiveBatch> coder(Schema schema) {
    return DelegateCoder.of(
        KvCoder.of(ListCoder.of(VarLongCoder.of()), ListCoder.of(new ArrivedRow.ArrivedRowCoder(schema))), TO_KV, FROM_KV);
  }
}
