package io.eventtime.core.ndjson;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads one line of newline-delimited JSON into field values of the core's types: strings,
 * {@link Long} for whole numbers, {@link Double} for the others, {@link Boolean}, null; a
 * nested object or array is kept as its JSON text. A line that is not one JSON object raises
 * {@link MalformedLineException} with the reason.
 */
public final class NdjsonLines {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  static final JsonFactory FACTORY = MAPPER.getFactory();

  private NdjsonLines() {}

  /** Whether a line holds no row at all (blank lines are skipped, not rejected). */
  public static boolean isBlank(String line) {
    return line.isBlank();
  }

  /** The fields of the object on {@code line}, in the order they are written. */
  public static Map<String, Object> parse(String line) throws MalformedLineException {
    try (JsonParser p = FACTORY.createParser(line)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new MalformedLineException("the line is not a JSON object (it starts with "
            + describe(p.currentToken()) + ")");
      }
      Map<String, Object> fields = new LinkedHashMap<>();
      JsonToken t;
      while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        fields.put(name, readValue(p, p.nextToken()));
      }
      if (t != JsonToken.END_OBJECT) {
        throw new MalformedLineException("the JSON object is not closed");
      }
      long objectEnd = p.currentTokenLocation().getCharOffset() + 1;
      String extra;
      try {
        JsonToken after = p.nextToken();
        extra = after == null ? null : describe(after);
      } catch (JsonProcessingException e) {
        extra = "'" + line.substring((int) Math.min(line.length(), objectEnd)).trim() + "'";
      }
      if (extra != null) {
        throw new MalformedLineException("there is more after the JSON object (" + extra + ")");
      }
      return fields;
    } catch (MalformedLineException e) {
      throw e;
    } catch (JsonProcessingException e) {
      throw new MalformedLineException("malformed JSON: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new MalformedLineException("unreadable: " + e.getMessage());
    }
  }

  static Object readValue(JsonParser p, JsonToken t) throws IOException {
    switch (t) {
      case VALUE_STRING:
        return p.getText();
      case VALUE_NUMBER_INT:
        return p.getNumberType() == JsonParser.NumberType.BIG_INTEGER ? (Object) p.getDoubleValue() : (Object) p.getLongValue();
      case VALUE_NUMBER_FLOAT:
        return p.getDoubleValue();
      case VALUE_TRUE:
        return Boolean.TRUE;
      case VALUE_FALSE:
        return Boolean.FALSE;
      case VALUE_NULL:
        return null;
      case START_OBJECT:
      case START_ARRAY:
        return MAPPER.writeValueAsString(p.readValueAsTree());
      default:
        throw new MalformedLineException("unexpected " + describe(t));
    }
  }

  static String describe(JsonToken t) {
    return t == null ? "nothing" : t.asString() != null ? "'" + t.asString() + "'" : t.name().toLowerCase();
  }
}
