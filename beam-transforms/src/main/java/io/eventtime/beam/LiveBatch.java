package io.eventtime.beam;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.CustomCoder;
import org.apache.beam.sdk.coders.ListCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.util.VarInt;

/**
 * What {@link OrderPartitionFn} hands one key bucket from one release of its partition: the
 * bucket's rows of the release in position order, each with the watermark before it, and the
 * partition's watermark after the release ({@link ArrivedRow#NO_WATERMARK} while there is none).
 * {@code sequence} counts the releases sent to the bucket (0, 1, 2, ... with no gap), so that
 * {@link FoldBucketFn} can put them back in order however the runner delivers them; {@code stamp}
 * is the Beam timestamp of the release, which every output it causes carries.
 */
final class LiveBatch {
  final long sequence;
  final long stamp;
  final long watermarkAfter;
  final List<ArrivedRow> rows;

  LiveBatch(long sequence, long stamp, long watermarkAfter, List<ArrivedRow> rows) {
    this.sequence = sequence;
    this.stamp = stamp;
    this.watermarkAfter = watermarkAfter;
    this.rows = List.copyOf(rows);
  }

  /** Encodes the three numbers and the rows with the input rows' schema. */
  static final class LiveBatchCoder extends CustomCoder<LiveBatch> {
    private static final VarLongCoder LONGS = VarLongCoder.of();
    private final ListCoder<ArrivedRow> rows;

    LiveBatchCoder(Schema schema) {
      this.rows = ListCoder.of(new ArrivedRow.ArrivedRowCoder(schema));
    }

    @Override
    public void encode(LiveBatch value, OutputStream out) throws IOException {
      VarInt.encode(value.sequence, out);
      LONGS.encode(value.stamp, out);
      LONGS.encode(value.watermarkAfter, out);
      rows.encode(value.rows, out);
    }

    @Override
    public LiveBatch decode(InputStream in) throws IOException {
      long sequence = VarInt.decodeLong(in);
      long stamp = LONGS.decode(in);
      long watermarkAfter = LONGS.decode(in);
      return new LiveBatch(sequence, stamp, watermarkAfter, rows.decode(in));
    }

    @Override
    public List<? extends Coder<?>> getCoderArguments() {
      return List.of(rows);
    }

    @Override
    public void verifyDeterministic() throws NonDeterministicException {
      rows.verifyDeterministic();
    }
  }
}
