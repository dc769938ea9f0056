package io.eventtime.core;

import java.io.Serializable;
import java.util.List;

/**
 * What a run hands on to the next one instead of emitting: the latest event time seen (the
 * watermark is that less the delay), the next arrival position, and every window still open
 * with its partial aggregates. For a session, {@code end} is its last event time plus the gap.
 */
public record OpenState(Long maxEventTime, long nextArrival, List<OpenWindow> windows) {

  public OpenState {
    windows = List.copyOf(windows);
  }

  /** The state before any run: no watermark and no windows. */
  public static OpenState empty() {
    return new OpenState(null, 0, List.of());
  }

  /** One open window of one key. */
  public record OpenWindow(Key key, long start, long end, Accumulator[] accumulators) implements Serializable {}
}
