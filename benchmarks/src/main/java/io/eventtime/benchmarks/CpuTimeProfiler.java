package io.eventtime.benchmarks;

import java.lang.management.ManagementFactory;
import java.util.Collection;
import java.util.List;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * Scores each iteration also by the CPU time the whole benchmark JVM spent on it (every thread:
 * the runner's workers, GC, JIT): events per CPU-second, and the cores used on average. On a
 * machine shared with other work, wall-clock throughput swings with the neighbours' load; the
 * CPU time an event costs moves much less. Use with {@code -prof io.eventtime.benchmarks.CpuTimeProfiler}.
 */
public final class CpuTimeProfiler implements InternalProfiler {
  private final com.sun.management.OperatingSystemMXBean os =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
  private long cpuAtStart;
  private long wallAtStart;

  @Override
  public String getDescription() {
    return "events per second of process CPU time, and the cores used";
  }

  @Override
  public void beforeIteration(BenchmarkParams benchmark, IterationParams iteration) {
    cpuAtStart = os.getProcessCpuTime();
    wallAtStart = System.nanoTime();
  }

  @Override
  public Collection<? extends Result> afterIteration(BenchmarkParams benchmark, IterationParams iteration,
      IterationResult result) {
    double cpuSeconds = (os.getProcessCpuTime() - cpuAtStart) / 1e9;
    double wallSeconds = (System.nanoTime() - wallAtStart) / 1e9;
    long events = result.getMetadata().getAllOps();
    return List.of(
        new ScalarResult("events/cpu-s", events / cpuSeconds, "events/cpu-s", AggregationPolicy.AVG),
        new ScalarResult("cores", cpuSeconds / wallSeconds, "cores", AggregationPolicy.AVG));
  }
}
