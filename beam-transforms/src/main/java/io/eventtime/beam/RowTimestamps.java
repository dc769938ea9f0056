package io.eventtime.beam;

import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.GlobalWindow;
import org.joda.time.Instant;

/**
 * The Beam timestamps of what {@link EventTimeWindow} emits, so that its outputs can be windowed
 * again with Beam's own windows: a window row at its window's end less a millisecond (where
 * Beam's windowed GroupByKey puts its results by default), a late row at its event time. Times
 * beyond what a Beam timestamp holds are clamped to its range.
 */
final class RowTimestamps {
  private RowTimestamps() {}

  /** The timestamp of a window row: the last millisecond the window covers. */
  static Instant ofWindow(long end) {
    return at(end == Long.MIN_VALUE ? end : end - 1);
  }

  /** The timestamp at {@code millis}, within what a Beam timestamp in the global window holds. */
  static Instant at(long millis) {
    long lowest = BoundedWindow.TIMESTAMP_MIN_VALUE.getMillis();
    long highest = GlobalWindow.INSTANCE.maxTimestamp().getMillis();
    return new Instant(Math.max(lowest, Math.min(highest, millis)));
  }
}
