package io.eventtime.core.ndjson;

import io.eventtime.core.EventTimeParser;
import io.eventtime.core.ValueType;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Infers the type of each field from the values of sample rows: whole numbers are INT64, any
 * other number makes the field DOUBLE, booleans are BOOLEAN, strings that all read as date-times
 * ({@code 2026-07-18 10:00:03}, ISO-8601) are TIMESTAMP, other strings STRING. A field seen only
 * as null (or as objects and arrays, which no column holds) is STRING; a field whose values
 * disagree in kind is STRING. Fields keep the order in
 * which they are first seen.
 */
public final class SchemaInference {
  private static final Pattern DATE_TIME_SHAPE = Pattern.compile("\\d{4}-\\d{2}-\\d{2}[T ]\\d{2}:\\d{2}.*");
  private static final EventTimeParser ISO = EventTimeParser.defaults();

  private final Map<String, ValueType> types = new LinkedHashMap<>();
  private final Map<String, Boolean> conflicted = new LinkedHashMap<>();
  private final Map<String, Set<ValueType>> observed = new LinkedHashMap<>();

  /** Takes in one row's values. */
  public void observe(Map<String, Object> row) {
    for (Map.Entry<String, Object> e : row.entrySet()) {
      ValueType seen = typeOf(e.getValue());
      String field = e.getKey();
      Set<ValueType> kinds = observed.computeIfAbsent(field, f -> EnumSet.noneOf(ValueType.class));
      if (seen != null) {
        kinds.add(seen);
      }
      if (!types.containsKey(field)) {
        types.put(field, seen);
        continue;
      }
      ValueType known = types.get(field);
      if (seen == null || seen == known || conflicted.containsKey(field)) {
        continue;
      }
      if (known == null) {
        types.put(field, seen);
      } else if (known.isNumeric() && seen.isNumeric()) {
        types.put(field, ValueType.DOUBLE);
      } else {
        types.put(field, ValueType.STRING);
        conflicted.put(field, true);
      }
    }
  }

  /** The field types inferred so far (a field seen only as null is STRING). */
  public Map<String, ValueType> schema() {
    Map<String, ValueType> out = new LinkedHashMap<>();
    types.forEach((k, v) -> out.put(k, v == null ? ValueType.STRING : v));
    return Collections.unmodifiableMap(out);
  }

  /**
   * Every type the non-null values of {@code field} were seen in, before any conflict was
   * resolved to STRING: empty for a field seen only as null or not at all. A surface uses it to
   * tell a time field with a few bad values (mostly TIMESTAMP) from one that holds no times.
   */
  public Set<ValueType> observedTypes(String field) {
    Set<ValueType> kinds = observed.get(field);
    return kinds == null ? Set.of() : Collections.unmodifiableSet(kinds);
  }

  /** The type of one JSON value as {@link NdjsonLines#parse} gives it, or null for null and nested values. */
  public static ValueType typeOf(Object v) {
    if (v == null || v instanceof NestedValue) {
      return null;
    }
    if (v instanceof Long) {
      return ValueType.INT64;
    }
    if (v instanceof Double) {
      return ValueType.DOUBLE;
    }
    if (v instanceof Boolean) {
      return ValueType.BOOLEAN;
    }
    return looksLikeTimestamp((String) v) ? ValueType.TIMESTAMP : ValueType.STRING;
  }

  /** Whether a string is a date-time the default parser reads. */
  public static boolean looksLikeTimestamp(String s) {
    if (!DATE_TIME_SHAPE.matcher(s).matches()) {
      return false;
    }
    try {
      ISO.parse(s);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }
}
