package io.eventtime.beam;

import io.eventtime.core.OpenState;
import io.eventtime.core.state.StateCodec;
import io.eventtime.core.state.StateSource;
import io.eventtime.core.state.StateStore;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.io.fs.EmptyMatchTreatment;
import org.apache.beam.sdk.io.fs.MatchResult;
import org.apache.beam.sdk.io.fs.MoveOptions.StandardMoveOptions;
import org.apache.beam.sdk.io.fs.ResolveOptions.StandardResolveOptions;
import org.apache.beam.sdk.io.fs.ResourceId;
import org.apache.beam.sdk.util.MimeTypes;

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
 * <p>The pipeline writes the new state to a hand-off file in the state directory, through Beam's
 * {@link FileSystems}, which the workers must be able to write: a local directory for the Direct
 * runner and embedded Flink or Spark, a directory shared with the workers on a cluster, such as
 * {@code hdfs://}, {@code gs://} or {@code s3://} ({@link #open(String, EventTimeWindow)}).
 *
 * <p>A state on the local file system (a path, or a {@code file:} URI) is core's
 * {@link StateStore}: locked while open, so two runs never share it, and replaced by an atomic,
 * durable rename. On another file system the state file is replaced through that file system's
 * rename (a copy and a delete on object stores), and nothing locks it: give each run its own
 * state location and run them one after the other.
 */
public final class EventTimeState implements AutoCloseable {
  private static final String HANDOFF_PREFIX = "handoff-";

  private final StoredState store;
  private final StateCodec codec;
  private final OpenState loaded;
  /** The state the last {@link #commit} stored, null before one. */
  private OpenState committed;
  private final ResourceId handoff;

  private EventTimeState(StoredState store, StateCodec codec, ResourceId directory) {
    this.store = store;
    this.codec = codec;
    this.loaded = store.load();
    this.handoff = directory.resolve(HANDOFF_PREFIX + UUID.randomUUID() + ".json", StandardResolveOptions.RESOLVE_FILE);
    removeStaleHandoffs(directory);
  }

  /**
   * Opens the state of {@code window}'s query in {@code directory} (created when missing); a
   * state written for another query, a damaged file or a directory that cannot be written is
   * refused here, before the pipeline runs.
   */
  public static EventTimeState open(Path directory, EventTimeWindow window) {
    return open(directory, window, null);
  }

  /**
   * As {@link #open(Path, EventTimeWindow)}, for a run over {@code source} (such as a Kafka topic,
   * {@code StateSource.of("kafka", "servers", ..., "topic", ...)}): a state written for another
   * source is refused too, and the source is stored with the new state.
   */
  public static EventTimeState open(Path directory, EventTimeWindow window, StateSource source) {
    StateStore store = StateStore.open(directory, window.query(), window.timeField(), source);
    try {
      return new EventTimeState(new LocalState(store), codecOf(window),
          FileSystems.matchNewResource(store.directory().toString(), true));
    } catch (RuntimeException e) {
      store.close();
      throw e;
    }
  }

  /**
   * Opens the state of {@code window}'s query at {@code location}: a local path or {@code file:}
   * URI (as {@link #open(Path, EventTimeWindow)}), or a directory of any file system Beam has
   * registered, such as {@code gs://bucket/state/orders}. Beam registers the file systems of a
   * pipeline's options when the pipeline is created, so open it after {@code Pipeline.create}.
   * The state is read and checked here, before the pipeline runs.
   */
  public static EventTimeState open(String location, EventTimeWindow window) {
    Path local = localPath(location);
    if (local != null) {
      return open(local, window);
    }
    ResourceId directory;
    try {
      directory = FileSystems.matchNewResource(location, true);
    } catch (IllegalArgumentException noFileSystem) {
      throw new IllegalArgumentException("the state location " + location + " is on no file system Beam knows ("
          + noFileSystem.getMessage() + "): put the file system's Beam module on the class path, and open the"
          + " state after Pipeline.create(options), which registers the file systems of the options", noFileSystem);
    }
    return onFileSystem(directory, window);
  }

  /**
   * The state in {@code directory} kept through Beam's {@link FileSystems} alone, with no lock:
   * what {@link #open(String, EventTimeWindow)} does for a file system other than the local one.
   */
  static EventTimeState onFileSystem(ResourceId directory, EventTimeWindow window) {
    StateCodec codec = codecOf(window);
    return new EventTimeState(FileSystemState.open(directory, codec), codec, directory);
  }

  /** The local path {@code location} names, or null when it is on another file system. */
  private static Path localPath(String location) {
    int colon = location.indexOf(':');
    boolean hasScheme = colon > 1 && location.substring(0, colon).matches("[a-zA-Z][-a-zA-Z0-9+.]*");
    if (!hasScheme) {
      return Path.of(location);
    }
    if (!location.regionMatches(true, 0, "file:", 0, 5)) {
      return null;
    }
    try {
      return Path.of(URI.create(location));
    } catch (IllegalArgumentException notAFileUri) {
      throw new IllegalArgumentException("the state location " + location + " is not a file URI ("
          + notAFileUri.getMessage() + "): give an absolute one such as file:///var/state/orders, or a path",
          notAFileUri);
    }
  }

  private static StateCodec codecOf(EventTimeWindow window) {
    return new StateCodec(window.query(), window.timeField());
  }

  /** The state as the previous run left it. */
  /** The state the last commit stored (each partition's next offset, for one), or null before a commit. */
  public OpenState committed() {
    return committed;
  }

  public OpenState loaded() {
    return loaded;
  }

  /** The hand-off file, as a Beam file system resource the workers write with {@link #writeHandoff}. */
  String handoffPath() {
    return handoff.toString();
  }

  /**
   * Writes {@code bytes} to the hand-off file {@code handoff}, through a temporary file beside it
   * and a rename, so that the commit never reads a hand-off half written.
   */
  static void writeHandoff(String handoff, byte[] bytes) throws IOException {
    ResourceId target = FileSystems.matchNewResource(handoff, false);
    ResourceId temp = target.getCurrentDirectory()
        .resolve(target.getFilename() + ".part", StandardResolveOptions.RESOLVE_FILE);
    write(temp, bytes);
    FileSystems.rename(List.of(temp), List.of(target));
  }

  /**
   * Makes the state {@code result}'s run wrote the current one, once that run has finished
   * successfully ({@link PipelineResult.State#DONE}); a run that failed, or that is still going,
   * is refused and the state stays as it was. The pipeline writes its hand-off whatever becomes of
   * the rows downstream, so this check is what keeps a run whose sink failed from moving the
   * state past windows that were never written.
   */
  public void commit(PipelineResult result) {
    commit(result, Map.of());
  }

  /**
   * As {@link #commit(PipelineResult)}, the stored state also holding {@code outputs}: the lengths
   * of files the driver wrote with the run's rows, by path, so that a run that goes on from this
   * state first cuts each back to its length (core's {@code CommittedOutputs}): rows written after
   * this commit, by a run that then failed, are not in the files twice. The command line's
   * {@code --output} with {@code --state}.
   */
  public void commit(PipelineResult result, Map<String, Long> outputs) {
    PipelineResult.State finished = result.getState();
    if (finished != PipelineResult.State.DONE) {
      throw new IllegalStateException("the run ended " + finished + ", not DONE: its state is not committed, so"
          + " the next run starts from the state as it was");
    }
    commit(outputs);
  }

  /**
   * Makes the state the finished run wrote the current one. Call it only after the run
   * succeeded, that is after {@code waitUntilFinish()} returned without an error: the pipeline
   * writes the hand-off even when a sink of its rows fails; {@link #commit(PipelineResult)} checks that.
   */
  public void commit() {
    commit(Map.of());
  }

  private void commit(Map<String, Long> outputs) {
    byte[] bytes;
    try {
      bytes = read(handoff);
    } catch (IOException e) {
      throw new IllegalStateException("the run left no state in " + handoff
          + ": commit only after the pipeline has run to the end", e);
    }
    committed = codec.decode(bytes, handoff.toString()).withOutputs(outputs);
    store.commit(committed);
    deleteQuietly(List.of(handoff));
  }

  @Override
  public void close() {
    deleteQuietly(List.of(handoff));
    store.close();
  }

  /** Removes the hand-off files (and their temporary files) of runs that were never committed. */
  private static void removeStaleHandoffs(ResourceId directory) {
    String pattern = directory.resolve(HANDOFF_PREFIX + "*", StandardResolveOptions.RESOLVE_FILE).toString();
    List<ResourceId> stale = new ArrayList<>();
    try {
      MatchResult match = FileSystems.match(pattern, EmptyMatchTreatment.ALLOW);
      if (match.status() == MatchResult.Status.OK) {
        match.metadata().forEach(m -> stale.add(m.resourceId()));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + directory + ": " + e.getMessage(), e);
    }
    deleteQuietly(stale);
  }

  static byte[] read(ResourceId file) throws IOException {
    try (InputStream in = Channels.newInputStream(FileSystems.open(file))) {
      return in.readAllBytes();
    }
  }

  static void write(ResourceId file, byte[] bytes) throws IOException {
    try (WritableByteChannel out = FileSystems.create(file, MimeTypes.BINARY)) {
      ByteBuffer buffer = ByteBuffer.wrap(bytes);
      while (buffer.hasRemaining()) {
        out.write(buffer);
      }
    }
  }

  static void deleteQuietly(List<ResourceId> files) {
    try {
      FileSystems.delete(files, StandardMoveOptions.IGNORE_MISSING_FILES);
    } catch (IOException ignored) {
      // a hand-off file left behind is removed by the next open
    }
  }

  /** Where the stored state is kept: read once when opened, replaced on commit. */
  interface StoredState {
    OpenState load();

    void commit(OpenState next);

    void close();
  }

  /** The state on the local file system: core's locked, durable store. */
  private record LocalState(StateStore store) implements StoredState {
    @Override
    public OpenState load() {
      return store.load();
    }

    @Override
    public void commit(OpenState next) {
      store.commit(next);
    }

    @Override
    public void close() {
      store.close();
    }
  }
}
