package io.eventtime.cli.source;

import io.eventtime.cli.CliException;
import io.eventtime.cli.ErrorCode;
import io.eventtime.core.OpenState;
import io.eventtime.core.follow.FileListing;
import io.eventtime.core.follow.FollowedFiles;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code --from URI --follow}: a file, a folder's files, or the files a glob on the file name
 * matches ({@code file://in/*.ndjson}), followed as they land and grow (core's
 * {@link FollowedFiles}): one partition, the files in name order and each one's lines in order,
 * as a bounded run over the same files reads them. Each line's position is its file, line and
 * byte, which a state stores so that a restart goes on after the last line it folded
 * ({@link #resumeAt}). It runs until {@link #stop} (a stop signal) or, with
 * {@link #endWhenIdleFor}, until no new line has come for that long.
 */
public final class FollowSource implements LiveFeed, Closeable {
  private final String uri;
  private final Path path;
  private volatile boolean stopped;
  private boolean readsToTheEnd;
  private long idleMillis;
  private FollowedFiles files;
  private LineSource lines;
  private OpenState.Position start;

  private FollowSource(String uri, Path path) {
    this.uri = uri;
    this.path = path;
    open(null);
  }

  /**
   * Follows {@code file} (its path a file, a folder or a glob on the file names of a folder);
   * refuses a folder that does not exist. Nothing is read before the first line is asked for.
   */
  public static FollowSource of(SourceFile file) {
    Path path = Path.of(file.path());
    Path folder = FileListing.isPattern(path) || !Files.isDirectory(path) ? parentOf(path) : path;
    if (!Files.isDirectory(folder)) {
      throw new CliException(ErrorCode.UNREADABLE_SOURCE, "cannot follow " + file.uri() + ": there is no folder "
          + folder.toAbsolutePath() + " (--follow waits for files to land in a folder that exists)");
    }
    return new FollowSource(file.uri(), path);
  }

  private static Path parentOf(Path path) {
    return path.getParent() == null ? Path.of(".") : path.getParent();
  }

  private void open(OpenState.FileLine resume) {
    files = new FollowedFiles(FileListing.of(path), () -> stopped);
    if (idleMillis > 0) {
      files.endWhenIdleFor(idleMillis);
    }
    if (readsToTheEnd) {
      files.readToTheEndAtStop();
    }
    if (resume != null) {
      files.resumeAt(Path.of(resume.file()), resume.line(), resume.byteOffset());
    }
    lines = LineSource.follow(files);
  }

  /** The table the files are queried as: a folder's name (for a glob or a folder), else the file's base name. */
  public String tableName() {
    Path named = FileListing.isPattern(path) ? parentOf(path).toAbsolutePath().normalize()
        : Files.isDirectory(path) ? path.toAbsolutePath().normalize() : null;
    if (named == null || named.getFileName() == null) {
      return SourceFile.parse(path.toString()).tableName();
    }
    return named.getFileName().toString().replaceAll("[^A-Za-z0-9_]", "_");
  }

  /** The followed path as given, for messages. */
  public String uri() {
    return uri;
  }

  /** Whether {@code file} would be followed: an output there would be read back. */
  public boolean follows(Path file) {
    Path candidate = file.toAbsolutePath().normalize();
    Path own = path.toAbsolutePath().normalize();
    if (FileListing.isPattern(path)) {
      return candidate.getParent() != null && candidate.getParent().equals(own.getParent())
          && own.getFileSystem().getPathMatcher("glob:" + own.getFileName()).matches(candidate.getFileName())
          && !candidate.getFileName().toString().startsWith(".");
    }
    if (Files.isDirectory(path)) {
      return own.equals(candidate.getParent()) && !candidate.getFileName().toString().startsWith(".");
    }
    return own.equals(candidate);
  }

  /** Ends the reading once no new line has come for {@code millis}: {@code --until idle=DURATION}. */
  public void endWhenIdleFor(long millis) {
    idleMillis = millis;
    files.endWhenIdleFor(millis);
  }

  /**
   * Goes on at {@code position} (a state's: the file, next line and byte), after the schema
   * sample was read from the start: the sample's lines are given up and the files before it in
   * name order are not read again.
   */
  public void resumeAt(OpenState.FileLine position) {
    try {
      lines.close();
    } catch (IOException e) {
      throw new CliException(ErrorCode.IO_ERROR, "cannot close " + uri + ": " + e.getMessage(), e);
    }
    open(position);
    start = position;
  }

  /**
   * At the stop, reads the last file as it is, a last line without its newline too (a run without
   * a state: no later run goes on from where it stopped, so it reads what a file run would).
   */
  public void readToTheEndAtStop() {
    readsToTheEnd = true;
    files.readToTheEndAtStop();
  }

  /** Ends the reading at its next wait (from any thread): what a stop signal does. */
  public void stop() {
    stopped = true;
    files.stop();
  }

  /** The lines read first, for the schema (see {@link LineSource#sample}). */
  public List<LineSource.Line> sample(int n) {
    return lines.sample(n);
  }

  @Override
  public int partitions() {
    return 1;
  }

  @Override
  public OpenState.Position[] startPositions() {
    return new OpenState.Position[] {start};
  }

  @Override
  public OpenState.Position positionAfter(int partition, String source, long line, long byteEnd) {
    return new OpenState.FileLine(source, line + 1, byteEnd);
  }

  @Override
  public boolean namedByPartition() {
    return false;
  }

  @Override
  public boolean next() {
    return lines.next();
  }

  @Override
  public String source() {
    return lines.source();
  }

  @Override
  public long lineNumber() {
    return lines.lineNumber();
  }

  @Override
  public long byteEnd() {
    return lines.byteEnd();
  }

  @Override
  public boolean lastAtHand() {
    return lines.lastAtHand();
  }

  @Override
  public byte[] buffer() {
    return lines.buffer();
  }

  @Override
  public int offset() {
    return lines.offset();
  }

  @Override
  public int length() {
    return lines.length();
  }

  @Override
  public void close() throws IOException {
    lines.close();
  }
}
