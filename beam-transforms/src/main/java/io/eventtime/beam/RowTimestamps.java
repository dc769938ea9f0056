package io.eventtime.beam;

import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.GlobalWindow;
import org.apache.beam.sdk.transforms.windowing.TimestampCombiner;
import org.apache.beam.sdk.transforms.windowing.Window;
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

  /**
   * The global window, with a group's results at its inputs' earliest timestamp rather than at
   * the end of the global window: what each step takes in is stamped at or before what it gives
   * out (positions and times at the earliest timestamp of their bundle's rows, partials at their
   * window's end), so that Beam's watermark stays behind the window rows and late rows, and Beam's
   * own windows can take them on at their timestamps. That holds for rows stamped at or before
   * their event time (NdjsonIO's, EventTimestamps'); rows stamped later still get their window
   * row's timestamp, behind the watermark then.
   */
  static <T> Window<T> earliest() {
    return Window.<T>configure().withTimestampCombiner(TimestampCombiner.EARLIEST);
  }
}
