package io.eventtime.benchmarks;

import io.eventtime.core.Key;
import io.eventtime.core.Stats;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * (b) The {@code EventTimeWindow} PTransform on the DirectRunner, over the events as rows (see
 * {@link DirectRunnerPipelines} for the sources). Each invocation builds and runs one whole pipeline; the score is events/s. At
 * the end the transform's stats are checked against the core processor's over the same events.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms8g", "-Xmx8g", "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"})
public class BeamTransformBenchmark {
  @Param({"tumbling"})
  public String window;

  @Param({"window", "event"})
  public String policy;

  @Param({"slices"})
  public String source;

  private WindowQuery query;
  private Stats last;

  @Setup
  public void setUp() {
    Events.rows();
    query = Events.query(window, policy);
  }

  @Benchmark
  @OperationsPerInvocation(Events.COUNT)
  public long eventTimeWindow() {
    last = DirectRunnerPipelines.eventTimeWindow(source, query);
    return last.rowsOut();
  }

  /** The transform must have done the same work as the core processor, or the score means nothing. */
  @TearDown
  public void checkAgainstCore() {
    Events events = Events.get();
    Key[] keys = events.coreKeys();
    Object[][] inputs = events.countAndSumInputs();
    WindowProcessor p = new WindowProcessor(query, w -> {});
    for (int i = 0; i < Events.COUNT; i++) {
      p.process(keys[events.key[i]], events.eventTime[i], inputs[i]);
    }
    p.finish();
    if (!p.stats().equals(last)) {
      throw new IllegalStateException("the transform's stats " + last + " differ from the core's " + p.stats());
    }
    System.out.println("stats (equal to the core processor's): " + last.toJson());
  }
}
