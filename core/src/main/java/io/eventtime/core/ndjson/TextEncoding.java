package io.eventtime.core.ndjson;

import java.io.BufferedInputStream;
import java.io.IOException;

/**
 * Tells a file that is not UTF-8 by its first bytes, so that a reader can say so once instead
 * of rejecting every line for reasons that miss the point. NDJSON is UTF-8 (a UTF-8 byte order
 * mark is skipped); a UTF-16 or UTF-32 file shows a byte order mark of its own, or, since a JSON
 * line starts with an ASCII character, zero bytes interleaved with its first characters; a
 * compressed file (gzip, bzip2, xz, zstd, zip) shows its format's magic bytes, none of which
 * starts a line of JSON.
 */
public final class TextEncoding {
  /** The compression formats told by their magic bytes, with the command that writes the text out. */
  private enum Compression {
    GZIP("gzip", "gzip -dc", 0x1F, 0x8B, -1, -1),
    BZIP2("bzip2", "bzip2 -dc", 'B', 'Z', 'h', -1),
    XZ("xz", "xz -dc", 0xFD, '7', 'z', 'X'),
    ZSTD("zstd", "zstd -dc", 0x28, 0xB5, 0x2F, 0xFD),
    ZIP("zip", "unzip -p", 'P', 'K', 3, 4);

    final String format;
    final String decompress;
    /** The first bytes, -1 where any byte will do (bzip2's fourth is checked apart). */
    private final int[] magic;

    Compression(String format, String decompress, int... magic) {
      this.format = format;
      this.decompress = decompress;
      this.magic = magic;
    }

    boolean startsWith(int... head) {
      for (int i = 0; i < magic.length; i++) {
        if (magic[i] >= 0 && head[i] != magic[i]) {
          return false;
        }
      }
      // bzip2's fourth byte is its block size, '1' to '9': "BZh" alone could start a line of text
      return this != BZIP2 || (head[3] >= '1' && head[3] <= '9');
    }
  }

  private TextEncoding() {}

  /**
   * Why the file starting with {@code head[0, len)} cannot be read as UTF-8, or null when it
   * can be: {@code it is UTF-16LE text (...), not UTF-8: convert it first, e.g. iconv ...}.
   */
  public static String notUtf8(byte[] head, int len) {
    int b0 = len > 0 ? head[0] & 0xFF : -1;
    int b1 = len > 1 ? head[1] & 0xFF : -1;
    int b2 = len > 2 ? head[2] & 0xFF : -1;
    int b3 = len > 3 ? head[3] & 0xFF : -1;
    for (Compression c : Compression.values()) {
      if (c.startsWith(b0, b1, b2, b3)) {
        return "it is " + c.format + "-compressed (it starts with " + c.format + "'s magic bytes), not UTF-8 text:"
            + " decompress it first, e.g. with " + c.decompress;
      }
    }
    if (b0 == 0 && b1 == 0 && b2 == 0xFE && b3 == 0xFF) {
      return reason("UTF-32BE", true);
    }
    if (b0 == 0xFF && b1 == 0xFE && b2 == 0 && b3 == 0) {
      return reason("UTF-32LE", true);
    }
    if (b0 == 0xFE && b1 == 0xFF) {
      return reason("UTF-16BE", true);
    }
    if (b0 == 0xFF && b1 == 0xFE) {
      return reason("UTF-16LE", true);
    }
    if (b0 == 0 && b1 == 0 && b2 == 0 && b3 > 0) {
      return reason("UTF-32BE", false);
    }
    if (b0 > 0 && b1 == 0 && b2 == 0 && b3 == 0) {
      return reason("UTF-32LE", false);
    }
    if (b0 == 0 && b1 > 0) {
      return reason("UTF-16BE", false);
    }
    if (b0 > 0 && b1 == 0) {
      return reason("UTF-16LE", false);
    }
    return null;
  }

  /**
   * For a value read on its own (a Kafka record's): {@code the value is not UTF-8 text: it is
   * UTF-16LE text ...} when its first bytes show another encoding or a compression, else null (its
   * bytes may still not be UTF-8: {@link Utf8Lines} tells which).
   */
  public static String otherEncoding(byte[] bytes, int off, int len, String unit) {
    byte[] head = java.util.Arrays.copyOfRange(bytes, off, off + Math.min(4, len));
    String other = notUtf8(head, head.length);
    return other == null ? null : "the " + unit + " is not UTF-8 text: " + other;
  }

  /**
   * Looks at the first bytes of {@code in} without consuming them and, when they are not UTF-8,
   * closes it and throws an {@link IOException} whose message is the {@link #notUtf8} reason.
   */
  public static void requireUtf8(BufferedInputStream in) throws IOException {
    in.mark(4);
    byte[] head = in.readNBytes(4);
    in.reset();
    String notUtf8 = notUtf8(head, head.length);
    if (notUtf8 != null) {
      in.close();
      throw new IOException(notUtf8);
    }
  }

  private static String reason(String encoding, boolean byteOrderMark) {
    return "it is " + encoding + " text (" + (byteOrderMark ? "it starts with a " + encoding + " byte order mark"
        : "zero bytes are interleaved with its first characters") + "), not UTF-8: convert it first, e.g. iconv -f "
        + encoding + " -t UTF-8";
  }
}
