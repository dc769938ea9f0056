package io.eventtime.core.state;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.eventtime.core.ValueType;
import io.eventtime.core.Values;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Comparator;
import java.util.Iterator;
import java.util.Locale;

/**
 * Values in a state document keep their type: each is an object whose one field names the type,
 * {@code {"int64": 5}}, {@code {"double": 2.5}}, {@code {"string": "acme"}},
 * {@code {"boolean": true}}, {@code {"timestamp": "2026-03-01T00:10:00Z"}}, or JSON null. The tag
 * is needed because JSON does not tell 5 from 5.0 reliably across tools, nor a timestamp from a
 * string. Doubles that JSON numbers cannot hold are written as the strings {@code "NaN"},
 * {@code "Infinity"} and {@code "-Infinity"}.
 */
final class ValueJson {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /**
   * An order of all storable values with no ties between distinct ones ({@link Values#compare}
   * ties a Long and a Double of equal value), so that sets are written the same way every time.
   */
  static final Comparator<Object> TOTAL_ORDER = ((Comparator<Object>) Values::compare)
      .thenComparing(v -> v.getClass().getName());

  private ValueJson() {}

  static String tag(Object value) {
    for (ValueType t : ValueType.values()) {
      if (t.javaType().isInstance(value)) {
        return t.name().toLowerCase(Locale.ROOT);
      }
    }
    throw new IllegalArgumentException("a value of type " + value.getClass().getName() + " (" + value
        + ") cannot be stored: the core holds Long, Double, String, Boolean or Instant values"
        + " (convert others with Values.normalize before handing them to the processor)");
  }

  static JsonNode write(Object value) {
    if (value == null) {
      return NullNode.instance;
    }
    ObjectNode node = NODES.objectNode();
    String tag = tag(value);
    if (value instanceof Long l) {
      node.put(tag, l);
    } else if (value instanceof Double d) {
      node.set(tag, writeDouble(d));
    } else if (value instanceof Boolean b) {
      node.put(tag, b);
    } else {
      node.put(tag, value.toString()); // String, or Instant in ISO-8601 with all its digits
    }
    return node;
  }

  static JsonNode writeDouble(double d) {
    if (Double.isNaN(d)) {
      return TextNode.valueOf("NaN");
    }
    if (Double.isInfinite(d)) {
      return TextNode.valueOf(d > 0 ? "Infinity" : "-Infinity");
    }
    return DoubleNode.valueOf(d);
  }

  static double readDouble(JsonNode node, String where) {
    if (node != null && node.isFloatingPointNumber()) {
      return node.doubleValue();
    }
    if (node != null && node.isTextual()) {
      switch (node.textValue()) {
        case "NaN":
          return Double.NaN;
        case "Infinity":
          return Double.POSITIVE_INFINITY;
        case "-Infinity":
          return Double.NEGATIVE_INFINITY;
        default:
          break;
      }
    }
    throw new BadState(where, "expected a floating-point number (or \"NaN\", \"Infinity\", \"-Infinity\"),"
        + " found " + JsonFields.shown(node));
  }

  static Object read(JsonNode node, String where) {
    if (node != null && node.isNull()) {
      return null;
    }
    if (node == null || !node.isObject() || node.size() != 1) {
      throw new BadState(where, "expected null or a typed value such as {\"int64\": 5}, found "
          + JsonFields.shown(node));
    }
    Iterator<String> names = node.fieldNames();
    String tag = names.next();
    JsonNode v = node.get(tag);
    String at = where + "." + tag;
    switch (tag) {
      case "int64":
        return JsonFields.whole(v, at);
      case "double":
        return readDouble(v, at);
      case "string":
        return JsonFields.text(v, at);
      case "boolean":
        return JsonFields.bool(v, at);
      case "timestamp":
        try {
          return Instant.parse(JsonFields.text(v, at));
        } catch (DateTimeParseException e) {
          throw new BadState(at, "expected an ISO-8601 instant such as \"2026-03-01T00:10:00Z\", found "
              + JsonFields.shown(v));
        }
      default:
        throw new BadState(where, "unknown value type '" + tag + "': expected int64, double, string, boolean"
            + " or timestamp");
    }
  }
}
