package io.eventtime.core.ndjson;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.util.Map;

/**
 * Tells a file that is not UTF-8 by its first bytes, so that a reader can say so once instead
 * of rejecting every line for reasons that miss the point. NDJSON is UTF-8 (a UTF-8 byte order
 * mark is skipped); a UTF-16 or UTF-32 file shows a byte order mark of its own, or, since a JSON
 * line starts with an ASCII character, zero bytes interleaved with its first characters; a
 * compressed file (gzip, bzip2, xz, zstd, zip) shows its format's magic bytes, none of which
 * starts a line of JSON.
 */
public final class TextEncoding {
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
    String compressed = compression(b0, b1, b2, b3);
    if (compressed != null) {
      return "it is " + compressed + "-compressed (it starts with " + compressed + "'s magic bytes), not UTF-8 text:"
          + " decompress it first, e.g. " + DECOMPRESS.get(compressed);
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

  /** How each compression format {@link #compression} tells is undone. */
  private static final Map<String, String> DECOMPRESS = Map.of("gzip", "gzip -d", "bzip2", "bzip2 -d", "xz", "xz -d",
      "zstd", "zstd -d", "zip", "unzip");

  /** The compression format whose magic bytes a file starts with, or null. */
  private static String compression(int b0, int b1, int b2, int b3) {
    if (b0 == 0x1F && b1 == 0x8B) {
      return "gzip";
    }
    if (b0 == 'B' && b1 == 'Z' && b2 == 'h' && b3 >= '1' && b3 <= '9') {
      return "bzip2";
    }
    if (b0 == 0xFD && b1 == '7' && b2 == 'z' && b3 == 'X') {
      return "xz";
    }
    if (b0 == 0x28 && b1 == 0xB5 && b2 == 0x2F && b3 == 0xFD) {
      return "zstd";
    }
    if (b0 == 'P' && b1 == 'K' && b2 == 3 && b3 == 4) {
      return "zip";
    }
    return null;
  }

  private static String reason(String encoding, boolean byteOrderMark) {
    return "it is " + encoding + " text (" + (byteOrderMark ? "it starts with a " + encoding + " byte order mark"
        : "zero bytes are interleaved with its first characters") + "), not UTF-8: convert it first, e.g. iconv -f "
        + encoding + " -t UTF-8";
  }
}
