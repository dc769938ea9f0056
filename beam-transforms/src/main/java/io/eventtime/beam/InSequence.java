package io.eventtime.beam;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.ToIntFunction;
import java.util.function.ToLongFunction;
import org.apache.beam.sdk.state.BagState;

/**
 * Elements numbered per source 0, 1, ... with no gap, which a runner may deliver to a key in
 * another order (a partition's releases to a key bucket, a bucket's reports to the count of closed
 * windows): each is taken in its source's order, and those that came ahead of their turn wait in
 * a bag.
 */
final class InSequence {
  private InSequence() {}

  /**
   * Takes {@code due}, the element its source is at in {@code expected}, then every element in
   * {@code early} whose turn that makes, moving {@code expected} on past each; {@code early} keeps
   * those still ahead of their turn.
   */
  static <T> void take(T due, BagState<T> early, List<Long> expected, ToIntFunction<T> source,
      ToLongFunction<T> sequence, Consumer<T> take) {
    List<T> ahead = new ArrayList<>();
    early.read().forEach(ahead::add);
    int waited = ahead.size();
    take.accept(due);
    expected.set(source.applyAsInt(due), sequence.applyAsLong(due) + 1);
    boolean more = true;
    while (more) {
      more = false;
      for (int i = 0; i < ahead.size(); i++) {
        T w = ahead.get(i);
        if (sequence.applyAsLong(w) == expected.get(source.applyAsInt(w))) {
          take.accept(w);
          expected.set(source.applyAsInt(w), sequence.applyAsLong(w) + 1);
          ahead.remove(i);
          more = true;
          break;
        }
      }
    }
    if (ahead.size() < waited) {
      early.clear();
      ahead.forEach(early::add);
    }
  }
}
