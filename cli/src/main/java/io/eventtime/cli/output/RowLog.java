package io.eventtime.cli.output;

import com.fasterxml.jackson.core.JsonGenerator;
import io.eventtime.cli.CliException;
import io.eventtime.cli.ErrorCode;
import io.eventtime.core.TimeText;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;

/**
 * An NDJSON file of the rows a run left out, each with where it came from and why: late rows
 * ({@code --late-output}) and rejected rows ({@code --rejected-output}). Each record is
 * {@code {"source":..,"line":..,[event_time|field],"reason":..,"row":{...}}}; a line that is not
 * JSON is kept as {@code "text"} instead of {@code "row"}.
 *
 * <p>The records go to a hidden temporary file beside the target ({@code .late.ndjson.<n>.tmp}),
 * in whole records only, and the file is moved over the target in one atomic step when the run
 * ends: after a success by {@link #commit}, after a failure by {@link #keepAfterFailure}, so the
 * rows counted before a failure are kept. Until then the target is untouched.
 *
 * <p>A live source's log is written {@linkplain #openInPlace in place} instead, appended to the
 * target as the rows come, and forced at each {@link #committedLength} (the length the state
 * commits); rows of a Kafka record name it by {@code "source"} (the URI), {@code "partition"} and
 * {@code "offset"} instead of {@code "line"}.
 */
public final class RowLog {
  private static final int DRAIN_BYTES = 1 << 16;
  private static final SecureRandom RANDOM = new SecureRandom();

  private final OutputFile file;
  /** The temporary file, or null when the log is written in place. */
  private final Path temp;
  /** The target's channel when the log is written in place, or null. */
  private final FileChannel inPlace;
  private final OutputStream out;
  private final Records records = new Records();
  private final JsonGenerator g;
  /** How many bytes of whole records the temporary file holds. */
  private long kept;
  private boolean writeFailed;
  private boolean ended;

  private RowLog(OutputFile file, Path temp, FileChannel inPlace, OutputStream out, long kept) {
    this.file = file;
    this.temp = temp;
    this.inPlace = inPlace;
    this.out = out;
    this.kept = kept;
    this.g = JsonLines.generator(records);
  }

  /**
   * Opens the target itself for a live run: appended to after its {@code keep} bytes when the
   * state holds them as written (the file was cut back to them), else started empty.
   */
  public static RowLog openInPlace(OutputFile file, boolean keep) {
    try {
      FileChannel channel = FileChannel.open(file.target(), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      if (!keep) {
        channel.truncate(0);
      }
      long length = channel.size();
      channel.position(length);
      return new RowLog(file, null, channel, java.nio.channels.Channels.newOutputStream(channel), length);
    } catch (IOException e) {
      throw new CliException(ErrorCode.INVALID_ARGUMENT, file.described() + ": cannot open the file for writing ("
          + OutputFile.reason(e) + ")", e);
    }
  }

  /** The target's path as the state's outputs name it. */
  public String path() {
    return file.target().toString();
  }

  /** Writes and forces every record so far (in place) and returns the file's length: what the state commits. */
  public long committedLength() {
    if (ended) {
      return kept; // committed at the end of the run, before the state is
    }
    try {
      drain();
      inPlace.force(false);
      return kept;
    } catch (IOException e) {
      throw failed(e);
    }
  }

  /** Creates the temporary file beside the target; the target itself is not touched. */
  public static RowLog open(OutputFile file, FileSink sink) {
    Path dir = file.target().getParent();
    String name = file.target().getFileName().toString();
    while (true) {
      Path temp = dir.resolve("." + name + "." + Long.toUnsignedString(RANDOM.nextLong()) + ".tmp");
      OutputStream out;
      try {
        out = sink.create(temp);
      } catch (FileAlreadyExistsException e) {
        continue;
      } catch (IOException e) {
        throw new CliException(ErrorCode.INVALID_ARGUMENT, file.described() + ": cannot create a file in the directory "
            + dir + " (" + OutputFile.reason(e) + "): write the file to a directory that takes new files", e);
      }
      keepPermissions(file.target(), temp);
      return new RowLog(file, temp, null, out, 0);
    }
  }

  /** A late row: its event time and why it missed its windows. */
  public void late(String source, int partition, long line, long eventTime, String reason, byte[] buf, int off,
      int len) {
    try {
      start(source, partition, line);
      g.writeStringField("event_time", TimeText.format(eventTime));
      g.writeStringField("reason", reason);
      end(buf, off, len, true);
    } catch (IOException e) {
      throw failed(e);
    }
  }

  /** A rejected row: the field at fault (null for a malformed line) and why. */
  public void rejected(String source, int partition, long line, String field, String reason, byte[] buf, int off,
      int len, boolean isJson) {
    try {
      start(source, partition, line);
      if (field != null) {
        g.writeStringField("field", field);
      }
      g.writeStringField("reason", reason);
      end(buf, off, len, isJson);
    } catch (IOException e) {
      throw failed(e);
    }
  }

  /** Where the row came from: a file's line, or (partition 0 or more) a Kafka record's partition and offset. */
  private void start(String source, int partition, long line) throws IOException {
    g.writeStartObject();
    g.writeStringField("source", source);
    if (partition < 0) {
      g.writeNumberField("line", line);
    } else {
      g.writeNumberField("partition", partition);
      g.writeNumberField("offset", line);
    }
  }

  private void end(byte[] buf, int off, int len, boolean isJson) throws IOException {
    String text = new String(buf, off, len, StandardCharsets.UTF_8);
    if (isJson) {
      g.writeFieldName("row");
      g.writeRawValue(text);
    } else {
      g.writeStringField("text", text);
    }
    g.writeEndObject();
    JsonLines.endLine(g);
    g.flush(); // into the record buffer: it holds whole records only
    if (records.size() >= DRAIN_BYTES) {
      drain();
    }
  }

  /** Writes the buffered records to the temporary file. */
  private void drain() throws IOException {
    if (writeFailed) {
      throw new IOException("an earlier write failed");
    }
    if (records.size() == 0) {
      return;
    }
    try {
      out.write(records.bytes(), 0, records.size());
      out.flush();
    } catch (IOException e) {
      writeFailed = true;
      throw e;
    }
    kept += records.size();
    records.reset();
  }

  /** Ends a run that succeeded: every record on disk, then the file moved over the target in one step. */
  public void commit() {
    try {
      drain();
      if (inPlace != null) {
        inPlace.force(false);
        ended = true;
        out.close();
        return;
      }
      out.close();
      force(temp);
      moveIntoPlace();
    } catch (IOException e) {
      throw failed(e);
    }
  }

  /**
   * Ends a run that failed: the records counted before the failure (those that could be written)
   * are moved over the target all the same, so none is lost. Returns null, or what could not be
   * done, for stderr: the run's error is already being reported.
   */
  public String keepAfterFailure() {
    if (ended) {
      return null;
    }
    try {
      try {
        drain();
      } catch (IOException e) {
        // the rows that reached the file are kept below; the error that ended the run is told already
      }
      if (inPlace != null) {
        try (FileChannel c = inPlace) {
          if (c.size() > kept) {
            c.truncate(kept); // a record cut off by a failed write
          }
          c.force(false);
        }
        ended = true;
        return null;
      }
      try {
        out.close();
      } catch (IOException e) {
        // as above
      }
      try (FileChannel c = FileChannel.open(temp, StandardOpenOption.WRITE)) {
        if (c.size() > kept) {
          c.truncate(kept); // a record cut off by a failed write
        }
        c.force(true);
      }
      moveIntoPlace();
      return null;
    } catch (IOException e) {
      return file.described() + ": the rows written before the failure are left in " + temp + " ("
          + OutputFile.reason(e) + ")";
    }
  }

  /** Drops the temporary file of a run refused before it started: the target stays as it was. */
  public void discard() {
    ended = true;
    try {
      out.close();
      if (temp != null) {
        Files.deleteIfExists(temp);
      }
    } catch (IOException e) {
      // a hidden temporary file left beside the target harms nothing
    }
  }

  private void moveIntoPlace() throws IOException {
    Files.move(temp, file.target(), StandardCopyOption.ATOMIC_MOVE);
    ended = true;
    try (FileChannel dir = FileChannel.open(file.target().getParent(), StandardOpenOption.READ)) {
      dir.force(true); // makes the rename durable
    } catch (IOException e) {
      // some platforms cannot open a directory; the file is in place all the same
    }
  }

  private static void force(Path path) throws IOException {
    try (FileChannel c = FileChannel.open(path, StandardOpenOption.WRITE)) {
      c.force(true);
    }
  }

  /** A file that replaces an existing one keeps its permissions (a new one gets the usual ones). */
  private static void keepPermissions(Path target, Path temp) {
    try {
      if (Files.exists(target)) {
        Files.setPosixFilePermissions(temp, Files.getPosixFilePermissions(target));
      }
    } catch (IOException | UnsupportedOperationException e) {
      // the file is written all the same, with the permissions a new file gets
    }
  }

  private CliException failed(IOException e) {
    return new CliException(ErrorCode.IO_ERROR, "cannot write " + file.described() + " (" + OutputFile.reason(e)
        + ")", e);
  }

  /** The record buffer, whose bytes are written without a copy. */
  private static final class Records extends ByteArrayOutputStream {
    Records() {
      super(DRAIN_BYTES + 4096);
    }

    byte[] bytes() {
      return buf;
    }
  }
}
