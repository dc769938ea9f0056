package io.eventtime.beam;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Arrays;
import org.apache.commons.io.input.UnsynchronizedByteArrayInputStream;
import org.apache.commons.io.output.UnsynchronizedByteArrayOutputStream;
import org.apache.beam.sdk.coders.AtomicCoder;
import org.apache.beam.sdk.coders.CoderException;
import org.apache.beam.sdk.util.VarInt;

/**
 * The arrival positions and event times of some rows of one block, packed: all the watermark
 * needs to know of a row, so that lateness can be worked out without moving the rows themselves.
 */
final class ArrivalTimes {
  private long[] positions;
  private long[] times;
  private int size;

  ArrivalTimes() {
    this(16);
  }

  private ArrivalTimes(int capacity) {
    positions = new long[capacity];
    times = new long[capacity];
  }

  void add(long position, long eventTime) {
    if (size == positions.length) {
      positions = Arrays.copyOf(positions, size * 2);
      times = Arrays.copyOf(times, size * 2);
    }
    positions[size] = position;
    times[size] = eventTime;
    size++;
  }

  int size() {
    return size;
  }

  long position(int i) {
    return positions[i];
  }

  long time(int i) {
    return times[i];
  }

  /** The latest event time among these rows, or {@link ArrivedRow#NO_WATERMARK} when there are none. */
  long maxTime() {
    long max = ArrivedRow.NO_WATERMARK;
    for (int i = 0; i < size; i++) {
      max = Math.max(max, times[i]);
    }
    return max;
  }

  /** The last arrival position among these rows, or {@link Long#MIN_VALUE} when there are none. */
  long lastPosition() {
    long last = Long.MIN_VALUE;
    for (int i = 0; i < size; i++) {
      last = Math.max(last, positions[i]);
    }
    return last;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ArrivalTimes a && a.size == size
        && Arrays.equals(a.positions, 0, size, positions, 0, size)
        && Arrays.equals(a.times, 0, size, times, 0, size);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(Arrays.copyOf(positions, size)) + Arrays.hashCode(Arrays.copyOf(times, size));
  }

  /**
   * Positions and times as differences from the previous pair: rows of a block arrive close
   * together and mostly in time order, so most differences take a byte or two. The pairs go out
   * and in as one block of bytes, through commons-io's array streams without locks: a variable
   * length number is written and read a byte at a time, and a runner's own streams may lock on
   * each call (Beam's Spark runner encodes into {@code java.io}'s).
   */
  static final class ArrivalTimesCoder extends AtomicCoder<ArrivalTimes> {
    private static final ArrivalTimesCoder INSTANCE = new ArrivalTimesCoder();

    static ArrivalTimesCoder of() {
      return INSTANCE;
    }

    @Override
    public void encode(ArrivalTimes value, OutputStream out) throws IOException {
      UnsynchronizedByteArrayOutputStream block =
          UnsynchronizedByteArrayOutputStream.builder().setBufferSize(Math.max(32, value.size * 4)).get();
      long position = 0;
      long time = 0;
      for (int i = 0; i < value.size; i++) {
        VarInt.encode(zigZag(value.positions[i] - position), block);
        VarInt.encode(zigZag(value.times[i] - time), block);
        position = value.positions[i];
        time = value.times[i];
      }
      VarInt.encode(value.size, out);
      VarInt.encode(block.size(), out);
      block.writeTo(out);
    }

    @Override
    public ArrivalTimes decode(InputStream in) throws IOException {
      int n = VarInt.decodeInt(in);
      int length = VarInt.decodeInt(in);
      if (n < 0 || length < 0 || n > length / 2) { // a pair takes two bytes at least
        throw new CoderException(n + " arrival times in " + length + " bytes cannot be read");
      }
      byte[] bytes = in.readNBytes(length);
      if (bytes.length != length) {
        throw new CoderException(n + " arrival times ended after " + bytes.length + " of their " + length + " bytes");
      }
      InputStream block = UnsynchronizedByteArrayInputStream.builder().setByteArray(bytes).get();
      ArrivalTimes value = new ArrivalTimes(Math.max(n, 1));
      long position = 0;
      long time = 0;
      for (int i = 0; i < n; i++) {
        position += unZigZag(VarInt.decodeLong(block));
        time += unZigZag(VarInt.decodeLong(block));
        value.add(position, time);
      }
      if (block.available() > 0) {
        throw new CoderException(block.available() + " bytes were left after " + n + " arrival times");
      }
      return value;
    }

    @Override
    public void verifyDeterministic() {}

    private static long zigZag(long v) {
      return (v << 1) ^ (v >> 63);
    }

    private static long unZigZag(long v) {
      return (v >>> 1) ^ -(v & 1);
    }
  }
}
