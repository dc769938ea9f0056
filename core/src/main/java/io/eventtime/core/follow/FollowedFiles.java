package io.eventtime.core.follow;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * Files followed as they land and grow, as {@code tail -f} and Spark's or Flink's file sources
 * do, read as one partition in the order a bounded run reads them: the files in name order, each
 * one's lines in order. {@link #next} gives the files one after another, each as a
 * {@link FollowedFile}, a stream of its bytes that waits at the end of the file for more, and
 * ends once a file whose name sorts after it has landed (it is then read to its end: a writer
 * appends to the last file only) or once the reading is stopped.
 *
 * <p>What is not the file's whole lines yet (a last line without its newline) is handed on only
 * once its newline is written or a later file lands, so a line is never read half-written, or at
 * the stop with {@link #readToTheEndAtStop} (a run that no later run goes on from). A
 * file that shrinks, is replaced or removed while it is read, a finished file that grows, or a
 * new file whose name sorts before the one being read (it could not be read in name order) is an
 * error naming the file.
 *
 * <p>It stops when {@link #stop} is called (from any thread: a stop signal), when the
 * {@code stopWhen} test given is true (a Hop transform's stop), or after {@link #endWhenIdleFor}
 * passes with no new byte. What it had handed on is whole lines, so a stop never cuts a row
 * (unless it reads to the end at the stop: then the last line is read as the file holds it).
 *
 * <pre>{@code
 * FollowedFiles files = new FollowedFiles(FileListing.of(Path.of("in/*.ndjson")), () -> false);
 * for (FollowedFile f; (f = files.next()) != null; ) {
 *   // read f's lines; its read() waits for more while f is the last file
 * }
 * }</pre>
 *
 * <p>One thread reads ({@link #next} and the files' reads); {@link #stop} may be called from any.
 */
public final class FollowedFiles implements Closeable {
  /** The order the files are read in: by path, so by name within a folder. */
  public static final Comparator<Path> NAME_ORDER = Comparator.comparing(Path::toString);
  private static final long POLL_MILLIS = 100;

  private final FileListing listing;
  private final BooleanSupplier stopWhen;
  private final Object pause = new Object();
  private volatile boolean stopped;
  private long idleNanos;
  private boolean readsToTheEndAtStop;
  private long lastProgress = System.nanoTime();

  private Path resumeFile;
  private long resumeLine = 1;
  private long resumeByte;

  private Set<Path> listed = new HashSet<>();
  private FollowedFile current;
  private Path lastRead;
  private long lastReadSize;

  /** Follows the files {@code listing} gives, until {@link #stop}, or until {@code stopWhen} says so. */
  public FollowedFiles(FileListing listing, BooleanSupplier stopWhen) {
    this.listing = listing;
    this.stopWhen = stopWhen;
  }

  /**
   * Goes on where an earlier run stopped (before the first {@link #next}): at byte
   * {@code byteOffset} of {@code file}, the start of its line {@code nextLine}; the files before
   * it in name order are not read. The file must still be listed, at least that long.
   */
  public FollowedFiles resumeAt(Path file, long nextLine, long byteOffset) {
    if (nextLine < 1 || byteOffset < 0) {
      throw new IllegalArgumentException("a position needs a line from 1 and a byte from 0, got line " + nextLine
          + ", byte " + byteOffset);
    }
    this.resumeFile = file;
    this.resumeLine = nextLine;
    this.resumeByte = byteOffset;
    return this;
  }

  /** Ends the reading once no new byte has come for {@code millis} (wall-clock time). */
  public FollowedFiles endWhenIdleFor(long millis) {
    if (millis <= 0) {
      throw new IllegalArgumentException("an idle time must be positive, got " + millis + " ms");
    }
    this.idleNanos = millis * 1_000_000L;
    return this;
  }

  /**
   * At the stop, reads the last file as it is then, a last line without its newline too, as a run
   * that reads the files to their end would: for a run that keeps no position, which no later run
   * goes on from. Without it, such a line is left for the run that goes on ({@link #unreadAtStop}).
   */
  public FollowedFiles readToTheEndAtStop() {
    this.readsToTheEndAtStop = true;
    return this;
  }

  boolean readsToTheEndAtStop() {
    return readsToTheEndAtStop;
  }

  /** Ends the reading at the next wait (from any thread): what a stop signal does. */
  public void stop() {
    stopped = true;
    synchronized (pause) {
      pause.notifyAll();
    }
  }

  /**
   * The next file in name order, waiting for one to land; null once stopped. The file before
   * it is closed, and must not have grown since it was finished.
   */
  public FollowedFile next() throws IOException {
    if (current != null) {
      lastRead = current.path();
      lastReadSize = current.position();
      current.close();
      current = null;
    }
    while (!shouldStop()) {
      List<Path> files = list(null);
      Path next = null;
      if (lastRead == null && resumeFile != null) {
        if (!files.contains(resumeFile)) {
          throw new NoSuchFileException(resumeFile.toString(), null, "the stored position is in " + resumeFile
              + " (line " + resumeLine + ", byte " + resumeByte + "), which is not among the files followed any more:"
              + " it was removed or renamed; give the state up (another --state folder) to read the files from the"
              + " start");
        }
        next = resumeFile;
      } else {
        for (Path f : files) {
          if (lastRead == null || NAME_ORDER.compare(f, lastRead) > 0) {
            next = f;
            break;
          }
        }
      }
      if (next != null) {
        boolean resuming = lastRead == null && resumeFile != null;
        current = FollowedFile.open(this, next, resuming ? resumeLine : 1, resuming ? resumeByte : 0);
        return current;
      }
      pause();
    }
    return null;
  }

  /** The bytes a stopped reading left in its last file after the last whole line it handed on. */
  public record Unread(Path file, long bytes) {}

  /**
   * Once the reading has ended: what its last file holds after the last whole line handed on (a
   * line whose newline is not written yet, or lines written after the stop), or null when nothing.
   * A run that goes on from a stored position reads it then; a run without one never does, so it
   * tells it.
   */
  public Unread unreadAtStop() throws IOException {
    Path file = current != null ? current.path() : lastRead;
    long handedOn = current != null ? current.position() : lastReadSize;
    if (file == null || !Files.exists(file)) {
      return null;
    }
    long left = Files.size(file) - handedOn;
    return left > 0 ? new Unread(file, left) : null;
  }

  /**
   * Lists the files in name order, a writer's temporary ones ({@code .name}) left out, checking
   * what may not happen: a file landing before the one being read in name order, the last
   * finished file growing. Returns the listing.
   */
  List<Path> list(Path reading) throws IOException {
    List<Path> files = new ArrayList<>(listing.list());
    files.removeIf(FileListing::isTemporary);
    files.sort(NAME_ORDER);
    Path at = reading != null ? reading : lastRead;
    for (Path f : files) {
      if (!listed.contains(f) && at != null && NAME_ORDER.compare(f, at) < 0) {
        throw new IOException(f + " landed after " + at + " was read: files are read in name order, so a new file"
            + " must sort after the last one (name them by the time they start, e.g. events-2026-12-03T08-00.ndjson)");
      }
    }
    listed = new HashSet<>(files);
    if (lastRead != null && Files.exists(lastRead) && Files.size(lastRead) != lastReadSize) {
      throw new IOException(lastRead + " changed after it was read to its end (" + lastReadSize + " bytes, now "
          + Files.size(lastRead) + "): a later file had landed, so only the last file may be appended to");
    }
    return files;
  }

  /** Whether a file that sorts after {@code file} is listed now: {@code file} is then finished. */
  boolean laterListed(Path file) throws IOException {
    List<Path> files = list(file);
    return !files.isEmpty() && NAME_ORDER.compare(files.get(files.size() - 1), file) > 0;
  }

  boolean shouldStop() {
    return stopped || stopWhen.getAsBoolean() || (idleNanos > 0 && System.nanoTime() - lastProgress >= idleNanos);
  }

  /** Bytes were handed on: the idle time starts again. */
  void progressed() {
    lastProgress = System.nanoTime();
  }

  /** Waits a little for the files to change, or for a stop. */
  void pause() {
    synchronized (pause) {
      if (stopped) {
        return;
      }
      try {
        pause.wait(POLL_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        stopped = true;
      }
    }
  }

  @Override
  public void close() throws IOException {
    if (current != null) {
      current.close();
      current = null;
    }
  }
}
