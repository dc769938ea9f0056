package io.eventtime.hop.fileinput;

import io.eventtime.core.OpenState;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Where a followed file's lines start, for the position a state stores after a row: the file, the
 * next line and the byte it starts at (line {@code n} starts after the file's {@code n-1}th
 * newline, as Event File Input numbers its lines). A followed file only grows, so the bytes
 * counted once stay true: the count goes on from where the last question left it, and each file
 * is scanned once over a run.
 *
 * <pre>{@code
 * LineStarts starts = new LineStarts();
 * OpenState.FileLine next = starts.after("/data/in/a.ndjson", 41); // line 42 and its byte
 * }</pre>
 */
public final class LineStarts implements Closeable {
  private final ByteBuffer buffer = ByteBuffer.allocate(1 << 16);
  private String file;
  private FileChannel channel;
  /** Line {@code line} starts at byte {@code at}; the bytes before {@code scanned} are counted. */
  private long line;
  private long at;
  private long scanned;

  /**
   * The position after line {@code line} of {@code file}: line {@code line + 1} and its byte; the
   * end of the file when the line is the file's last and has no newline (a finished file).
   */
  public OpenState.FileLine after(String file, long line) throws IOException {
    if (line < 1) {
      throw new IllegalArgumentException("line numbers start at 1, got " + line + " in " + file);
    }
    long next = line + 1;
    if (!file.equals(this.file) || next < this.line) {
      open(file);
    }
    while (this.line < next) {
      buffer.clear();
      int n = channel.read(buffer, scanned);
      if (n <= 0) {
        return new OpenState.FileLine(file, next, scanned); // a finished file's last line, without a newline
      }
      for (int i = 0; i < n && this.line < next; i++) {
        if (buffer.get(i) == '\n') {
          this.line++;
          at = scanned + i + 1;
        }
      }
      scanned = this.line < next ? scanned + n : at;
    }
    return new OpenState.FileLine(file, next, at);
  }

  private void open(String name) throws IOException {
    close();
    channel = FileChannel.open(Path.of(name), StandardOpenOption.READ);
    file = name;
    line = 1;
    at = 0;
    scanned = 0;
  }

  @Override
  public void close() throws IOException {
    if (channel != null) {
      channel.close();
      channel = null;
      file = null;
    }
  }
}
