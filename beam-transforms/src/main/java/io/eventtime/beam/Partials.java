package io.eventtime.beam;

import io.eventtime.core.Accumulator;
import io.eventtime.core.Aggregates;
import io.eventtime.core.Key;
import java.util.HashMap;
import java.util.Map;
import java.util.function.BiConsumer;
import org.joda.time.Instant;

/** The partial aggregates of grid windows, by key and window start, as one bundle or group folds them. */
final class Partials {
  private final Aggregates aggregates;
  private final long windowSize;
  private final Map<WindowKey, Accumulator[]> byWindow = new HashMap<>();

  Partials(Aggregates aggregates, long windowSize) {
    this.aggregates = aggregates;
    this.windowSize = windowSize;
  }

  /** The end of the grid window of {@code size} that starts at {@code start}, at most the largest time. */
  static long windowEnd(long start, long size) {
    long end = start + size;
    return end < start ? Long.MAX_VALUE : end;
  }

  /** Folds a row into the first {@code n} of the windows that start at {@code starts}. */
  void add(Key key, long[] starts, int n, Object[] inputs, long arrival) {
    for (int i = 0; i < n; i++) {
      aggregates.add(byWindow.computeIfAbsent(new WindowKey(key, starts[i]), k -> aggregates.create()), inputs, arrival);
    }
  }

  int size() {
    return byWindow.size();
  }

  void forEach(BiConsumer<WindowKey, Accumulator[]> each) {
    byWindow.forEach(each);
  }

  /** A partial goes on at its window row's timestamp, so that Beam's watermark holds there. */
  Instant timestamp(WindowKey window) {
    return RowTimestamps.ofWindow(windowEnd(window.start(), windowSize));
  }
}
