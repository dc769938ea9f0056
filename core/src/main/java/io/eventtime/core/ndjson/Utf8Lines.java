package io.eventtime.core.ndjson;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The lines of a UTF-8 byte stream, each decoded on its own and strictly: a line with bytes that
 * are not UTF-8 raises {@link NotUtf8}, naming the bad bytes and where they are, and the reading
 * goes on with the next line. A decoder that replaced such bytes with U+FFFD would make a value no
 * input had (and group rows under it) without a word. Lines end at {@code \n} (a {@code \r}
 * before it is dropped), as the command line splits them, so line numbers agree on every
 * surface; a UTF-8 byte order mark at the start of the stream is skipped.
 */
public final class Utf8Lines implements Closeable {
  private final InputStream in;
  private final CharsetDecoder decoder = strictDecoder();
  private byte[] buf = new byte[1 << 16];
  private int pos;
  private int limit;
  private boolean eof;
  private boolean first = true;

  public Utf8Lines(InputStream in) {
    this.in = in;
  }

  /** A line that is not UTF-8: the message is the reason, {@link #text} the line as far as it can be shown. */
  public static final class NotUtf8 extends IOException {
    private final String text;

    NotUtf8(String reason, String text) {
      super(reason);
      this.text = text;
    }

    /** The line with each byte sequence that is not UTF-8 shown as U+FFFD (for the rejected output only). */
    public String text() {
      return text;
    }
  }

  /**
   * The next line without its line break, or null at the end of the stream. A line that is not
   * UTF-8 raises {@link NotUtf8}; the line is then consumed, so the next call reads the next one.
   */
  public String readLine() throws IOException {
    int nl;
    while ((nl = indexOfNewline()) < 0 && !eof) {
      fill();
    }
    if (nl < 0 && pos >= limit) {
      return null;
    }
    int start = pos;
    int end = nl < 0 ? limit : nl;
    pos = nl < 0 ? limit : nl + 1;
    if (first) {
      first = false;
      if (end - start >= 3 && buf[start] == (byte) 0xEF && buf[start + 1] == (byte) 0xBB && buf[start + 2] == (byte) 0xBF) {
        start += 3;
      }
    }
    if (end > start && buf[end - 1] == '\r') {
      end--;
    }
    return decode(decoder, buf, start, end - start, "line");
  }

  /** The bytes {@code b[off, off + len)} as text, or {@link NotUtf8} when they are not UTF-8. */
  public static String decode(byte[] b, int off, int len) throws NotUtf8 {
    return decode(strictDecoder(), b, off, len, "line");
  }

  /**
   * As {@link #decode(byte[], int, int)} for bytes that are not a line of a file, named
   * {@code unit} in the reason (a Kafka record's "value").
   */
  public static String decode(byte[] b, int off, int len, String unit) throws NotUtf8 {
    return decode(strictDecoder(), b, off, len, unit);
  }

  private static String decode(CharsetDecoder decoder, byte[] b, int off, int len, String unit) throws NotUtf8 {
    ByteBuffer bytes = ByteBuffer.wrap(b, off, len);
    CharBuffer chars = CharBuffer.allocate(len); // UTF-8 never has fewer bytes than UTF-16 chars
    decoder.reset();
    CoderResult result = decoder.decode(bytes, chars, true);
    if (!result.isError()) {
      result = decoder.flush(chars);
    }
    if (result.isError()) {
      int at = bytes.position();
      StringBuilder bad = new StringBuilder();
      for (int i = at; i < at + result.length(); i++) {
        bad.append(bad.length() == 0 ? "" : " ").append(String.format("0x%02x", b[i] & 0xFF));
      }
      throw new NotUtf8("the " + unit + " is not UTF-8 text (" + bad + " at byte " + (at - off + 1) + " of the " + unit + ")",
          new String(b, off, len, StandardCharsets.UTF_8));
    }
    return chars.flip().toString();
  }

  private static CharsetDecoder strictDecoder() {
    return StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
  }

  private int indexOfNewline() {
    for (int i = pos; i < limit; i++) {
      if (buf[i] == '\n') {
        return i;
      }
    }
    return -1;
  }

  /** Keeps the unread bytes and reads more after them, growing the buffer for a long line. */
  private void fill() throws IOException {
    int rest = limit - pos;
    if (pos == 0 && rest == buf.length) {
      buf = Arrays.copyOf(buf, buf.length * 2);
    } else if (pos > 0) {
      System.arraycopy(buf, pos, buf, 0, rest);
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

  @Override
  public void close() throws IOException {
    in.close();
  }
}
