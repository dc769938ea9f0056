package io.eventtime.cli.source;

import io.eventtime.cli.CliException;
import io.eventtime.cli.ErrorCode;
import io.eventtime.core.follow.FollowedFile;
import io.eventtime.core.follow.FollowedFiles;
import io.eventtime.core.ndjson.TextEncoding;
import java.io.Closeable;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The lines of the source files as one stream, file after file in the order given, as raw
 * UTF-8 bytes (no decoding to strings: the JSON parser reads the bytes). Blank lines are
 * skipped but counted, so line numbers are the file's own. A file that is UTF-16, UTF-32 or
 * compressed (told by {@link TextEncoding}) is refused as a whole, once. The first lines can be
 * {@linkplain #sample sampled} to infer the schema and are then replayed, so the whole stream
 * is still read once. {@linkplain #standardInput Standard input} is one such stream, named
 * {@value #STDIN}, read as its lines come; {@linkplain #follow followed files} another, each file
 * named by its path, read as it grows and as later files land. Each line knows the byte of its file
 * after it ({@link #byteEnd}), where a followed run goes on after a stop.
 */
public final class LineSource implements LineFeed, Closeable {
  private static final int BUFFER = 1 << 20;
  /** Eight bytes of an array as a long, the first the lowest: {@link #indexOfNewline} reads them so. */
  private static final VarHandle EIGHT_BYTES = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long ONES = 0x0101010101010101L;
  private static final long HIGHS = 0x8080808080808080L;
  private static final long NEWLINES = '\n' * ONES;

  /** A copied line, as sampled, with the byte of its file after it. */
  public record Line(String source, long number, byte[] bytes, long byteEnd) {}

  /** The name standard input goes by in messages and in the late and rejected rows. */
  public static final String STDIN = "stdin";

  private final List<SourceFile> files;
  /** Standard input, when it is the source: read as it comes, not a file. */
  private final InputStream live;
  /** The followed files ({@code --follow}), when they are the source. */
  private final FollowedFiles followed;
  private int fileIndex = -1;
  private InputStream in;
  private SourceFile file;
  private String source;
  private long number;
  private boolean firstChunk;
  /** The byte of the file at {@code buf[0]}. */
  private long bufStart;

  private byte[] buf = new byte[BUFFER];
  private int pos;
  private int limit;
  private boolean eof = true;

  private final ArrayDeque<Line> replay = new ArrayDeque<>();
  private String currentSource;
  private long currentNumber;
  private byte[] currentBuf;
  private int currentOff;
  private int currentLen;
  private long currentByteEnd;

  public LineSource(List<SourceFile> files) {
    this(List.copyOf(files), null, null);
  }

  private LineSource(List<SourceFile> files, InputStream live, FollowedFiles followed) {
    this.files = files;
    this.live = live;
    this.followed = followed;
  }

  /** The lines of standard input ({@code --from -}), as they come, until it ends. */
  public static LineSource standardInput(InputStream in) {
    return new LineSource(List.of(), in, null);
  }

  /** The lines of followed files ({@code --follow}): file after file as they land, each as it grows. */
  public static LineSource follow(FollowedFiles files) {
    return new LineSource(List.of(), null, files);
  }

  /** Whether the lines come as they are written (standard input, followed files), not from files read to their end. */
  public boolean isLive() {
    return live != null || followed != null;
  }

  /**
   * For standard input: whether no further whole line is at hand without waiting, so that the
   * lines gathered so far are handed on (and the windows they close printed) while the writer pauses.
   */
  @Override
  public boolean lastAtHand() {
    if (!isLive() || !replay.isEmpty() || indexOfNewline(pos, limit) >= 0 || (eof && pos < limit)) {
      return false;
    }
    try {
      return eof || in.available() == 0;
    } catch (IOException e) {
      return true; // the next read reports it
    }
  }

  /** Reads ahead up to {@code n} lines and returns them; {@link #next} replays them first. */
  public List<Line> sample(int n) {
    List<Line> lines = new ArrayList<>();
    while (lines.size() < n && readLine()) {
      lines.add(new Line(currentSource, currentNumber,
          Arrays.copyOfRange(currentBuf, currentOff, currentOff + currentLen), currentByteEnd));
    }
    replay.addAll(lines);
    return lines;
  }

  /** Moves to the next non-blank line; false at the end of the last file. */
  @Override
  public boolean next() {
    Line l = replay.poll();
    if (l != null) {
      currentSource = l.source();
      currentNumber = l.number();
      currentBuf = l.bytes();
      currentOff = 0;
      currentLen = l.bytes().length;
      currentByteEnd = l.byteEnd();
      return true;
    }
    return readLine();
  }

  @Override
  public String source() {
    return currentSource;
  }

  @Override
  public long lineNumber() {
    return currentNumber;
  }

  /** The byte of the current line's file after the line (its newline included). */
  @Override
  public long byteEnd() {
    return currentByteEnd;
  }

  @Override
  public byte[] buffer() {
    return currentBuf;
  }

  @Override
  public int offset() {
    return currentOff;
  }

  @Override
  public int length() {
    return currentLen;
  }

  private boolean readLine() {
    try {
      while (true) {
        if (eof && pos >= limit && !openNext()) {
          return false;
        }
        int nl = indexOfNewline(pos, limit);
        if (nl < 0 && !eof) {
          fill();
          continue;
        }
        int end = nl < 0 ? limit : nl;
        int start = pos;
        pos = nl < 0 ? limit : nl + 1;
        long lineEnd = bufStart + pos;
        if (nl < 0 && start == end) {
          continue;
        }
        number++;
        if (firstChunk) {
          firstChunk = false;
          String notUtf8 = TextEncoding.notUtf8(Arrays.copyOfRange(buf, start, Math.min(limit, start + 4)),
              Math.min(limit, start + 4) - start);
          if (notUtf8 != null) {
            throw new CliException(ErrorCode.UNREADABLE_SOURCE, "cannot read " + (file != null ? file : source) + ": "
                + notUtf8);
          }
          if (end - start >= 3 && buf[start] == (byte) 0xEF && buf[start + 1] == (byte) 0xBB && buf[start + 2] == (byte) 0xBF) {
            start += 3;
          }
        }
        if (end > start && buf[end - 1] == '\r') {
          end--;
        }
        if (isBlank(start, end)) {
          continue;
        }
        currentSource = source;
        currentNumber = number;
        currentBuf = buf;
        currentOff = start;
        currentLen = end - start;
        currentByteEnd = lineEnd;
        return true;
      }
    } catch (IOException e) {
      throw new CliException(followed != null ? ErrorCode.UNREADABLE_SOURCE : ErrorCode.IO_ERROR, "cannot read "
          + (source == null ? "the followed files" : source + " after line " + number) + ": " + e.getMessage(), e);
    }
  }

  private int indexOfNewline(int from, int to) {
    byte[] b = buf;
    int i = from;
    // eight bytes at a time: a byte of x is zero where b holds '\n', and (x - ONES) & ~x & HIGHS
    // marks the first such byte (the marks above the first may be wrong, the lowest is not)
    for (; i + Long.BYTES <= to; i += Long.BYTES) {
      long x = (long) EIGHT_BYTES.get(b, i) ^ NEWLINES;
      long zero = (x - ONES) & ~x & HIGHS;
      if (zero != 0) {
        return i + (Long.numberOfTrailingZeros(zero) >>> 3);
      }
    }
    for (; i < to; i++) {
      if (b[i] == '\n') {
        return i;
      }
    }
    return -1;
  }

  private boolean isBlank(int start, int end) {
    for (int i = start; i < end; i++) {
      byte c = buf[i];
      if (c != ' ' && c != '\t' && c != '\r') {
        return false;
      }
    }
    return true;
  }

  /** Keeps the unread part of the buffer and reads more after it, growing the buffer for a long line. */
  private void fill() throws IOException {
    int rest = limit - pos;
    if (pos == 0 && rest == buf.length) {
      buf = Arrays.copyOf(buf, buf.length * 2);
    } else if (pos > 0) {
      System.arraycopy(buf, pos, buf, 0, rest);
      bufStart += pos;
    }
    pos = 0;
    limit = rest;
    int n = in.read(buf, limit, buf.length - limit);
    if (n < 0) {
      eof = true;
    } else {
      limit += n;
    }
  }

  private boolean openNext() throws IOException {
    if (in != null) {
      in.close();
      in = null;
    }
    if (followed != null) {
      FollowedFile f = followed.next();
      if (f == null) {
        return false;
      }
      in = f;
      source = f.path().toString();
      startReading();
      number = f.startLine() - 1;
      bufStart = f.startByte();
      firstChunk = f.startByte() == 0; // the encoding is told by the file's first bytes
      if (firstChunk) {
        refuseIfNotText(f.path());
      }
      return true;
    }
    if (live != null) {
      if (fileIndex >= 0) {
        return false;
      }
      fileIndex = 0;
      in = live;
      source = STDIN;
      startReading();
      return true;
    }
    if (fileIndex + 1 >= files.size()) {
      return false;
    }
    SourceFile f = files.get(++fileIndex);
    file = f;
    source = f.displayName();
    try {
      // not Files.newInputStream: its channel reads into a buffer of its own and copies from there,
      // which made reading a large file about half again as costly (docs/benchmarks.md, goal 1)
      in = new FileInputStream(f.file().toFile());
    } catch (IOException e) {
      throw new CliException(ErrorCode.UNREADABLE_SOURCE, "cannot read " + f + ": " + e.getMessage(), e);
    }
    startReading();
    return true;
  }

  /**
   * Looks at a followed file's first bytes at once: a compressed file may hold no newline, and its
   * lines, which wait for theirs, would never be looked at. With fewer than four bytes yet, its first
   * line is looked at when it is whole.
   */
  private void refuseIfNotText(Path file) throws IOException {
    byte[] head;
    try (InputStream first = Files.newInputStream(file)) {
      head = first.readNBytes(4);
    }
    String notUtf8 = head.length < 4 ? null : TextEncoding.notUtf8(head, head.length);
    if (notUtf8 != null) {
      throw new CliException(ErrorCode.UNREADABLE_SOURCE, "cannot read " + file + ": " + notUtf8);
    }
  }

  private void startReading() {
    number = 0;
    pos = 0;
    limit = 0;
    eof = false;
    firstChunk = true;
    bufStart = 0;
  }

  @Override
  public void close() throws IOException {
    if (in != null) {
      in.close();
    }
    if (followed != null) {
      followed.close();
    }
  }
}
