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
    if (v instanceof Integer || v instanceof Short || v instanceof Byte) {
      return ((Number) v).longValue();
    }
    if (v instanceof BigInteger b) {
      // longValue() would keep only the low 64 bits: a bigger whole number is a double, as in JSON
      return b.bitLength() < 64 ? (Object) b.longValue() : (Object) b.doubleValue();
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
   * A value as a key holds it: a number is a number, whatever its Java type or JSON spelling, so
   * a whole number within the 64-bit range is a {@link Long} ({@code 1.0}, {@code 1e0} and
   * {@code -0.0} are {@code 1}, {@code 1}, {@code 0}); every other number stays a {@link Double}.
   * Two canonical values are equal exactly when {@link #compare} finds them equal.
   */
  public static Object canonical(Object v) {
    Object n = normalize(v);
    if (n instanceof Double d && d == Math.rint(d) && d >= -0x1p63 && d < 0x1p63) {
      return (long) (double) d;
    }
    return n;
  }

  /**
   * Orders two values: nulls first, numbers by their exact value whatever their type, then values of one
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
    // the usual key value, ahead of the number cases: what the class test below gives, sooner
    if (a instanceof String x && b instanceof String y) {
      return x.compareTo(y);
    }
    if (a instanceof Long x && b instanceof Double y) {
      return compareExactly(x, y);
    }
    if (a instanceof Double x && b instanceof Long y) {
      return -compareExactly(y, x);
    }
    if (a instanceof Number x && b instanceof Number y) {
      return Double.compare(x.doubleValue(), y.doubleValue());
    }
    if (a.getClass() == b.getClass() && a instanceof Comparable c) {
      return c.compareTo(b);
    }
    return a.getClass().getName().compareTo(b.getClass().getName());
  }

  /**
   * Compares a whole number with a double by their exact values (a cast to double would make
   * 2^53 + 1 equal to 2^53, and Long.MAX_VALUE equal to 2^63); NaN is above every number.
   */
  private static int compareExactly(long x, double y) {
    if (Double.isNaN(y) || y >= 0x1p63) {
      return -1;
    }
    if (y < -0x1p63) {
      return 1;
    }
    long whole = (long) y; // toward zero, exact in this range
    if (x != whole) {
      return Long.compare(x, whole);
    }
    double fraction = y - whole;
    return fraction > 0 ? -1 : fraction < 0 ? 1 : 0;
  }
}
