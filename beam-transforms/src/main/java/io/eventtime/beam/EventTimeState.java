package io.eventtime.beam;

import io.eventtime.core.OpenState;
import io.eventtime.core.state.StateCodec;
import io.eventtime.core.state.StateStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import org.apache.beam.sdk.PipelineResult;

/**
 * The state an {@link EventTimeWindow} carries from one bounded run to the next: the watermark
 * and the windows still open. It is read when the pipeline is built, and replaced only when
 * {@link #commit} is called after the run has succeeded, so a run that fails leaves it as it was.
 *
 * <pre>{@code
 * EventTimeWindow window = EventTimeWindow.of(query).withTimeField("event_time");
 * try (EventTimeState state = EventTimeState.open(Path.of("state/orders"), window)) {
 *   rows.apply(window.withState(state));
 *   PipelineResult result = pipeline.run();
 *   result.waitUntilFinish();   // throws when the run failed, a sink of its rows included
 *   state.commit(result);       // refuses a run that did not end DONE
 * }
 * }</pre>
 *
 * <p>The pipeline writes the new state to a hand-off file in the state directory, which the
 * workers must be able to write: a local directory for the Direct runner and embedded Flink or
 * Spark, a directory shared with the workers on a cluster.
 */
public final class EventTimeState implements AutoCloseable {
  private static final String HANDOFF_PREFIX = "handoff-";

  private final StateStore store;
  private final StateCodec codec;
  private final OpenState loaded;
  private final Path handoff;

  private EventTimeState(StateStore store, StateCodec codec, OpenState loaded, Path handoff) {
    this.store = store;
    this.codec = codec;
    this.loaded = loaded;
    this.handoff = handoff;
  }

  /**
   * Opens the state of {@code window}'s query in {@code directory} (created when missing); a
   * state written for another query, a damaged file or a directory that cannot be written is
   * refused here, before the pipeline runs.
   */
  public static EventTimeState open(Path directory, EventTimeWindow window) {
    StateStore store = StateStore.open(directory, window.query(), window.timeField());
    removeStaleHandoffs(directory);
    return new EventTimeState(store, new StateCodec(window.query(), window.timeField()), store.load(),
        directory.resolve(HANDOFF_PREFIX + UUID.randomUUID() + ".json").toAbsolutePath());
  }

  /** The state as the previous run left it. */
  public OpenState loaded() {
    return loaded;
  }

  String handoffPath() {
    return handoff.toString();
  }

  /**
   * Makes the state {@code result}'s run wrote the current one, once that run has finished
   * successfully ({@link PipelineResult.State#DONE}); a run that failed, or that is still going,
   * is refused and the state stays as it was. The pipeline writes its hand-off whatever becomes of
   * the rows downstream, so this check is what keeps a run whose sink failed from moving the
   * state past windows that were never written.
   */
  public void commit(PipelineResult result) {
    PipelineResult.State finished = result.getState();
    if (finished != PipelineResult.State.DONE) {
      throw new IllegalStateException("the run ended " + finished + ", not DONE: its state is not committed, so"
          + " the next run starts from the state as it was");
    }
    commit();
  }

  /**
   * Makes the state the finished run wrote the current one. Call it only after the run
   * succeeded, that is after {@code waitUntilFinish()} returned without an error: the pipeline
   * writes the hand-off even when a sink of its rows fails; {@link #commit(PipelineResult)} checks that.
   */
  public void commit() {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(handoff);
    } catch (IOException e) {
      throw new IllegalStateException("the run left no state in " + handoff
          + ": commit only after the pipeline has run to the end", e);
    }
    store.commit(codec.decode(bytes, handoff.toString()));
    deleteQuietly(handoff);
  }

  @Override
  public void close() {
    deleteQuietly(handoff);
    store.close();
  }

  private static void removeStaleHandoffs(Path directory) {
    try (var stale = Files.newDirectoryStream(directory, HANDOFF_PREFIX + "*.json")) {
      stale.forEach(EventTimeState::deleteQuietly);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + directory + ": " + e.getMessage(), e);
    }
  }

  private static void deleteQuietly(Path p) {
    try {
      Files.deleteIfExists(p);
    } catch (IOException ignored) {
      // a hand-off file left behind is removed by the next open
    }
  }
}
