package io.eventtime.core;

import java.util.function.LongSupplier;

/**
 * The windowing semantics in one pass over rows in arrival order. Each row is folded into its
 * open windows or found late; each window is handed to the sink as soon as the watermark closes
 * it, in close order (by end, then start, then key). Memory holds only the open windows.
 *
 * <pre>{@code
 * WindowProcessor p = new WindowProcessor(
 *     WindowQuery.of(WindowSpec.tumbling(60_000)).withAggregates(AggregateSpec.countAll("n")),
 *     result -> System.out.println(result));
 * p.process(Key.GLOBAL, ts, new Object[] {null});
 * p.finish();
 * }</pre>
 *
 * <p>It is the one-partition case of {@link PartitionedWindowProcessor}, which keeps the
 * watermark, the arrival positions and the counts; the window kind's {@link OpenWindows} hold the
 * windows and decide, with {@link LatePolicy#admits}, which a row goes into. Not thread-safe: one
 * processor serves one stream.
 */
public final class WindowProcessor {

  /** Receives each window as it closes. */
  @FunctionalInterface
  public interface Sink {
    void emit(WindowResult result);
  }

  private final PartitionedWindowProcessor stream;

  public WindowProcessor(WindowQuery query, Sink sink) {
    this(query, sink, OpenState.empty());
  }

  /** A processor that goes on from the state a previous run handed back with {@link #hold}. */
  public WindowProcessor(WindowQuery query, Sink sink, OpenState state) {
    this.stream = new PartitionedWindowProcessor(query, sink, state);
  }

  public WindowQuery query() {
    return stream.query();
  }

  /**
   * Takes the next row in arrival order: its key, its event time in epoch milliseconds, and the
   * input value of each aggregate (any value for count(*)). Returns true when the row was folded
   * into at least one window, false when it is late (see {@link #lateReason}).
   */
  public boolean process(Key key, long eventTime, Object[] inputs) {
    return stream.process(0, key, eventTime, inputs);
  }

  /**
   * Moves the watermark forward to {@code target} without a row, emitting the windows that it
   * closes; a target behind the watermark changes nothing. A source that knows its stream has
   * moved on (an idle stream whose time is taken from the wall clock) uses it; rows that arrive
   * later behind the new watermark are late.
   */
  public void advanceWatermarkTo(long target) {
    stream.advanceWatermarkTo(0, target);
  }

  /**
   * Turns on the idle timeout, the one setting that reads the wall clock: see
   * {@link PartitionedWindowProcessor#withIdleTimeout}. Call it before the first row.
   */
  public WindowProcessor withIdleTimeout(long timeoutMillis, LongSupplier wallClock) {
    stream.withIdleTimeout(timeoutMillis, wallClock);
    return this;
  }

  /**
   * After the timeout without a row, moves the watermark to {@code now} less the delay and emits
   * what that closes; returns whether it moved ({@link PartitionedWindowProcessor#advanceIdle(long)}).
   */
  public boolean advanceIdle(long now) {
    return stream.advanceIdle(now);
  }

  /** Counts a row that could not be read (no usable event time); the caller reports why. */
  public void reject() {
    stream.reject(0);
  }

  /** Why a row that {@link #process} found late was left out. */
  public String lateReason(long eventTime) {
    return stream.lateReason(0, eventTime);
  }

  /** Emits every window still open, in close order: the end of a run with no carried state. */
  public void finish() {
    stream.finish();
  }

  /**
   * Ends the run without emitting the open windows, and hands them back with the watermark for
   * the next run to go on from.
   */
  public OpenState hold() {
    return stream.hold();
  }

  public Stats stats() {
    return stream.stats();
  }

  /** The watermark now, or null before the first row. */
  public Long watermark() {
    return stream.watermark();
  }

  /** How many windows are open, across keys: all that the processor keeps in memory. */
  public int openWindowCount() {
    return stream.openWindowCount();
  }
}
