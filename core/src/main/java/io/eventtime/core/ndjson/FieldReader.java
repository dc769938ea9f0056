package io.eventtime.core.ndjson;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
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

  private final String[] names;
  private final int width;

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
