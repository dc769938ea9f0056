package io.eventtime.benchmarks;

import io.eventtime.core.Key;
import io.eventtime.core.WindowProcessor;
import io.eventtime.core.WindowQuery;
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
 * (a) The core {@link WindowProcessor} alone: one pass over the events in arrival order, count(*)
 * and sum(amount) per key, every window emitted to a sink that sums the counts. Keys and inputs
 * are built before the measurement, as a source would hand them over. The score is events/s.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms3g", "-Xmx3g"})
public class CoreBenchmark {
  @Param({"tumbling", "hopping", "session"})
  public String window;

  @Param({"window", "event"})
  public String policy;

  private Events events;
  private Key[] keys;
  private Object[][] inputs;
  private WindowQuery query;

  @Setup
  public void setUp() {
    events = Events.get();
    keys = events.coreKeys();
    inputs = events.countAndSumInputs();
    query = Events.query(window, policy);
  }

  @Benchmark
  @OperationsPerInvocation(Events.COUNT)
  public long processor() {
    long[] counted = new long[1];
    WindowProcessor p = new WindowProcessor(query, w -> counted[0] += (Long) w.values()[0]);
    int[] key = events.key;
    long[] ts = events.eventTime;
    for (int i = 0; i < Events.COUNT; i++) {
      p.process(keys[key[i]], ts[i], inputs[i]);
    }
    p.finish();
    return counted[0] + p.stats().lateDropped();
  }
}
