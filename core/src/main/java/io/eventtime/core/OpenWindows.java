package io.eventtime.core;

import java.util.List;

/**
 * The windows of one kind that a run holds open, across keys, with their accumulators: what
 * {@link WindowProcessor} folds rows into and closes as the watermark moves, without knowing the
 * kind. Each kind makes its own ({@link WindowSpec#openWindows}); the parts stay apart as in a
 * streaming engine's window operator: which windows a row goes into is the kind's
 * ({@link WindowAssigner} for grid windows, {@link SessionSet} for sessions), whether it is late
 * is {@link LatePolicy#admits}, and when a window is closed is {@link WindowSpec#isClosed}.
 */
public interface OpenWindows {

  /** Receives each window as it closes. */
  @FunctionalInterface
  interface Closed {
    void window(Key key, long start, long end, Accumulator[] accumulators);
  }

  /** Receives each window as it closes, as its aggregates' results. */
  @FunctionalInterface
  interface ClosedResults {
    void window(Key key, long start, long end, Object[] results);
  }

  /**
   * Folds a row that arrives when the watermark is {@code watermark} ({@link Long#MIN_VALUE}
   * before the first row) into its windows; returns false, changing nothing, when it is late.
   * Sessions need every window held to be open at {@code watermark} (see {@link #closeUpTo});
   * grid windows do not, since a row only goes into the windows it lands in, so a partition of
   * {@link PartitionedWindowProcessor} may hold windows its own watermark has closed.
   */
  boolean fold(Key key, long eventTime, Object[] inputs, long arrival, long watermark);

  /**
   * Takes out the windows closed at {@code watermark}, every one at {@link Long#MAX_VALUE}, and
   * hands them on in close order: by end, then start, then key.
   */
  void closeUpTo(long watermark, Closed closed);

  /**
   * As {@link #closeUpTo}, handing on each window's results ({@link Aggregates#results}) instead
   * of its accumulators: what a run of one partition emits, with nothing to merge.
   */
  default void closeResultsUpTo(long watermark, Aggregates aggregates, ClosedResults closed) {
    closeUpTo(watermark, (key, start, end, accs) -> closed.window(key, start, end, aggregates.results(accs)));
  }

  /** Puts back a window that a previous run held open. */
  void restore(OpenState.OpenWindow window);

  /** The windows held open, in close order: what a run hands on to the next. */
  List<OpenState.OpenWindow> held();

  /** How many windows are held open. */
  int count();
}
