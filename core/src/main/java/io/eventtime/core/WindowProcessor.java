package io.eventtime.core;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

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
 * <p>Not thread-safe: one processor serves one stream.
 */
public final class WindowProcessor {

  /** Receives each window as it closes. */
  @FunctionalInterface
  public interface Sink {
    void emit(WindowResult result);
  }

  private static final Comparator<SessionSet.Session> SESSION_CLOSE_ORDER =
      Comparator.<SessionSet.Session>comparingLong(s -> s.last)
          .thenComparingLong(s -> s.start)
          .thenComparing(s -> s.key);

  private final WindowQuery query;
  private final Sink sink;
  private final Aggregates aggregates;
  private final Watermark watermark;
  private final long nextArrivalAtStart;

  // grid windows: open windows by end, then key
  private final WindowAssigner assigner;
  private final long[] starts;
  private final TreeMap<Long, Map<Key, Accumulator[]>> gridByEnd = new TreeMap<>();
  private long cachedEnd = Long.MIN_VALUE;
  private Map<Key, Accumulator[]> cachedWindows;

  // sessions: per key, and every open session in close order
  private final WindowSpec.Session sessionSpec;
  private final Map<Key, SessionSet> sessionsByKey = new HashMap<>();
  private final TreeSet<SessionSet.Session> sessionsByEnd = new TreeSet<>(SESSION_CLOSE_ORDER);
  private final SessionSet.Listener sessionIndex = new SessionSet.Listener() {
    @Override
    public void removed(SessionSet.Session s) {
      sessionsByEnd.remove(s);
    }

    @Override
    public void added(SessionSet.Session s) {
      sessionsByEnd.add(s);
    }
  };

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
    if (query.spec() instanceof WindowSpec.Session s) {
      sessionSpec = s;
      assigner = null;
      starts = null;
    } else {
      sessionSpec = null;
      assigner = new WindowAssigner(query.spec(), query.latePolicy());
      starts = new long[assigner.maxWindowsPerRow()];
    }
    for (OpenState.OpenWindow w : state.windows()) {
      if (sessionSpec != null) {
        sessionsOf(w.key()).restore(w.start(), w.end() - sessionSpec.gapMillis(), w.accumulators());
      } else {
        gridByEnd.computeIfAbsent(w.end(), e -> new HashMap<>()).put(w.key(), w.accumulators());
      }
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
    long wm = watermark.current();
    boolean folded = sessionSpec != null
        ? sessionsOf(key).fold(eventTime, inputs, arrival, wm)
        : foldIntoGrid(key, eventTime, inputs, arrival, wm);
    if (!folded) {
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
    return WindowAssigner.lateReason(query.latePolicy(), eventTime, watermark.current());
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
    List<OpenState.OpenWindow> open = new ArrayList<>();
    if (sessionSpec != null) {
      for (SessionSet.Session s : sessionsByEnd) {
        open.add(new OpenState.OpenWindow(s.key, s.start, s.last + sessionSpec.gapMillis(), s.accumulators));
      }
    } else {
      long size = assigner.sizeMillis();
      gridByEnd.forEach((end, byKey) -> byKey.entrySet().stream()
          .sorted(Map.Entry.comparingByKey())
          .forEach(e -> open.add(new OpenState.OpenWindow(e.getKey(), end - size, end, e.getValue()))));
    }
    return new OpenState(watermark.maxEventTime(), nextArrivalAtStart + rowsIn, open);
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
    if (sessionSpec != null) {
      return sessionsByEnd.size();
    }
    int n = 0;
    for (Map<Key, Accumulator[]> byKey : gridByEnd.values()) {
      n += byKey.size();
    }
    return n;
  }

  private boolean foldIntoGrid(Key key, long ts, Object[] inputs, long arrival, long wm) {
    int n = assigner.landing(ts, wm, starts);
    long size = assigner.sizeMillis();
    for (int i = 0; i < n; i++) {
      Map<Key, Accumulator[]> byKey = windowsEndingAt(starts[i] + size);
      Accumulator[] accs = byKey.get(key);
      if (accs == null) {
        accs = aggregates.create();
        byKey.put(key, accs);
      }
      aggregates.add(accs, inputs, arrival);
    }
    return n > 0;
  }

  private Map<Key, Accumulator[]> windowsEndingAt(long end) {
    if (end != cachedEnd || cachedWindows == null) {
      cachedWindows = gridByEnd.computeIfAbsent(end, e -> new HashMap<>());
      cachedEnd = end;
    }
    return cachedWindows;
  }

  private void closeUpTo(long wm) {
    if (sessionSpec != null) {
      while (!sessionsByEnd.isEmpty()) {
        SessionSet.Session s = sessionsByEnd.first();
        long end = s.last + sessionSpec.gapMillis();
        if (wm != Long.MAX_VALUE && !sessionSpec.isClosed(end, wm)) {
          break;
        }
        SessionSet set = sessionsByKey.get(s.key);
        set.close(s);
        if (set.isEmpty()) {
          sessionsByKey.remove(s.key);
        }
        emit(s.key, s.start, end, s.accumulators);
      }
      return;
    }
    long size = assigner.sizeMillis();
    while (!gridByEnd.isEmpty()) {
      long end = gridByEnd.firstKey();
      if (wm != Long.MAX_VALUE && !query.spec().isClosed(end, wm)) {
        break;
      }
      Map<Key, Accumulator[]> byKey = gridByEnd.pollFirstEntry().getValue();
      if (byKey == cachedWindows) {
        cachedWindows = null;
      }
      List<Key> keys = new ArrayList<>(byKey.keySet());
      if (keys.size() > 1) {
        keys.sort(null);
      }
      for (Key k : keys) {
        emit(k, end - size, end, byKey.get(k));
      }
    }
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

  private SessionSet sessionsOf(Key key) {
    SessionSet set = sessionsByKey.get(key);
    if (set == null) {
      set = new SessionSet(key, sessionSpec, query.latePolicy(), aggregates, sessionIndex);
      sessionsByKey.put(key, set);
    }
    return set;
  }

  private void checkOpen() {
    if (finished) {
      throw new IllegalStateException("this run has ended: start a new processor for more rows");
    }
  }
}
