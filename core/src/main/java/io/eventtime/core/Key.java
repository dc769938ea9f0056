package io.eventtime.core;

import java.io.Serializable;
import java.util.Arrays;
import java.util.List;

/**
 * The values of the group-by fields of a row: windows are kept per key. With no group-by
 * fields every row has the {@link #GLOBAL} key. Keys order by their values, field after field,
 * so that windows that close together come out in a stable order.
 *
 * <p>A number is a number: the values are held in {@link Values#canonical} form, so {@code 1},
 * {@code 1.0} and {@code 1e0} (a Hop Integer and a Hop Number, a Beam INT64 and a DOUBLE) make
 * one key, which holds {@code 1L}. Equal keys compare equal and unequal keys do not, so a key
 * finds its windows the same way in hash maps and in sorted sets.
 */
public final class Key implements Comparable<Key>, Serializable {
  public static final Key GLOBAL = new Key(new Object[0]);

  private final Object[] values;
  private final int hash;

  private Key(Object[] values) {
    this.values = values;
    this.hash = Arrays.hashCode(values);
  }

  /** A key of the given values (in {@link Values#canonical} form). */
  public static Key of(Object... values) {
    if (values.length == 0) {
      return GLOBAL;
    }
    Object[] copy = new Object[values.length];
    for (int i = 0; i < values.length; i++) {
      copy[i] = Values.canonical(values[i]);
    }
    return new Key(copy);
  }

  /**
   * The hash of the key of {@code values}, already in {@link Values#canonical} form:
   * {@code Key.of(values).hashCode()}, without making the key.
   */
  public static int hashOf(Object[] values) {
    return Arrays.hashCode(values);
  }

  /** Whether this key holds exactly {@code values} (in {@link Values#canonical} form), in order. */
  public boolean hasValues(Object[] values) {
    return Arrays.equals(this.values, values);
  }

  public int size() {
    return values.length;
  }

  public Object get(int i) {
    return values[i];
  }

  public List<Object> values() {
    return Arrays.asList(values.clone());
  }

  @Override
  public int compareTo(Key other) {
    int n = Math.min(values.length, other.values.length);
    for (int i = 0; i < n; i++) {
      int c = Values.compare(values[i], other.values[i]);
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(values.length, other.values.length);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Key k && hash == k.hash && Arrays.equals(values, k.values);
  }

  @Override
  public int hashCode() {
    return hash;
  }

  @Override
  public String toString() {
    return Arrays.toString(values);
  }
}
