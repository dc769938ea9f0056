package io.eventtime.core.state;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.List;

/**
 * Strict reading of a state document: every field where the format puts it, of the type it
 * says, and nothing else; anything else is a {@link BadState} naming the place.
 */
final class JsonFields {
  private JsonFields() {}

  static ObjectNode object(JsonNode node, String where) {
    if (node == null || !node.isObject()) {
      throw new BadState(where, "expected an object, found " + shown(node));
    }
    return (ObjectNode) node;
  }

  static ArrayNode array(JsonNode node, String where) {
    if (node == null || !node.isArray()) {
      throw new BadState(where, "expected an array, found " + shown(node));
    }
    return (ArrayNode) node;
  }

  /** Refuses a field the format does not have, or one it has that is missing. */
  static void exactly(ObjectNode object, String where, String... names) {
    List<String> expected = List.of(names);
    for (Iterator<String> it = object.fieldNames(); it.hasNext(); ) {
      String name = it.next();
      if (!expected.contains(name)) {
        throw new BadState(where, "unexpected field '" + name + "'");
      }
    }
    for (String name : names) {
      if (!object.has(name)) {
        throw new BadState(where, "the field '" + name + "' is missing");
      }
    }
  }

  static long whole(JsonNode node, String where) {
    if (node == null || !node.isIntegralNumber() || !node.canConvertToLong()) {
      throw new BadState(where, "expected a whole number (64 bits), found " + shown(node));
    }
    return node.longValue();
  }

  static long nonNegative(JsonNode node, String where) {
    long v = whole(node, where);
    if (v < 0) {
      throw new BadState(where, "expected a number of 0 or more, found " + v);
    }
    return v;
  }

  static Long wholeOrNull(JsonNode node, String where) {
    return node != null && node.isNull() ? null : whole(node, where);
  }

  static boolean bool(JsonNode node, String where) {
    if (node == null || !node.isBoolean()) {
      throw new BadState(where, "expected true or false, found " + shown(node));
    }
    return node.booleanValue();
  }

  static String text(JsonNode node, String where) {
    if (node == null || !node.isTextual()) {
      throw new BadState(where, "expected a string, found " + shown(node));
    }
    return node.textValue();
  }

  static String textOrNull(JsonNode node, String where) {
    return node != null && node.isNull() ? null : text(node, where);
  }

  static String shown(JsonNode node) {
    if (node == null || node.isMissingNode()) {
      return "nothing";
    }
    String s = node.toString();
    return s.length() > 60 ? s.substring(0, 57) + "..." : s;
  }
}
