package io.eventtime.core.ndjson;

/**
 * A JSON object or array found as a field's value. It is kept apart from strings (an object and
 * the string of its text are different values) and is not a value a column holds: a row whose
 * read field holds one is rejected, with {@link #describe} saying what it was.
 */
public record NestedValue(boolean isArray, String json) {

  /** {@code an object {"a":1}} or {@code an array [1,2]}, shortened past 60 characters. */
  public String describe() {
    return (isArray ? "an array " : "an object ") + (json.length() <= 60 ? json : json.substring(0, 57) + "...");
  }

  @Override
  public String toString() {
    return json;
  }
}
