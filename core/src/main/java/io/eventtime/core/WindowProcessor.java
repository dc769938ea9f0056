package io.eventtime.core;

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
 * <p>The processor keeps the watermark, the arrival positions and the counts; the window kind's
 * {@link OpenWindows} hold the windows and decide, with {@link LatePolicy#admits}, which a row goes
 * into. Not thread-safe: one processor serves one stream.
 */
public final class WindowProcessor {

  /** Receives each window as it closes. */
  @FunctionalInterface
  public interface Sink {
    void emit(WindowResult result);
  }

  private final WindowQuery query;
  private final Sink sink;
  private final Aggregates aggregates;
  private final Watermark watermark;
  private final long nextArrivalAtStart;
  private final OpenWindows open;

  private long rowsIn;
  private long rowsOut;
  private long lateDropped;
  private long windowsClosed;
  private long rowsFolded;
  private long rowsRejected;
  private long lastClosedStart = Long.MIN_VALUE;
  private long lastClosedEnd = Long.MIN_VALUE;
  private boolean finished;

  public WindowProcessor(WindowQuery query, Sink sink) {
    this(query, sink, OpenState.empty());
  }

  /** A processor that goes on from the state a previous run handed back with {@link #hold}. */
  public WindowProcessor(WindowQuery query, Sink sink, OpenState state) {
    this.query = query;
    this.sink = sink;
    this.aggregates = new Aggregates(query.aggregates());
    this.watermark = new Watermark(query.delayMillis(), state.maxEventTime());
    this.nextArrivalAtStart = state.nextArrival();
    this.open = query.spec().openWindows(query.latePolicy(), aggregates);
    for (OpenState.OpenWindow w : state.windows()) {
      open.restore(w);
    }
  }

  public WindowQuery query() {
    return query;
  }

  /**
   * Takes the next row in arrival order: its key, its event time in epoch milliseconds, and the
   * input value of each aggregate (any value for count(*)). Returns true when the row was folded
   * into at least one window, false when it is late (see {@link #lateReason}).
   */
  public boolean process(Key key, long eventTime, Object[] inputs) {
    checkOpen();
    long arrival = nextArrivalAtStart + rowsIn++;
    if (!open.fold(key, eventTime, inputs, arrival, watermark.current())) {
      lateDropped++;
      return false;
    }
    rowsFolded++;
    if (watermark.observe(eventTime)) {
      closeUpTo(watermark.current());
    }
    return true;
  }

  /**
   * Moves the watermark forward to {@code target} without a row, emitting the windows that it
   * closes; a target behind the watermark changes nothing. A source that knows its stream has
   * moved on (an idle stream whose time is taken from the wall clock) uses it; rows that arrive
   * later behind the new watermark are late.
   */
  public void advanceWatermarkTo(long target) {
    checkOpen();
    if (watermark.advanceTo(target)) {
      closeUpTo(watermark.current());
    }
  }

  /** Counts a row that could not be read (no usable event time); the caller reports why. */
  public void reject() {
    checkOpen();
    rowsIn++;
    rowsRejected++;
  }

  /** Why a row that {@link #process} found late was left out. */
  public String lateReason(long eventTime) {
    return query.latePolicy().lateReason(eventTime, watermark.current());
  }

  /** Emits every window still open, in close order: the end of a run with no carried state. */
  public void finish() {
    checkOpen();
    finished = true;
    closeUpTo(Long.MAX_VALUE);
  }

  /**
   * Ends the run without emitting the open windows, and hands them back with the watermark for
   * the next run to go on from.
   */
  public OpenState hold() {
    checkOpen();
    finished = true;
    return new OpenState(watermark.maxEventTime(), nextArrivalAtStart + rowsIn, open.held());
  }

  public Stats stats() {
    return new Stats(rowsIn, rowsOut, lateDropped, windowsClosed, rowsFolded, rowsRejected);
  }

  /** The watermark now, or null before the first row. */
  public Long watermark() {
    return watermark.isSet() ? watermark.current() : null;
  }

  /** How many windows are open, across keys: all that the processor keeps in memory. */
  public int openWindowCount() {
    return open.count();
  }

  private void closeUpTo(long wm) {
    open.closeUpTo(wm, this::emit);
  }

  private void emit(Key key, long start, long end, Accumulator[] accs) {
    if (start != lastClosedStart || end != lastClosedEnd) {
      windowsClosed++;
      lastClosedStart = start;
      lastClosedEnd = end;
    }
    rowsOut++;
    sink.emit(new WindowResult(key, start, end, aggregates.results(accs)));
  }

  private void checkOpen() {
    if (finished) {
      throw new IllegalStateException("this run has ended: start a new processor for more rows");
    }
  }
}
