package io.eventtime.beam;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Arrays;
import org.apache.beam.sdk.coders.RowCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.util.VarInt;
import org.apache.beam.sdk.values.Row;

/**
 * A row with its arrival position, its event time and the watermark before it
 * ({@link Long#MIN_VALUE} while not known, or when no row came before it).
 */
final class ArrivedRow {
  static final long NO_WATERMARK = Long.MIN_VALUE;

  final long position;
  final long eventTime;
  final long watermark;
  final Row row;

  ArrivedRow(long position, long eventTime, long watermark, Row row) {
    this.position = position;
    this.eventTime = eventTime;
    this.watermark = watermark;
    this.row = row;
  }

  ArrivedRow withWatermark(long wm) {
    return new ArrivedRow(position, eventTime, wm, row);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ArrivedRow a && a.position == position && a.eventTime == eventTime
        && a.watermark == watermark && a.row.equals(row);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(new long[] {position, eventTime, watermark}) * 31 + row.hashCode();
  }

  /** Encodes the three longs and the row with the row's schema. */
  static final class ArrivedRowCoder extends WrappingCoder<ArrivedRow, RowCoder> {
    private static final VarLongCoder LONGS = VarLongCoder.of();

    ArrivedRowCoder(Schema schema) {
      super(RowCoder.of(schema));
    }

    @Override
    public void encode(ArrivedRow value, OutputStream out) throws IOException {
      VarInt.encode(value.position, out);
      LONGS.encode(value.eventTime, out);
      LONGS.encode(value.watermark, out);
      inner.encode(value.row, out);
    }

    @Override
    public ArrivedRow decode(InputStream in) throws IOException {
      long position = VarInt.decodeLong(in);
      long eventTime = LONGS.decode(in);
      long watermark = LONGS.decode(in);
      return new ArrivedRow(position, eventTime, watermark, inner.decode(in));
    }
  }
}
