package io.eventtime.benchmarks;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * (c) Plain Beam on the DirectRunner over the same rows: {@code Window.into(FixedWindows)} and
 * {@code Combine.perKey} of count and sum; and the source alone (the rows, counted), the part
 * of every DirectRunner score that is not windowing. Scores are events/s.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms8g", "-Xmx8g", "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"})
public class BeamBaselineBenchmark {
  @Param({"slices"})
  public String source;

  @Setup
  public void setUp() {
    Events.rows();
  }

  @Benchmark
  @OperationsPerInvocation(Events.COUNT)
  public long plainBeamFixedWindows() {
    return DirectRunnerPipelines.plainBeam(source);
  }

  @Benchmark
  @OperationsPerInvocation(Events.COUNT)
  public long sourceOnly() {
    long n = DirectRunnerPipelines.sourceOnly(source);
    if (n != Events.COUNT) {
      throw new IllegalStateException("the source gave " + n + " rows, not " + Events.COUNT);
    }
    return n;
  }
}
