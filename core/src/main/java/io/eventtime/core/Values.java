package io.eventtime.core;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.Date;

/**
 * The value types the core works with: {@link Long}, {@link Double}, {@link String},
 * {@link Boolean} and {@link Instant} (timestamps). The layers hand values over in these types;
 * {@link #normalize} widens the other Java numbers and dates to them.
 */
public final class Values {
  private Values() {}

  public static Object normalize(Object v) {
    if (v == null || v instanceof Long || v instanceof String || v instanceof Double
        || v instanceof Boolean || v instanceof Instant) {
      return v;
    }
    if (v instanceof Integer || v instanceof Short || v instanceof Byte || v instanceof BigInteger) {
      return ((Number) v).longValue();
    }
    if (v instanceof Float || v instanceof BigDecimal) {
      return ((Number) v).doubleValue();
    }
    if (v instanceof Date d) {
      return d.toInstant();
    }
    if (v instanceof CharSequence cs) {
      return cs.toString();
    }
    throw new IllegalArgumentException("values of type " + v.getClass().getSimpleName()
        + " cannot be grouped or aggregated: use a number, a string, a boolean or a timestamp");
  }

  /**
   * Orders two values: nulls first, numbers by value whatever their type, then values of one
   * type by their natural order; values of different types by the type's name, so any two keys
   * can be ordered.
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  public static int compare(Object a, Object b) {
    if (a == b) {
      return 0;
    }
    if (a == null) {
      return -1;
    }
    if (b == null) {
      return 1;
    }
    if (a instanceof Long x && b instanceof Long y) {
      return Long.compare(x, y);
    }
    if (a instanceof Number x && b instanceof Number y) {
      return Double.compare(x.doubleValue(), y.doubleValue());
    }
    if (a.getClass() == b.getClass() && a instanceof Comparable c) {
      return c.compareTo(b);
    }
    return a.getClass().getName().compareTo(b.getClass().getName());
  }
}
