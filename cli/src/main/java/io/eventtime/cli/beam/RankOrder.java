package io.eventtime.cli.beam;

import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Puts items ranked 0, 1, ... with no gap back in rank order as they come in any order: each is
 * handed on once every item ranked before it has been. What the driver prints the window rows of
 * a Beam run with, which the workers hand on in bundles of their own.
 */
final class RankOrder<T> {
  private final TreeMap<Long, T> waiting = new TreeMap<>();
  private long next;

  /** Takes {@code item} of rank {@code rank}; a rank taken twice fails, as a row handed on twice would print twice. */
  void add(long rank, T item) {
    if (rank < next || waiting.putIfAbsent(rank, item) != null) {
      throw new IllegalStateException("window row " + rank + " in close order came twice");
    }
  }

  /** Hands on, in rank order, every item whose rank is next. */
  void drain(Consumer<T> to) {
    while (!waiting.isEmpty() && waiting.firstKey() == next) {
      to.accept(waiting.pollFirstEntry().getValue());
      next++;
    }
  }

  /** Fails if an item waits for one never taken: at the end of a run, a window row lost. */
  void requireNoGap() {
    if (!waiting.isEmpty()) {
      throw new IllegalStateException("the job ended without window row " + next + " in close order, though "
          + waiting.size() + " rows ranked after it came (the first " + waiting.firstKey() + ")");
    }
  }
}
