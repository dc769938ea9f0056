package io.eventtime.benchmarks;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * (d) The floor: a plain loop that adds each event to a HashMap from (key, 1 minute window start)
 * to its count and sum, then reads every entry once. No watermark, no lateness, no close order:
 * the least work any tumbling count-and-sum can do. The score is events/s.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 3, jvmArgsAppend = {"-Xms3g", "-Xmx3g"})
public class FloorBenchmark {
  private Events events;

  /** A window of one key. */
  private record KeyWindow(String key, long start) {}

  @Setup
  public void setUp() {
    events = Events.get();
  }

  @Benchmark
  @OperationsPerInvocation(Events.COUNT)
  public long hashMapLoop() {
    Map<KeyWindow, long[]> windows = new HashMap<>();
    String[] names = events.keyNames;
    int[] key = events.key;
    long[] ts = events.eventTime;
    long[] amount = events.amount;
    for (int i = 0; i < Events.COUNT; i++) {
      long start = Math.floorDiv(ts[i], Events.MINUTE) * Events.MINUTE;
      long[] countSum = windows.computeIfAbsent(new KeyWindow(names[key[i]], start), w -> new long[2]);
      countSum[0]++;
      countSum[1] += amount[i];
    }
    long check = 0;
    for (long[] countSum : windows.values()) {
      check += countSum[0] + countSum[1];
    }
    return check;
  }
}
