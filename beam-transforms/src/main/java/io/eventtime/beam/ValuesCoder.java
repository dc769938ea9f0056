package io.eventtime.beam;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Instant;
import org.apache.beam.sdk.coders.AtomicCoder;
import org.apache.beam.sdk.coders.CoderException;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.util.VarInt;

/**
 * Encodes an array of core values (null, Long, Double, String, Boolean, Instant), each behind a
 * type tag. The encoding is deterministic, so it can encode grouping keys.
 */
final class ValuesCoder extends AtomicCoder<Object[]> {
  private static final ValuesCoder INSTANCE = new ValuesCoder();
  private static final StringUtf8Coder STRINGS = StringUtf8Coder.of();

  static ValuesCoder of() {
    return INSTANCE;
  }

  @Override
  public void encode(Object[] values, OutputStream out) throws IOException {
    VarInt.encode(values.length, out);
    for (Object v : values) {
      encodeValue(v, out);
    }
  }

  @Override
  public Object[] decode(InputStream in) throws IOException {
    int n = VarInt.decodeInt(in);
    Object[] values = new Object[n];
    for (int i = 0; i < n; i++) {
      values[i] = decodeValue(in);
    }
    return values;
  }

  /** Writes one value behind its type tag. */
  static void encodeValue(Object v, OutputStream out) throws IOException {
    if (v == null) {
      out.write(0);
    } else if (v instanceof Long l) {
      out.write(1);
      VarInt.encode(l, out);
    } else if (v instanceof Double d) {
      out.write(2);
      writeDouble(d, out);
    } else if (v instanceof String s) {
      out.write(3);
      STRINGS.encode(s, out);
    } else if (v instanceof Boolean b) {
      out.write(b ? 4 : 5);
    } else if (v instanceof Instant i) {
      out.write(6);
      VarInt.encode(i.getEpochSecond(), out);
      VarInt.encode(i.getNano(), out);
    } else {
      throw new CoderException("cannot encode a value of type " + v.getClass().getName());
    }
  }

  /** Reads one value written by {@link #encodeValue}. */
  static Object decodeValue(InputStream in) throws IOException {
    int tag = in.read();
    switch (tag) {
      case 0:
        return null;
      case 1:
        return VarInt.decodeLong(in);
      case 2:
        return readDouble(in);
      case 3:
        return STRINGS.decode(in);
      case 4:
        return Boolean.TRUE;
      case 5:
        return Boolean.FALSE;
      case 6:
        long seconds = VarInt.decodeLong(in);
        return Instant.ofEpochSecond(seconds, VarInt.decodeInt(in));
      default:
        throw new CoderException("unknown value tag " + tag);
    }
  }

  static void writeDouble(double d, OutputStream out) throws IOException {
    long bits = Double.doubleToLongBits(d);
    for (int shift = 56; shift >= 0; shift -= 8) {
      out.write((int) (bits >>> shift));
    }
  }

  static double readDouble(InputStream in) throws IOException {
    long bits = 0;
    for (int b = 0; b < 8; b++) {
      int x = in.read();
      if (x < 0) {
        throw new CoderException("truncated double");
      }
      bits = (bits << 8) | x;
    }
    return Double.longBitsToDouble(bits);
  }

  @Override
  public void verifyDeterministic() {}
}
