package io.eventtime.core.ndjson;

import java.nio.charset.StandardCharsets;

/**
 * {@link FieldReader}'s fast path: reads the wanted fields of a line that is one flat JSON
 * object of plain values, without setting up a Jackson parser for it, and declines every other
 * line, which Jackson then reads. What it takes: names and strings of printable ASCII without
 * escapes, whole numbers of up to 18 digits, other numbers of up to 64 characters, {@code true},
 * {@code false}, {@code null}, JSON whitespace between tokens. It declines an object or array
 * value, a wanted field written twice, a number that is infinite as a double, and anything
 * malformed, so that what it reads is exactly what Jackson reads and every error is Jackson's
 * ({@code FlatLineTest} compares the two on random lines).
 */
final class FlatLine {
  private static final int LONGEST_NUMBER = 64;
  /** Whole numbers of up to this many digits fit a long, whatever the digits. */
  private static final int LONGEST_WHOLE = 18;

  private final byte[][] names;

  FlatLine(String[] names) {
    this.names = new byte[names.length][];
    for (int i = 0; i < names.length; i++) {
      this.names[i] = names[i].getBytes(StandardCharsets.UTF_8);
    }
  }

  /** The scan position, or -1 once the line is declined. */
  private int at;

  /**
   * Fills {@code out} (already {@link FieldReader#MISSING} in every slot) as Jackson would and
   * returns true, or returns false when the line is not one this path reads ({@code out} is then
   * to be refilled).
   */
  boolean read(byte[] b, int off, int len, Object[] out) {
    int end = off + len;
    int i = space(b, off, end);
    if (i >= end || b[i] != '{') {
      return false;
    }
    i = space(b, i + 1, end);
    if (i < end && b[i] == '}') {
      return space(b, i + 1, end) == end;
    }
    while (true) {
      if (i >= end || b[i] != '"') {
        return false;
      }
      int nameEnd = plainString(b, i + 1, end);
      if (nameEnd < 0) {
        return false;
      }
      int slot = slotOf(b, i + 1, nameEnd);
      i = space(b, nameEnd + 1, end);
      if (i >= end || b[i] != ':') {
        return false;
      }
      i = space(b, i + 1, end);
      if (i >= end) {
        return false;
      }
      if (slot >= 0 && out[slot] != FieldReader.MISSING) {
        return false; // a field twice: Jackson's path says so
      }
      Object value = value(b, i, end);
      if (at < 0) {
        return false;
      }
      if (slot >= 0) {
        out[slot] = value;
      }
      i = space(b, at, end);
      if (i >= end) {
        return false;
      }
      if (b[i] == '}') {
        return space(b, i + 1, end) == end;
      }
      if (b[i] != ',') {
        return false;
      }
      i = space(b, i + 1, end);
    }
  }

  /** The value at {@code b[i]}, with {@link #at} after it; {@link #at} is -1 when declined. */
  private Object value(byte[] b, int i, int end) {
    byte c = b[i];
    if (c == '"') {
      int close = plainString(b, i + 1, end);
      if (close < 0) {
        at = -1;
        return null;
      }
      at = close + 1;
      return new String(b, i + 1, close - i - 1, StandardCharsets.ISO_8859_1);
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
      return number(b, i, end);
    }
    if (c == 't' && literal(b, i, end, "true")) {
      return Boolean.TRUE;
    }
    if (c == 'f' && literal(b, i, end, "false")) {
      return Boolean.FALSE;
    }
    if (c == 'n' && literal(b, i, end, "null")) {
      return null;
    }
    at = -1;
    return null;
  }

  /** A JSON number: a Long when whole and short, else a finite Double, as Jackson gives them. */
  private Object number(byte[] b, int start, int end) {
    int i = start;
    if (b[i] == '-') {
      i++;
    }
    int digits = i;
    if (i < end && b[i] == '0') {
      i++;
    } else {
      while (i < end && b[i] >= '0' && b[i] <= '9') {
        i++;
      }
    }
    int wholeDigits = i - digits;
    boolean whole = true;
    if (i < end && b[i] == '.') {
      whole = false;
      int fraction = ++i;
      while (i < end && b[i] >= '0' && b[i] <= '9') {
        i++;
      }
      if (i == fraction) {
        wholeDigits = 0;
      }
    }
    if (i < end && (b[i] == 'e' || b[i] == 'E')) {
      whole = false;
      i++;
      if (i < end && (b[i] == '+' || b[i] == '-')) {
        i++;
      }
      int exponent = i;
      while (i < end && b[i] >= '0' && b[i] <= '9') {
        i++;
      }
      if (i == exponent) {
        wholeDigits = 0;
      }
    }
    // no digits where some must be, a leading zero before more digits, a number glued to what follows
    if (wholeDigits == 0 || i - start > LONGEST_NUMBER || (i < end && !endsValue(b[i]))) {
      at = -1;
      return null;
    }
    at = i;
    if (whole) {
      if (wholeDigits > LONGEST_WHOLE) {
        at = -1;
        return null;
      }
      long v = 0;
      for (int k = digits; k < i; k++) {
        v = v * 10 + (b[k] - '0');
      }
      return b[start] == '-' ? -v : v;
    }
    double d = Double.parseDouble(new String(b, start, i - start, StandardCharsets.ISO_8859_1));
    if (Double.isInfinite(d)) {
      at = -1; // Jackson's path names the field and the number
      return null;
    }
    return d;
  }

  private static boolean endsValue(byte c) {
    return c == ',' || c == '}' || c == ' ' || c == '\t' || c == '\r' || c == '\n';
  }

  private boolean literal(byte[] b, int i, int end, String word) {
    int n = word.length();
    if (end - i < n) {
      return false;
    }
    for (int k = 0; k < n; k++) {
      if (b[i + k] != word.charAt(k)) {
        return false;
      }
    }
    if (i + n < end && !endsValue(b[i + n])) {
      return false;
    }
    at = i + n;
    return true;
  }

  /** The index of the closing quote of a string of printable ASCII without escapes from {@code i}, or -1. */
  private static int plainString(byte[] b, int i, int end) {
    for (; i < end; i++) {
      byte c = b[i];
      if (c == '"') {
        return i;
      }
      if (c < 0x20 || c == '\\') { // a control character, an escape, or (negative) a byte beyond ASCII
        return -1;
      }
    }
    return -1;
  }

  private static int space(byte[] b, int i, int end) {
    while (i < end) {
      byte c = b[i];
      if (c != ' ' && c != '\t' && c != '\r' && c != '\n') {
        break;
      }
      i++;
    }
    return i;
  }

  private int slotOf(byte[] b, int from, int to) {
    int n = to - from;
    for (int s = 0; s < names.length; s++) {
      byte[] name = names[s];
      if (name.length == n && java.util.Arrays.equals(name, 0, n, b, from, to)) {
        return s;
      }
    }
    return -1;
  }
}
