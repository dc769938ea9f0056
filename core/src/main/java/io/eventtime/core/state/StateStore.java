package io.eventtime.core.state;

import io.eventtime.core.OpenState;
import io.eventtime.core.WindowQuery;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The state carried between runs of one query, kept in a directory: the watermark and the open
 * windows that the last successful run stored instead of emitting (see {@link OpenState}).
 *
 * <pre>{@code
 * try (StateStore store = StateStore.open(Path.of("state"), query, "event_time")) {
 *   WindowProcessor p = new WindowProcessor(query, sink, store.load());
 *   ... p.process(key, eventTime, inputs) for each row ...
 *   OpenState next = p.hold();
 *   ... write and flush the output ...
 *   store.commit(next);  // only now does the next run see the new state
 * }
 * }</pre>
 *
 * <p>Everything that can be refused is refused by {@link #open}, before any row is read: a
 * directory that cannot be created or written to, one that another run is using, and a state
 * that is corrupt, truncated, of a newer format or written for another query or source.
 *
 * <p>A run that appends to output files records their committed lengths in the state it stages
 * ({@link OpenState#withOutputs}), after writing and forcing them, so that the state and the
 * outputs are committed together by one rename. On start it cuts the files back to the lengths
 * the stored state holds ({@link CommittedOutputs#cutBack}): what a run wrote after its last
 * commit is taken away, and written again by the run that reads its rows again.
 *
 * <p>The state is the file {@value #STATE_FILE}. A new state is written beside it to a temporary
 * file, forced to disk, and moved over it in one atomic rename only on {@link #commit}: a run
 * that fails or is killed before that leaves the old state as it was (its temporary file is
 * removed by the next {@link #open}). While a store is open it holds a lock on
 * {@value #LOCK_FILE}, so two runs never share a state; the lock ends with {@link #close} or
 * with the process.
 */
public final class StateStore implements AutoCloseable {
  /** The file that holds the state, in the state directory. */
  public static final String STATE_FILE = "state.json";
  /** The file a run locks while it uses the state directory. */
  public static final String LOCK_FILE = "state.lock";
  private static final String TEMP_PREFIX = STATE_FILE + ".";
  private static final String TEMP_SUFFIX = ".tmp";

  private final Path directory;
  private final Path file;
  private final StateCodec codec;
  private final FileChannel lockChannel;
  private final List<Staged> pending = new ArrayList<>();
  private byte[] current;
  private boolean closed;

  private StateStore(Path directory, StateCodec codec, FileChannel lockChannel) {
    this.directory = directory;
    this.file = directory.resolve(STATE_FILE);
    this.codec = codec;
    this.lockChannel = lockChannel;
  }

  /** Opens the state of {@code query} in {@code directory}; see {@link #open(Path, WindowQuery, String)}. */
  public static StateStore open(Path directory, WindowQuery query) {
    return open(directory, query, null);
  }

  /**
   * Opens the state of {@code query}, whose event times are read from the field
   * {@code timeField} (null when there is no field name), in {@code directory}, creating the
   * directory when it is missing. Refuses, with a {@link StateException} that says how to go on,
   * a directory it cannot create or write to, a directory another run has open, and a state
   * file that is corrupt, truncated, of a newer format or written for a different query.
   */
  public static StateStore open(Path directory, WindowQuery query, String timeField) {
    return open(directory, query, timeField, null);
  }

  /**
   * Opens the state of {@code query} over {@code source}, what the run reads (null when the
   * caller does not say), as {@link #open(Path, WindowQuery, String)} does; a state written for
   * another source is refused too. The source is stored with every state this store commits.
   */
  public static StateStore open(Path directory, WindowQuery query, String timeField, StateSource source) {
    Path dir = directory.toAbsolutePath().normalize();
    StateCodec codec = new StateCodec(query, timeField, source);
    createDirectory(dir);
    checkWritable(dir);
    FileChannel lockChannel = lock(dir);
    StateStore store = new StateStore(dir, codec, lockChannel);
    try {
      store.removeLeftovers();
      store.read();
      return store;
    } catch (RuntimeException e) {
      store.close();
      throw e;
    }
  }

  public Path directory() {
    return directory;
  }

  /** The state file, whether or not it exists yet. */
  public Path file() {
    return file;
  }

  /** Whether a previous run has stored a state here. */
  public boolean hasState() {
    return current != null;
  }

  /**
   * The stored state, or {@link OpenState#empty()} when there is none: what the processor of
   * this run starts from. Each call returns new accumulators, owned by the caller.
   */
  public OpenState load() {
    checkOpen();
    return current == null ? OpenState.empty() : codec.decode(current, file.toString());
  }

  /**
   * Writes {@code state} to a temporary file beside the state and forces it to disk, without
   * replacing the state yet: {@link Staged#commit} does that. Staging before the output is
   * finished lets a state that cannot be written fail the run before it has any effect.
   */
  public Staged stage(OpenState state) {
    checkOpen();
    byte[] bytes = codec.encode(state);
    Path temp = null;
    try {
      temp = Files.createTempFile(directory, TEMP_PREFIX, TEMP_SUFFIX);
      try (FileChannel out = FileChannel.open(temp, StandardOpenOption.WRITE)) {
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        while (buffer.hasRemaining()) {
          out.write(buffer);
        }
        out.force(true);
      }
    } catch (IOException e) {
      deleteQuietly(temp);
      throw new StateException("cannot write the new state in " + directory + " (" + reason(e)
          + "): the stored state is kept as it was", e);
    }
    Staged staged = new Staged(temp, bytes);
    pending.add(staged);
    return staged;
  }

  /**
   * Replaces the stored state with {@code state} in one atomic step: call it once the run has
   * succeeded and its output is written and flushed. Until it returns, the old state stands.
   */
  public void commit(OpenState state) {
    stage(state).commit();
  }

  /** Removes any state staged and not committed, and lets other runs open the directory. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    for (Staged s : List.copyOf(pending)) {
      s.discard();
    }
    try {
      lockChannel.close(); // releases the lock
    } catch (IOException e) {
      throw new StateException("cannot release the lock on " + directory.resolve(LOCK_FILE) + ": " + reason(e), e);
    }
  }

  /** A new state written to disk beside the stored one, waiting to replace it. */
  public final class Staged {
    private final Path temp;
    private final byte[] bytes;
    private boolean done;

    private Staged(Path temp, byte[] bytes) {
      this.temp = temp;
      this.bytes = bytes;
    }

    /** The temporary file that holds the staged state. */
    public Path file() {
      return temp;
    }

    /** Makes the staged state the stored one, atomically and durably. */
    public void commit() {
      checkOpen();
      if (done) {
        throw new IllegalStateException("this staged state was already committed or discarded");
      }
      try {
        Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE);
      } catch (IOException e) {
        discard();
        throw new StateException("cannot replace the state " + file + " (" + reason(e)
            + "): the stored state is kept as it was", e);
      }
      done = true;
      pending.remove(this);
      current = bytes;
      syncDirectory();
    }

    /** Drops the staged state; the stored one stays. */
    public void discard() {
      if (!done) {
        done = true;
        pending.remove(this);
        deleteQuietly(temp);
      }
    }
  }

  private static void createDirectory(Path dir) {
    if (Files.exists(dir) && !Files.isDirectory(dir)) {
      throw new StateException("the state location " + dir + " is a file, not a directory: give a directory"
          + " for the state (it is created when missing)");
    }
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new StateException("cannot create the state directory " + dir + " (" + reason(e)
          + "): give a directory that can be created, or create it first", e);
    }
  }

  /** Writes and removes a file in {@code dir}: what committing a state needs, tried for real. */
  private static void checkWritable(Path dir) {
    try {
      Files.delete(Files.createTempFile(dir, TEMP_PREFIX, TEMP_SUFFIX));
    } catch (IOException e) {
      throw new StateException("the state directory " + dir + " is not writable (" + reason(e)
          + "): the state of this run could not be saved there; make it writable, or give another state"
          + " directory", e);
    }
  }

  private static FileChannel lock(Path dir) {
    Path lockFile = dir.resolve(LOCK_FILE);
    FileChannel channel;
    try {
      channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    } catch (IOException e) {
      throw new StateException("cannot open the lock file " + lockFile + " (" + reason(e)
          + "): make the state directory writable, or give another one", e);
    }
    FileLock lock;
    try {
      lock = channel.tryLock();
    } catch (OverlappingFileLockException e) {
      lock = null;
    } catch (IOException e) {
      closeQuietly(channel);
      throw new StateException("cannot lock " + lockFile + " (" + reason(e) + ")", e);
    }
    if (lock == null) {
      closeQuietly(channel);
      throw new StateException("another run is using the state in " + dir + ": wait until it ends, or give"
          + " this run its own state directory");
    }
    return channel;
  }

  /** Removes the temporary files of runs that were cut off before they committed. */
  private void removeLeftovers() {
    try (DirectoryStream<Path> temps = Files.newDirectoryStream(directory, TEMP_PREFIX + "*" + TEMP_SUFFIX)) {
      for (Path temp : temps) {
        Files.deleteIfExists(temp);
      }
    } catch (IOException e) {
      throw new StateException("cannot remove the unfinished state files in " + directory + " (" + reason(e) + ")", e);
    }
  }

  private void read() {
    if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    if (!Files.isRegularFile(file)) {
      throw new StateException("the state " + file + " is not a regular file: give a state directory that only"
          + " eventtime writes to");
    }
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (IOException e) {
      throw new StateException("cannot read the state file " + file + " (" + reason(e) + ")", e);
    }
    codec.decode(bytes, file.toString()); // all refusals happen here, before the run starts
    current = bytes;
  }

  /** Makes the rename itself durable. */
  private void syncDirectory() {
    try (FileChannel dir = FileChannel.open(directory, StandardOpenOption.READ)) {
      dir.force(true);
    } catch (IOException e) {
      // Some platforms cannot open a directory; the rename is done and visible all the same.
    }
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("the state store of " + directory + " is closed: open it again");
    }
  }

  private static String reason(IOException e) {
    if (e instanceof FileSystemException fs && fs.getReason() != null) {
      return fs.getReason();
    }
    if (e instanceof AccessDeniedException) {
      return "permission denied";
    }
    if (e instanceof FileAlreadyExistsException) {
      return "a file of that name exists";
    }
    if (e instanceof NoSuchFileException) {
      return "no such file or directory";
    }
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }

  private static void deleteQuietly(Path path) {
    if (path != null) {
      try {
        Files.deleteIfExists(path);
      } catch (IOException e) {
        // left for the next open to remove
      }
    }
  }

  private static void closeQuietly(FileChannel channel) {
    try {
      channel.close();
    } catch (IOException e) {
      // nothing held yet
    }
  }
}
