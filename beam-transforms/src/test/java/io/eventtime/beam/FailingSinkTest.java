package io.eventtime.beam;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.eventtime.core.AggregateSpec;
import io.eventtime.core.OpenState;
import io.eventtime.core.TimeText;
import io.eventtime.core.WindowSpec;
import io.eventtime.core.state.StateStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.metrics.MetricResults;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.Row;
import org.joda.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sink of the window rows that fails: the run fails, and the state carried between runs stays
 * as it was, although the transform writes its hand-off whatever becomes of the rows downstream.
 */
class FailingSinkTest {
  @TempDir
  Path dir;

  private final EventTimeWindow window = EventTimeWindow.of(WindowSpec.tumbling(10 * 60_000)).withTimeField("t")
      .withAggregates(AggregateSpec.countAll("n"));

  /**
   * Fails on every window row, as a sink whose disk is full would, once the run's state hand-off
   * is in {@code stateDirectory}: the failure then reaches the test with the state's writer done
   * with the folder, so the test sees a hand-off that must not be committed, and nothing writes
   * into the folder after the test (and its clean-up) moved on. A hand-off that never comes within
   * a minute fails the sink all the same.
   */
  static final class FailingSinkFn extends DoFn<Row, Void> {
    private final String stateDirectory;

    FailingSinkFn(Path stateDirectory) {
      this.stateDirectory = stateDirectory.toString();
    }

    @ProcessElement
    public void process(@Element Row row) throws IOException, InterruptedException {
      long giveUp = System.nanoTime() + 60_000_000_000L;
      while (!handedOff(Path.of(stateDirectory)) && System.nanoTime() < giveUp) {
        Thread.sleep(20);
      }
      throw new IOException("no space left on device");
    }

    private static boolean handedOff(Path directory) throws IOException {
      try (java.util.stream.Stream<Path> files = Files.list(directory)) {
        return files.map(f -> f.getFileName().toString()).anyMatch(n -> n.startsWith("handoff-") && n.endsWith(".json"));
      }
    }
  }

  private Path input(String name, String... times) throws IOException {
    Path file = dir.resolve(name);
    Files.write(file, java.util.Arrays.stream(times).map(t -> "{\"t\":\"2026-03-01 " + t + ":00\"}").toList());
    return file;
  }

  private OpenState load(Path state) {
    try (StateStore store = StateStore.open(state, window.query(), window.timeField())) {
      return store.load();
    }
  }

  @Test
  void aRunWhoseSinkFailsFails_andLeavesTheStateAsItWas() throws IOException {
    aRunWhoseSinkFailsFails(dir.resolve("state"));
  }

  private void aRunWhoseSinkFailsFails(Path state) throws IOException {
    try (EventTimeState s = EventTimeState.open(state, window)) {
      Pipeline p = Pipeline.create(PipelineOptionsFactory.fromArgs("--runner=DirectRunner").create());
      p.apply(NdjsonIO.read(input("run1.ndjson", "00:01", "00:12").toString())).rows().apply(window.withState(s));
      PipelineResult r = p.run();
      r.waitUntilFinish();
      s.commit(r);
    }
    OpenState before = load(state);
    assertThat(before.windows()).singleElement().satisfies(w -> assertThat(TimeText.format(w.start()))
        .isEqualTo("2026-03-01 00:10:00"));
    byte[] stored = Files.readAllBytes(state.resolve("state.json"));

    try (EventTimeState s = EventTimeState.open(state, window)) {
      Pipeline p = Pipeline.create(PipelineOptionsFactory.fromArgs("--runner=DirectRunner").create());
      p.apply(NdjsonIO.read(input("run2.ndjson", "00:15", "00:31").toString())).rows().apply(window.withState(s))
          .windows().apply("Sink", ParDo.of(new FailingSinkFn(state)));
      assertThatThrownBy(() -> p.run().waitUntilFinish()).hasRootCauseMessage("no space left on device");
      assertThat(Files.readAllBytes(state.resolve("state.json"))).isEqualTo(stored);
    }
    assertThat(Files.readAllBytes(state.resolve("state.json"))).isEqualTo(stored);
  }

  @Test
  void commitRefusesARunThatDidNotEndDone() {
    try (EventTimeState s = EventTimeState.open(dir.resolve("state"), window)) {
      assertThatThrownBy(() -> s.commit(new Ended(PipelineResult.State.FAILED)))
          .isInstanceOf(IllegalStateException.class)
          .hasMessage("the run ended FAILED, not DONE: its state is not committed, so the next run starts from the"
              + " state as it was");
      assertThatThrownBy(() -> s.commit(new Ended(PipelineResult.State.RUNNING)))
          .hasMessageStartingWith("the run ended RUNNING, not DONE");
    }
    assertThat(Files.exists(dir.resolve("state").resolve("state.json"))).isFalse();
  }

  /** A run that ended in a given state. */
  private record Ended(PipelineResult.State state) implements PipelineResult {
    @Override
    public State getState() {
      return state;
    }

    @Override
    public State cancel() {
      return state;
    }

    @Override
    public State waitUntilFinish(Duration duration) {
      return state;
    }

    @Override
    public State waitUntilFinish() {
      return state;
    }

    @Override
    public MetricResults metrics() {
      throw new UnsupportedOperationException();
    }
  }
}
