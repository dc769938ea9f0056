package io.eventtime.cli.output;

import io.eventtime.cli.CliException;
import io.eventtime.cli.ErrorCode;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;

/**
 * The {@code --output} file: the window rows, written in place as the windows close. With a
 * state that holds its committed length (the file cut back to it), a run appends after it;
 * otherwise the run starts it empty. {@link #committedLength} forces what was written, for the
 * state to commit; the stats line stays on stdout.
 */
public final class RowsFile implements AutoCloseable {
  private final OutputFile file;
  private final FileChannel channel;
  private final OutputStream stream;

  private RowsFile(OutputFile file, FileChannel channel) {
    this.file = file;
    this.channel = channel;
    this.stream = Channels.newOutputStream(channel);
  }

  /** Opens the file for the run: after its present bytes when {@code keep}, else emptied. */
  public static RowsFile open(OutputFile file, boolean keep) {
    try {
      FileChannel channel = FileChannel.open(file.target(), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      if (!keep) {
        channel.truncate(0);
      }
      channel.position(channel.size());
      return new RowsFile(file, channel);
    } catch (IOException e) {
      throw new CliException(ErrorCode.INVALID_ARGUMENT, file.described() + ": cannot open the file for writing ("
          + OutputFile.reason(e) + ")", e);
    }
  }

  /** Where the result writer sends the rows (it flushes them here before each commit). */
  public OutputStream stream() {
    return stream;
  }

  public String path() {
    return file.target().toString();
  }

  public String described() {
    return file.described();
  }

  /** Forces the rows written so far to disk and returns the file's length: what the state commits. */
  public long committedLength() {
    try {
      channel.force(false);
      return channel.size();
    } catch (IOException e) {
      throw new CliException(ErrorCode.IO_ERROR, "cannot write " + file.described() + " (" + OutputFile.reason(e) + ")",
          e);
    }
  }

  @Override
  public void close() {
    try {
      channel.close();
    } catch (IOException e) {
      throw new CliException(ErrorCode.IO_ERROR, "cannot close " + file.described() + " (" + OutputFile.reason(e) + ")",
          e);
    }
  }
}
