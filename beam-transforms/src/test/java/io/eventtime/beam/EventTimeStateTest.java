package io.eventtime.beam;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.eventtime.core.AggregateSpec;
import io.eventtime.core.OpenState;
import io.eventtime.core.TimeText;
import io.eventtime.core.WindowSpec;
import io.eventtime.core.state.StateCodec;
import io.eventtime.core.state.StateException;
import io.eventtime.core.state.StateStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The state carried between runs, at a location given as a {@code file:} URI, as a plain path,
 * and kept through Beam's file systems alone (as on HDFS, GCS or S3): two runs in a row go on
 * where the first stopped, and a run that fails commits nothing.
 */
class EventTimeStateTest {
  @TempDir
  Path dir;

  private final EventTimeWindow window = EventTimeWindow.of(WindowSpec.tumbling(10 * 60_000)).withTimeField("t")
      .withAggregates(AggregateSpec.countAll("n"));

  @Test
  void aStateAtAFileUriGoesOnFromRunToRun() throws IOException {
    Path state = dir.resolve("state");
    String location = state.toUri().toString();
    assertThat(location).startsWith("file:///");
    goesOnFromRunToRun(() -> EventTimeState.open(location, window), state);
    assertThat(Files.exists(state.resolve(StateStore.LOCK_FILE))).as("locked as core's store").isTrue();
  }

  @Test
  void aStateAtAPlainPathGivenAsTextGoesOnFromRunToRun() throws IOException {
    Path state = dir.resolve("state");
    goesOnFromRunToRun(() -> EventTimeState.open(state.toString(), window), state);
    assertThat(Files.exists(state.resolve(StateStore.LOCK_FILE))).as("locked as core's store").isTrue();
  }

  @Test
  void aStateKeptThroughBeamFileSystemsAloneGoesOnFromRunToRun() throws IOException {
    Path state = dir.resolve("shared");
    goesOnFromRunToRun(() -> onFileSystem(state), state);
    assertThat(Files.exists(state.resolve(StateStore.LOCK_FILE))).as("no lock on other file systems").isFalse();
  }

  @Test
  void aRunThatFailsCommitsNothingToAStateKeptThroughBeamFileSystems() throws IOException {
    Path state = dir.resolve("shared");
    try (EventTimeState s = onFileSystem(state)) {
      run(s, "run1.ndjson", List.of("00:00|00:10|1"), "00:01", "00:12");
    }
    byte[] stored = Files.readAllBytes(state.resolve(StateStore.STATE_FILE));

    try (EventTimeState s = onFileSystem(state)) {
      Pipeline p = pipeline();
      p.apply(NdjsonIO.read(input("run2.ndjson", "00:15", "00:31").toString())).rows().apply(window.withState(s))
          .windows().apply("Sink", ParDo.of(new FailingSinkTest.FailingSinkFn(state)));
      assertThatThrownBy(() -> p.run().waitUntilFinish()).hasRootCauseMessage("no space left on device");
      assertThat(Files.readAllBytes(state.resolve(StateStore.STATE_FILE))).isEqualTo(stored);
    }
    assertThat(Files.readAllBytes(state.resolve(StateStore.STATE_FILE))).isEqualTo(stored);
    assertThat(leftovers(state)).isEmpty();
  }

  @Test
  void aDamagedStateIsRefusedThroughBeamFileSystemsAsCoreRefusesIt() throws IOException {
    Path state = Files.createDirectories(dir.resolve("shared"));
    Files.write(state.resolve(StateStore.STATE_FILE), "{\"format\":\"eventtime-state\"".getBytes(StandardCharsets.UTF_8));
    String core = null;
    try (StateStore store = StateStore.open(state, window.query(), window.timeField())) {
      store.load();
    } catch (StateException e) {
      core = e.getMessage();
    }
    assertThat(core).isNotNull();
    assertThatThrownBy(() -> onFileSystem(state)).isInstanceOf(StateException.class).hasMessage(core);
  }

  @Test
  void aLocationOnAFileSystemBeamDoesNotKnowIsRefused() {
    assertThatThrownBy(() -> EventTimeState.open("nofs://bucket/state", window))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the state location nofs://bucket/state is on no file system Beam knows (No filesystem found for"
            + " scheme nofs): put the file system's Beam module on the class path, and open the state after"
            + " Pipeline.create(options), which registers the file systems of the options");
  }

  @Test
  void aFileUriThatIsNotAbsoluteIsRefused() {
    assertThatThrownBy(() -> EventTimeState.open("file:state/orders", window))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the state location file:state/orders is not a file URI (URI is not hierarchical): give an"
            + " absolute one such as file:///var/state/orders, or a path");
  }

  /** Two runs: the second takes on the window the first left open, and the state ends with the next one. */
  private void goesOnFromRunToRun(Supplier<EventTimeState> open, Path state) throws IOException {
    try (EventTimeState s = open.get()) {
      assertThat(s.loaded().windows()).isEmpty();
      run(s, "run1.ndjson", List.of("00:00|00:10|1"), "00:01", "00:12");
    }
    assertThat(starts(load(state))).containsExactly("2026-03-01 00:10:00");
    try (EventTimeState s = open.get()) {
      assertThat(starts(s.loaded())).containsExactly("2026-03-01 00:10:00");
      run(s, "run2.ndjson", List.of("00:10|00:20|2"), "00:15", "00:31");
    }
    assertThat(starts(load(state))).containsExactly("2026-03-01 00:30:00");
    assertThat(leftovers(state)).isEmpty();
  }

  private void run(EventTimeState s, String name, List<String> expected, String... times) throws IOException {
    Pipeline p = pipeline();
    PCollection<Row> windows = p.apply(NdjsonIO.read(input(name, times).toString())).rows()
        .apply(window.withState(s)).windows();
    PAssert.that(windows.apply(MapElements.into(TypeDescriptors.strings()).via(EventTimeStateTest::format)))
        .containsInAnyOrder(expected);
    PipelineResult result = p.run();
    result.waitUntilFinish();
    s.commit(result);
  }

  private static String format(Row r) {
    return TimeText.format(r.getDateTime("window_start").getMillis()).substring(11, 16) + "|"
        + TimeText.format(r.getDateTime("window_end").getMillis()).substring(11, 16) + "|" + r.getInt64("n");
  }

  private static Pipeline pipeline() {
    return Pipeline.create(PipelineOptionsFactory.fromArgs("--runner=DirectRunner").create());
  }

  private EventTimeState onFileSystem(Path state) {
    return EventTimeState.onFileSystem(FileSystems.matchNewResource(state.toString(), true), window);
  }

  /** The stored state, read as core's format without opening (and so locking) a store. */
  private OpenState load(Path state) throws IOException {
    Path file = state.resolve(StateStore.STATE_FILE);
    return new StateCodec(window.query(), window.timeField()).decode(Files.readAllBytes(file), file.toString());
  }

  private static List<String> starts(OpenState state) {
    return state.windows().stream().map(w -> TimeText.format(w.start())).toList();
  }

  /** Hand-off and temporary files left in the state directory. */
  private static List<String> leftovers(Path state) throws IOException {
    try (Stream<Path> files = Files.list(state)) {
      return files.map(f -> f.getFileName().toString())
          .filter(n -> !n.equals(StateStore.STATE_FILE) && !n.equals(StateStore.LOCK_FILE)).toList();
    }
  }

  private Path input(String name, String... times) throws IOException {
    Path file = dir.resolve(name);
    Files.write(file, Arrays.stream(times).map(t -> "{\"t\":\"2026-03-01 " + t + ":00\"}").toList());
    return file;
  }
}
