package io.eventtime.core.ndjson;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Reads one line of newline-delimited JSON into field values of the core's types: strings,
 * {@link Long} for whole numbers, {@link Double} for the others, {@link Boolean}, null; a
 * nested object or array is a {@link NestedValue} (not a string: it is no column's value). A
 * line that is not one JSON object raises {@link MalformedLineException} with the reason; so
 * does, naming the field, a number beyond the range of a double (it would be read as infinity)
 * and a field name written twice in the object (which value was meant cannot be told).
 */
public final class NdjsonLines {
  static final JsonFactory FACTORY = new JsonFactory();

  /**
   * For nested values only: made on the first one, so that a run without them does not load
   * Jackson's databind (hundreds of classes, a tenth of a second before the first row).
   */
  private static final class Trees {
    static final ObjectMapper MAPPER = new ObjectMapper();
  }

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
      MalformedLineException badField = null;
      JsonToken t;
      while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        JsonToken value = p.nextToken();
        if (fields.containsKey(name)) {
          badField = badField != null ? badField : twice(name);
          p.skipChildren();
          continue;
        }
        try {
          fields.put(name, readValue(p, value));
        } catch (MalformedLineException e) {
          if (e.field() == null) {
            throw e;
          }
          badField = badField != null ? badField : e;
        }
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
      if (badField != null) {
        throw badField;
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
        return p.getNumberType() == JsonParser.NumberType.BIG_INTEGER ? (Object) finite(p) : (Object) p.getLongValue();
      case VALUE_NUMBER_FLOAT:
        return finite(p);
      case VALUE_TRUE:
        return Boolean.TRUE;
      case VALUE_FALSE:
        return Boolean.FALSE;
      case VALUE_NULL:
        return null;
      case START_OBJECT:
      case START_ARRAY:
        return new NestedValue(t == JsonToken.START_ARRAY, Trees.MAPPER.writeValueAsString(Trees.MAPPER.readTree(p)));
      default:
        throw new MalformedLineException("unexpected " + describe(t));
    }
  }

  /** The number at the parser as a double, refused (naming its field) when it is beyond a double's range. */
  private static double finite(JsonParser p) throws IOException {
    double d = p.getDoubleValue();
    if (Double.isInfinite(d)) {
      String text = p.getText();
      throw new MalformedLineException(p.currentName(), "the number " + (text.length() <= 40 ? text
          : text.substring(0, 37) + "...") + " is beyond the range of a double (at most about 1.8e308 in size)");
    }
    return d;
  }

  /** Why an object that names {@code field} twice is refused. */
  static MalformedLineException twice(String field) {
    return new MalformedLineException(field, "the field " + field + " appears twice in the object: keep one");
  }

  static String describe(JsonToken t) {
    return t == null ? "nothing" : t.asString() != null ? "'" + t.asString() + "'" : t.name().toLowerCase(Locale.ROOT);
  }
}
