package io.eventtime.core.ndjson;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.io.SerializedString;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * Reads only the wanted fields of one NDJSON line, straight from its UTF-8 bytes, with Jackson's
 * streaming parser: the other fields are skipped without building values for them. Values come
 * in the types {@link NdjsonLines#parse} gives; a wanted field the line lacks is
 * {@link #MISSING}. The whole line is still checked: a line that is not exactly one JSON object
 * raises {@link MalformedLineException}, as with {@link NdjsonLines#parse}; so does a wanted
 * field that is written twice or holds a number beyond the range of a double (the other fields
 * are not read, so nothing is said of them).
 *
 * <pre>{@code
 * FieldReader reader = new FieldReader(List.of("merchant", "event_time"));
 * Object[] values = new Object[2];
 * reader.read(lineBytes, 0, lineBytes.length, values);
 * }</pre>
 *
 * <p>Lines that lie one after another in one buffer (a batch) are read faster with
 * {@link #readNext}: one parser goes over all of them, instead of a parser made and released per
 * line (most of the cost of a short line).
 *
 * <pre>{@code
 * for (int i = 0; i < lines; i++) {
 *   reader.readNext(batch, offsets[i], lengths[i], used, values);
 * }
 * reader.endLines();
 * }</pre>
 *
 * <p>Not thread-safe: one reader per stream.
 */
public final class FieldReader {
  /** The value of a wanted field that the line does not have (a JSON null is {@code null}). */
  public static final Object MISSING = new Object() {
    @Override
    public String toString() {
      return "MISSING";
    }
  };

  /** Fields guessed by position, at most: a line of more is read without a guess past them. */
  private static final int MOST_GUESSED = 64;

  private final String[] names;
  private final int width;
  /** The parser of {@link #readNext}, over {@code runBuf[runBase, runEnd)}; null when none is open. */
  private JsonParser run;
  private byte[] runBuf;
  private int runBase;
  private int runEnd;
  /** Where the line after the last one the run read starts: only that line goes on with the run. */
  private int runNext;
  /**
   * The run's guess of each field's name by its position, from the lines before, and its slot
   * (-1: not wanted): the lines of a stream mostly name the same fields in the same order, and
   * Jackson matches an expected name by its bytes, without looking the name up.
   */
  private SerializedString[] namesAt = new SerializedString[8];
  private int[] slotsAt = new int[8];

  public FieldReader(List<String> fields) {
    this.width = fields.size();
    // Jackson interns field names, so a wanted name is usually found by identity; equals covers the rest
    this.names = fields.stream().map(String::intern).toArray(String[]::new);
  }

  private int slotOf(String name) {
    for (int i = 0; i < names.length; i++) {
      if (names[i] == name) {
        return i;
      }
    }
    for (int i = 0; i < names.length; i++) {
      if (names[i].equals(name)) {
        return i;
      }
    }
    return -1;
  }

  /**
   * Reads the line at {@code buf[off, off+len)} exactly as {@link #read} does, when the lines of
   * {@code buf[.., end)} are read in their order: the parser that read the line before goes on
   * with this one. Only a line that is one JSON object, with nothing but JSON whitespace around
   * it, no wanted field twice and every wanted value readable, is taken from that parser (its
   * tokens are then the ones a parser of the line alone reads); any other line, and a line that
   * is not the one right after the last, is read alone by {@link #read}, which gives its values
   * or its error, and the next line starts a new parser. The bytes must not change until
   * {@link #endLines}.
   */
  public void readNext(byte[] buf, int off, int len, int end, Object[] out) throws MalformedLineException {
    if (run == null || buf != runBuf || end != runEnd || off != runNext) {
      endLines();
      JsonParser p;
      try {
        p = NdjsonLines.FACTORY.createParser(buf, off, end - off);
      } catch (IOException e) {
        read(buf, off, len, out);
        return;
      }
      if (p.currentLocation().getByteOffset() < 0) {
        // the first bytes made Jackson decode UTF-16 or 32: no byte offsets to check lines with
        closeQuietly(p);
        read(buf, off, len, out);
        return;
      }
      run = p;
      runBuf = buf;
      runBase = off;
      runEnd = end;
    }
    if (readInRun(buf, off, len, out)) {
      runNext = off + len;
    } else {
      endLines(); // the run's parser may stand anywhere now: the next line starts a new one
      read(buf, off, len, out);
    }
  }

  /** Releases the parser of {@link #readNext}: after the last line of a buffer. */
  public void endLines() {
    if (run != null) {
      closeQuietly(run);
      run = null;
      runBuf = null;
    }
  }

  private static void closeQuietly(JsonParser p) {
    try {
      p.close();
    } catch (IOException e) {
      // a parser over bytes holds no resource that can fail to close
    }
  }

  /** Whether the run's parser read the line at {@code buf[off, off+len)} into {@code out}, as {@link #read} would. */
  private boolean readInRun(byte[] buf, int off, int len, Object[] out) {
    for (int i = 0; i < width; i++) {
      out[i] = MISSING;
    }
    long lineEnd = off + len - runBase; // the parser counts bytes from runBase
    try {
      JsonParser p = run;
      if (p.nextToken() != JsonToken.START_OBJECT) {
        return false;
      }
      JsonToken t;
      for (int at = 0; ; at++) {
        int slot;
        if (at < namesAt.length && namesAt[at] != null) {
          if (p.nextFieldName(namesAt[at])) {
            slot = slotsAt[at];
          } else if ((t = p.currentToken()) == JsonToken.FIELD_NAME) {
            slot = nameAt(at, p.currentName());
          } else {
            break;
          }
        } else if ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
          slot = nameAt(at, p.currentName());
        } else {
          break;
        }
        JsonToken value = p.nextToken();
        if (slot < 0) {
          p.skipChildren();
        } else if (out[slot] != MISSING) {
          return false; // a field twice: read() words it
        } else {
          out[slot] = NdjsonLines.readValue(p, value);
        }
      }
      if (t != JsonToken.END_OBJECT) {
        return false;
      }
      long objectEnd = p.currentTokenLocation().getByteOffset() + 1;
      if (objectEnd > lineEnd) {
        // the object ends in a later line: this line alone is not closed, or is blank
        return false;
      }
      for (int i = runBase + (int) objectEnd; i < off + len; i++) {
        if (!isJsonSpace(buf[i])) {
          return false; // more after the object: read() words it
        }
      }
      return true;
    } catch (IOException e) {
      return false; // malformed, a bad value: read() says why
    }
  }

  /** Remembers {@code name} as the run's guess for the field at position {@code at}; returns its slot. */
  private int nameAt(int at, String name) {
    int slot = slotOf(name);
    if (at < MOST_GUESSED) {
      if (at >= namesAt.length) {
        namesAt = Arrays.copyOf(namesAt, Math.min(MOST_GUESSED, 2 * at));
        slotsAt = Arrays.copyOf(slotsAt, namesAt.length);
      }
      namesAt[at] = new SerializedString(name);
      slotsAt[at] = slot;
    }
    return slot;
  }

  /** The four bytes JSON allows between tokens. */
  private static boolean isJsonSpace(byte b) {
    return b == ' ' || b == '\t' || b == '\n' || b == '\r';
  }

  /** Fills {@code out[i]} with the value of the i-th wanted field of the line at {@code buf[off, off+len)}. */
  public void read(byte[] buf, int off, int len, Object[] out) throws MalformedLineException {
    for (int i = 0; i < width; i++) {
      out[i] = MISSING;
    }
    try (JsonParser p = NdjsonLines.FACTORY.createParser(buf, off, len)) {
      JsonToken t = p.nextToken();
      if (t != JsonToken.START_OBJECT) {
        throw new MalformedLineException("the line is not a JSON object (it starts with " + NdjsonLines.describe(t) + ")");
      }
      MalformedLineException badField = null;
      while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
        int slot = slotOf(p.currentName());
        JsonToken value = p.nextToken();
        if (slot < 0) {
          p.skipChildren();
        } else if (out[slot] != MISSING) {
          badField = badField != null ? badField : NdjsonLines.twice(names[slot]);
          p.skipChildren();
        } else {
          try {
            out[slot] = NdjsonLines.readValue(p, value);
          } catch (MalformedLineException e) {
            if (e.field() == null) {
              throw e;
            }
            badField = badField != null ? badField : e;
            out[slot] = null; // taken: a second spelling of the field is still found twice
          }
        }
      }
      if (t != JsonToken.END_OBJECT) {
        throw new MalformedLineException("the JSON object is not closed");
      }
      long objectEnd = p.currentTokenLocation().getByteOffset() + 1;
      String extra;
      try {
        JsonToken after = p.nextToken();
        extra = after == null ? null : NdjsonLines.describe(after);
      } catch (JsonProcessingException e) {
        int from = (int) Math.min(len, Math.max(0, objectEnd));
        extra = "'" + new String(buf, off + from, len - from, StandardCharsets.UTF_8).trim() + "'";
      }
      if (extra != null) {
        throw new MalformedLineException("there is more after the JSON object (" + extra + ")");
      }
      if (badField != null) {
        throw badField;
      }
    } catch (JsonProcessingException e) {
      throw new MalformedLineException("malformed JSON: " + e.getOriginalMessage());
    } catch (MalformedLineException e) {
      throw e;
    } catch (IOException e) {
      throw new MalformedLineException("unreadable: " + e.getMessage());
    }
  }
}
