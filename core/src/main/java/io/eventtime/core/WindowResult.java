package io.eventtime.core;

import java.util.Arrays;
import java.util.Comparator;

/**
 * One emitted window of one key: its interval {@code [start, end)} and the aggregate values in
 * the order of the query's aggregates.
 */
public record WindowResult(Key key, long start, long end, Object[] values) implements java.io.Serializable {

  /** The order windows close in: by end, then start, then key. */
  public static final Comparator<WindowResult> CLOSE_ORDER = Comparator.comparingLong(WindowResult::end)
      .thenComparingLong(WindowResult::start)
      .thenComparing(WindowResult::key);

  @Override
  public boolean equals(Object o) {
    return o instanceof WindowResult r && r.start == start && r.end == end && r.key.equals(key)
        && Arrays.equals(r.values, values);
  }

  @Override
  public int hashCode() {
    return (key.hashCode() * 31 + Long.hashCode(start)) * 31 + Arrays.hashCode(values);
  }

  @Override
  public String toString() {
    return "WindowResult" + key + "[" + start + ", " + end + ")" + Arrays.toString(values);
  }
}
