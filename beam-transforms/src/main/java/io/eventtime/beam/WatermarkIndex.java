package io.eventtime.beam;

import java.io.Serializable;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.CoderRegistry;
import org.apache.beam.sdk.coders.MapCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.transforms.Combine;
import org.apache.beam.sdk.values.KV;

/**
 * The latest event time among all rows before each block of arrival positions: a prefix maximum
 * over the blocks' own maxima. With it, the watermark before any row is known from the rows of
 * its own block alone, so blocks are processed in parallel.
 */
final class WatermarkIndex implements Serializable {
  private final long[] blocks;
  private final long[] maxBefore;
  private final long carriedMax;

  private WatermarkIndex(long[] blocks, long[] maxBefore, long carriedMax) {
    this.blocks = blocks;
    this.maxBefore = maxBefore;
    this.carriedMax = carriedMax;
  }

  /**
   * The latest event time of all rows in blocks before {@code block}, including a maximum
   * carried from earlier runs; {@link ArrivedRow#NO_WATERMARK} when there is none.
   */
  long maxBefore(long block) {
    int i = Arrays.binarySearch(blocks, block);
    if (i < 0) {
      i = -i - 1;
    }
    return i == 0 ? carriedMax : maxBefore[i];
  }

  /** The latest event time of all rows, or {@link ArrivedRow#NO_WATERMARK} when there were none. */
  long overallMax() {
    return maxBefore[blocks.length];
  }

  /** Gathers each block's maximum event time, and builds the index from them. */
  static final class BuildFn extends Combine.CombineFn<KV<Long, Long>, Map<Long, Long>, WatermarkIndex> {
    private final long carriedMax;

    /** {@code carriedMax}: the latest event time of earlier runs, or NO_WATERMARK. */
    BuildFn(long carriedMax) {
      this.carriedMax = carriedMax;
    }

    @Override
    public Map<Long, Long> createAccumulator() {
      return new HashMap<>();
    }

    @Override
    public Map<Long, Long> addInput(Map<Long, Long> acc, KV<Long, Long> blockAndTime) {
      acc.merge(blockAndTime.getKey(), blockAndTime.getValue(), Math::max);
      return acc;
    }

    @Override
    public Map<Long, Long> mergeAccumulators(Iterable<Map<Long, Long>> accs) {
      Map<Long, Long> merged = new HashMap<>();
      for (Map<Long, Long> a : accs) {
        a.forEach((k, v) -> merged.merge(k, v, Math::max));
      }
      return merged;
    }

    @Override
    public WatermarkIndex extractOutput(Map<Long, Long> acc) {
      long[] blocks = acc.keySet().stream().mapToLong(Long::longValue).sorted().toArray();
      long[] maxBefore = new long[blocks.length + 1];
      long running = carriedMax;
      for (int i = 0; i < blocks.length; i++) {
        maxBefore[i] = running;
        running = Math.max(running, acc.get(blocks[i]));
      }
      maxBefore[blocks.length] = running;
      return new WatermarkIndex(blocks, maxBefore, carriedMax);
    }

    @Override
    public Coder<Map<Long, Long>> getAccumulatorCoder(CoderRegistry registry, Coder<KV<Long, Long>> inputCoder) {
      return MapCoder.of(VarLongCoder.of(), VarLongCoder.of());
    }
  }
}
