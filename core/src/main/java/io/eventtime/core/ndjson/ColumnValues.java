package io.eventtime.core.ndjson;

import io.eventtime.core.EventTimeException;
import io.eventtime.core.EventTimeParser;
import io.eventtime.core.ValueType;
import io.eventtime.core.Values;
import java.time.Instant;

/**
 * How a JSON value read from a line ({@link NdjsonLines#parse}, {@link FieldReader}) becomes a
 * value of its column's type: the one rule of every surface that reads NDJSON into typed columns.
 * <ul>
 *   <li>A whole-number column (INT64) takes a number that is a whole number within the 64-bit
 *       range, however it is spelled ({@code 5}, {@code 5.0}, {@code 5e0} are {@code 5}); a
 *       fraction ({@code 0.5}) or a whole number beyond that range does not fit.
 *   <li>A floating-point column (DOUBLE) takes any number, as a double.
 *   <li>A string column (STRING, or a column of unknown type) takes a string as it is, and a
 *       number or boolean as its text: a number in {@link Values#canonical} form ({@code 1} for
 *       {@code 1.0}), so a number is one value there too.
 *   <li>A BOOLEAN column takes true and false; a TIMESTAMP column a date-time string.
 *   <li>No column takes an object or an array ({@link NestedValue}).
 * </ul>
 * A value that does not fit raises {@link Mismatch} with the reason; the surface rejects the row,
 * naming the field. Null is null in every column.
 */
public final class ColumnValues {
  private ColumnValues() {}

  /** A value that does not fit its column; the message says why, without the field's name. */
  public static final class Mismatch extends Exception {
    public Mismatch(String reason) {
      super(reason, null, false, false);
    }
  }

  /**
   * {@code v} as a value of {@code type} (null for a column of unknown type, read as STRING);
   * {@code typeName} is the type as the surface's messages name it (BIGINT, INT64...).
   */
  public static Object convert(Object v, ValueType type, String typeName, EventTimeParser times) throws Mismatch {
    if (v == null) {
      return null;
    }
    if (v instanceof NestedValue nested) {
      throw new Mismatch(nestedReason(nested));
    }
    if (type == null || type == ValueType.STRING) {
      return v instanceof Number ? Values.canonical(v).toString() : v.toString();
    }
    switch (type) {
      case INT64:
        return wholeNumber(v, typeName);
      case DOUBLE:
        if (v instanceof Number n) {
          return n.doubleValue();
        }
        throw new Mismatch(describe(v) + " is not a number (the column is " + typeName + ")");
      case BOOLEAN:
        if (v instanceof Boolean) {
          return v;
        }
        throw new Mismatch(describe(v) + " is not a boolean (the column is " + typeName + ")");
      default:
        if (!(v instanceof String s)) {
          throw new Mismatch(describe(v) + " is not a date-time string (the column is " + typeName + ")");
        }
        try {
          return Instant.ofEpochMilli(times.parse(s));
        } catch (EventTimeException e) {
          throw new Mismatch(e.getMessage());
        }
    }
  }

  /**
   * Why a row without a value for a field its schema says is not nullable is rejected: the field
   * is {@code written} as null, or not written at all.
   */
  public static String requiredReason(boolean written) {
    return (written ? "the value is null" : "the field is missing") + ", and the schema requires it";
  }

  /** Why an object or array is no column's value. */
  public static String nestedReason(NestedValue nested) {
    return nested.describe() + " is not a column's value (a column holds a number, a string, a boolean or null)";
  }

  private static Long wholeNumber(Object v, String typeName) throws Mismatch {
    if (!(v instanceof Number)) {
      throw new Mismatch(describe(v) + " is not a number (the column is " + typeName + ")");
    }
    Object n = Values.canonical(v);
    if (n instanceof Long l) {
      return l;
    }
    double d = (Double) n;
    if (d == Math.rint(d)) {
      throw new Mismatch(d + " does not fit a 64-bit whole number (the column is " + typeName + ")");
    }
    throw new Mismatch(d + " is not a whole number (the column is " + typeName + ")");
  }

  /**
   * A value as messages show it: a string quoted ({@code 'abc'}, shortened past 60 characters),
   * an object or array as what it is ({@code an array [1,2]}), a number or boolean as its text.
   */
  public static String describe(Object v) {
    if (v instanceof String s) {
      return "'" + (s.length() <= 60 ? s : s.substring(0, 57) + "...") + "'";
    }
    if (v instanceof NestedValue nested) {
      return nested.describe();
    }
    return String.valueOf(v);
  }
}
