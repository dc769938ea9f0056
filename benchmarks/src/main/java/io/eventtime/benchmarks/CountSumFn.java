package io.eventtime.benchmarks;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.beam.sdk.coders.AtomicCoder;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.CoderRegistry;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.transforms.Combine;
import org.apache.beam.sdk.values.KV;

/**
 * Plain Beam's side of the benchmarks: {@code count(*)} and {@code sum(amount)} of one key's window
 * in one accumulator, folded in place, as (count, sum). Shared by {@link RunnerBenchmark} and the
 * live benchmark of {@code benchmarks/flink}.
 */
public final class CountSumFn extends Combine.CombineFn<Long, CountSumFn.CountSum, KV<Long, Long>> {
  /** The accumulator: a count and a sum. */
  public static final class CountSum {
    long count;
    long sum;
  }

  @Override
  public CountSum createAccumulator() {
    return new CountSum();
  }

  @Override
  public CountSum addInput(CountSum a, Long amount) {
    a.count++;
    a.sum += amount;
    return a;
  }

  @Override
  public CountSum mergeAccumulators(Iterable<CountSum> accumulators) {
    CountSum merged = new CountSum();
    for (CountSum a : accumulators) {
      merged.count += a.count;
      merged.sum += a.sum;
    }
    return merged;
  }

  @Override
  public KV<Long, Long> extractOutput(CountSum a) {
    return KV.of(a.count, a.sum);
  }

  @Override
  public Coder<CountSum> getAccumulatorCoder(CoderRegistry registry, Coder<Long> inputCoder) {
    return new CountSumCoder();
  }

  /** The accumulator as two varints. */
  static final class CountSumCoder extends AtomicCoder<CountSum> {
    @Override
    public void encode(CountSum a, OutputStream out) throws IOException {
      VarLongCoder.of().encode(a.count, out);
      VarLongCoder.of().encode(a.sum, out);
    }

    @Override
    public CountSum decode(InputStream in) throws IOException {
      CountSum a = new CountSum();
      a.count = VarLongCoder.of().decode(in);
      a.sum = VarLongCoder.of().decode(in);
      return a;
    }
  }
}
