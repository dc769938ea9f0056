package io.eventtime.beam;

import io.eventtime.core.Watermark;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.Serializable;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.apache.beam.sdk.coders.AtomicCoder;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.CoderRegistry;
import org.apache.beam.sdk.transforms.Combine;
import org.apache.beam.sdk.util.VarInt;
import org.apache.beam.sdk.values.KV;

/**
 * The latest event time among all rows before each block of arrival positions: a prefix maximum
 * over the blocks' own maxima. With it, the watermark before any row is bounded from its block
 * alone, and known exactly from the rows of its block, so blocks are processed in parallel.
 */
final class WatermarkIndex implements Serializable {
  private final long[] blocks;
  private final long[] maxBefore;
  private final long lastPosition;

  private WatermarkIndex(long[] blocks, long[] maxBefore, long lastPosition) {
    this.blocks = blocks;
    this.maxBefore = maxBefore;
    this.lastPosition = lastPosition;
  }

  /**
   * The latest event time of all rows in blocks before {@code block}, including a maximum
   * carried from earlier runs; {@link ArrivedRow#NO_WATERMARK} when there is none.
   */
  long maxBefore(long block) {
    return maxBefore[indexOf(block)];
  }

  /** The latest event time of all rows in {@code block} and the blocks before it. */
  long maxThrough(long block) {
    int i = Arrays.binarySearch(blocks, block);
    return i < 0 ? maxBefore[-i - 1] : maxBefore[i + 1];
  }

  /** The latest event time of all rows, or {@link ArrivedRow#NO_WATERMARK} when there were none. */
  long overallMax() {
    return maxBefore[blocks.length];
  }

  /** The watermark at the end of the input: what decides which windows a run that holds its state emits. */
  long watermarkAtEnd(long delay) {
    return Watermark.after(overallMax(), delay);
  }

  /** The last arrival position of this run, or {@link Long#MIN_VALUE} when no row arrived. */
  long lastPosition() {
    return lastPosition;
  }

  private int indexOf(long block) {
    int i = Arrays.binarySearch(blocks, block);
    return i < 0 ? -i - 1 : i;
  }

  /**
   * Builds the index from the blocks' positions and times, as a side input; {@code carriedMax} is
   * the latest event time of the runs before, null when there is none.
   */
  static Combine.GloballyAsSingletonView<KV<Long, ArrivalTimes>, WatermarkIndex> asView(Long carriedMax) {
    return Combine.globally(new BuildFn(carriedMax == null ? ArrivedRow.NO_WATERMARK : carriedMax)).asSingletonView();
  }

  /** Each block's latest event time, and the last arrival position seen. */
  static final class Maxima {
    final Map<Long, Long> byBlock = new HashMap<>();
    long lastPosition = Long.MIN_VALUE;
  }

  /** Gathers each block's maximum event time, and builds the index from them. */
  static final class BuildFn extends Combine.CombineFn<KV<Long, ArrivalTimes>, Maxima, WatermarkIndex> {
    private final long carriedMax;

    /** {@code carriedMax}: the latest event time of earlier runs, or NO_WATERMARK. */
    BuildFn(long carriedMax) {
      this.carriedMax = carriedMax;
    }

    @Override
    public Maxima createAccumulator() {
      return new Maxima();
    }

    @Override
    public Maxima addInput(Maxima acc, KV<Long, ArrivalTimes> block) {
      acc.byBlock.merge(block.getKey(), block.getValue().maxTime(), Math::max);
      acc.lastPosition = Math.max(acc.lastPosition, block.getValue().lastPosition());
      return acc;
    }

    @Override
    public Maxima mergeAccumulators(Iterable<Maxima> accs) {
      Maxima merged = new Maxima();
      for (Maxima a : accs) {
        a.byBlock.forEach((k, v) -> merged.byBlock.merge(k, v, Math::max));
        merged.lastPosition = Math.max(merged.lastPosition, a.lastPosition);
      }
      return merged;
    }

    @Override
    public WatermarkIndex extractOutput(Maxima acc) {
      long[] blocks = acc.byBlock.keySet().stream().mapToLong(Long::longValue).sorted().toArray();
      long[] maxBefore = new long[blocks.length + 1];
      long running = carriedMax;
      for (int i = 0; i < blocks.length; i++) {
        maxBefore[i] = running;
        running = Math.max(running, acc.byBlock.get(blocks[i]));
      }
      maxBefore[blocks.length] = running;
      return new WatermarkIndex(blocks, maxBefore, acc.lastPosition);
    }

    @Override
    public Coder<Maxima> getAccumulatorCoder(CoderRegistry registry, Coder<KV<Long, ArrivalTimes>> inputCoder) {
      return MaximaCoder.INSTANCE;
    }

    @Override
    public Coder<WatermarkIndex> getDefaultOutputCoder(CoderRegistry registry, Coder<KV<Long, ArrivalTimes>> inputCoder) {
      return IndexCoder.INSTANCE;
    }
  }

  /** The index as its numbers: the blocks, the prefix maxima (the carried maximum is in them), the last position. */
  static final class IndexCoder extends AtomicCoder<WatermarkIndex> {
    static final IndexCoder INSTANCE = new IndexCoder();

    @Override
    public void encode(WatermarkIndex value, OutputStream out) throws IOException {
      VarInt.encode(value.blocks.length, out);
      for (int i = 0; i < value.blocks.length; i++) {
        VarInt.encode(value.blocks[i], out);
        VarInt.encode(value.maxBefore[i], out);
      }
      VarInt.encode(value.maxBefore[value.blocks.length], out);
      VarInt.encode(value.lastPosition, out);
    }

    @Override
    public WatermarkIndex decode(InputStream in) throws IOException {
      int n = VarInt.decodeInt(in);
      long[] blocks = new long[n];
      long[] maxBefore = new long[n + 1];
      for (int i = 0; i < n; i++) {
        blocks[i] = VarInt.decodeLong(in);
        maxBefore[i] = VarInt.decodeLong(in);
      }
      maxBefore[n] = VarInt.decodeLong(in);
      return new WatermarkIndex(blocks, maxBefore, VarInt.decodeLong(in));
    }
  }

  private static final class MaximaCoder extends AtomicCoder<Maxima> {
    static final MaximaCoder INSTANCE = new MaximaCoder();

    @Override
    public void encode(Maxima value, OutputStream out) throws IOException {
      VarInt.encode(value.lastPosition, out);
      VarInt.encode(value.byBlock.size(), out);
      for (Map.Entry<Long, Long> e : value.byBlock.entrySet()) {
        VarInt.encode(e.getKey(), out);
        VarInt.encode(e.getValue(), out);
      }
    }

    @Override
    public Maxima decode(InputStream in) throws IOException {
      Maxima value = new Maxima();
      value.lastPosition = VarInt.decodeLong(in);
      int n = VarInt.decodeInt(in);
      for (int i = 0; i < n; i++) {
        value.byBlock.put(VarInt.decodeLong(in), VarInt.decodeLong(in));
      }
      return value;
    }
  }
}
