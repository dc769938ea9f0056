package io.eventtime.core;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.LongSupplier;

/**
 * The windowing semantics over a stream of one or more <b>partitions</b>, each an ordered sequence
 * of rows (a Kafka partition in offset order, a file in line order): the core of the live path
 * that issue 11's Beam transform on an unbounded input and issue 12's command line on a live
 * source will run (docs/semantics.md, "Live, partitioned streams"). {@link WindowProcessor} is
 * its one-partition case: a bounded replay of files is one partition, with today's answers.
 *
 * <ul>
 *   <li>The partitions are fixed at construction: {@code 0 .. partitions - 1}, in partition order.
 *   <li>Each partition has its own {@link Watermark}: the latest event time of its own earlier
 *       rows, less the delay. A row is late or not against its own partition's watermark, by
 *       {@link LatePolicy#admits} as with one partition; rows of other partitions never make a
 *       row late.
 *   <li>Each partition folds its rows into its own partial windows. A window is emitted once the
 *       <b>stream's watermark</b>, the least of the partitions' watermarks, closes it; a partition
 *       that has no row yet has no watermark and holds every window back. The partials of one
 *       window merge in partition order (partition 0's first), so floating-point sums come out
 *       bit for bit the same however the partitions' rows interleave. {@code first} and
 *       {@code last} take, among the partitions' own first (last) rows of the window, the one of
 *       the earliest (latest) event time, a tie going to the earlier (later) partition: with one
 *       partition, the row that arrived first (last).
 *   <li>Sessions: each partition forms its own sessions of each key, at its own watermark, as if it
 *       were replayed alone; partition sessions of one key from different partitions that
 *       overlap or lie at most a gap apart are joined, transitively (two of one partition only
 *       through another's), and a joined session leaves once the stream's watermark has closed
 *       it and no partition holds an open session that could still join it ({@link JoinedSessions}).
 *       A key whose rows all come from one partition gets exactly that partition's sessions.
 *   <li>Windows leave in close order (by end, then start, then key), each once.
 * </ul>
 *
 * <p>So the window rows, the late rows and the stats depend on each partition's rows in order,
 * not on how the partitions interleave; the one exception is sessions under policy
 * {@code window} of a key spread over partitions, where a partition session that grows backwards
 * with late rows joins a session of another partition only if that one is still waiting.
 *
 * <p>A run of any number of partitions is handed on as state by {@link #hold} (each
 * partition's watermark, next arrival and partial windows, and the sessions waiting to be joined
 * across partitions: the state's version 2) and goes on with {@link #resume}, as if it had not
 * stopped. Not thread-safe: one processor serves one stream.
 */
public final class PartitionedWindowProcessor {

  /** One window of one key, as its partials are gathered across partitions. */
  private record WindowId(long end, long start, Key key) {}

  private static final Comparator<WindowId> CLOSE_ORDER = Comparator.comparingLong(WindowId::end)
      .thenComparingLong(WindowId::start)
      .thenComparing(WindowId::key);

  private final WindowQuery query;
  private final WindowProcessor.Sink sink;
  private final Aggregates aggregates;
  private final Watermark[] watermarks;
  private final OpenWindows[] open;
  /** {@link #emitResults}, made once: the windows are asked to close at almost every row. */
  private final OpenWindows.ClosedResults emitter = this::emitResults;
  /** The arrival position of each partition's next row: its rows, rejected ones too, counted. */
  private final long[] nextArrival;
  /** Each partition's id in the state, in partition order. */
  private final String[] partitionIds;
  private long streamWatermark;
  /**
   * With sessions and several partitions, the partitions' closed sessions until they are joined
   * and emitted; made on first use (null for grid windows and for one partition, whose sessions
   * leave as its watermark closes them).
   */
  private JoinedSessions joined;

  /** The idle timeout's wall clock, null while there is none (the default). */
  private LongSupplier wallClock;
  private long idleTimeoutMillis;
  /** The wall time at which each partition next counts as idle, unless a row comes first. */
  private long[] idleDueAt;
  /** The watermark the idle timeout last set each partition to, and the wall time it read then. */
  private long[] idleWatermark;
  private long[] idleWallTime;

  private long rowsIn;
  private long rowsOut;
  private long lateDropped;
  private long windowsClosed;
  private long rowsFolded;
  private long rowsRejected;
  private long lastClosedStart = Long.MIN_VALUE;
  private long lastClosedEnd = Long.MIN_VALUE;
  private boolean finished;

  /** A processor of {@code partitions} partitions, starting with no row and no open window. */
  public PartitionedWindowProcessor(WindowQuery query, int partitions, WindowProcessor.Sink sink) {
    this(query, numbered(partitions), sink);
  }

  /**
   * A processor of the partitions named {@code ids}, in partition order, starting with no row and
   * no open window; the ids name the partitions in late reasons and in {@link #hold}'s state.
   */
  public PartitionedWindowProcessor(WindowQuery query, List<String> ids, WindowProcessor.Sink sink) {
    this(query, supported(ids.size()), sink, noRowYet(ids));
  }

  /**
   * A processor that goes on from the state a previous run handed back with {@link #hold}: as
   * many partitions as the state holds, in its order, each with its watermark, its next arrival
   * and its part of the open windows; the waiting sessions go back to the join across partitions,
   * not to their partitions' open sessions. Refuses (IllegalArgumentException) a state with no
   * partition, a window or waiting session of a partition the state does not hold, waiting
   * sessions for a query that has none (grid windows, one partition), and a waiting session the
   * run that held the state would have emitted: closed at the stream's watermark with no open
   * session that could still join it, ahead in close order of every other.
   */
  public static PartitionedWindowProcessor resume(WindowQuery query, WindowProcessor.Sink sink, OpenState state) {
    return new PartitionedWindowProcessor(query, supported(state.partitions().size()), sink, state);
  }

  /**
   * A processor of one partition that goes on from the state a previous run handed back with
   * {@link #hold}: the state holds one watermark.
   */
  PartitionedWindowProcessor(WindowQuery query, WindowProcessor.Sink sink, OpenState state) {
    this(query, 1, sink, state);
  }

  private PartitionedWindowProcessor(WindowQuery query, int partitions, WindowProcessor.Sink sink, OpenState state) {
    this.query = query;
    this.sink = sink;
    this.aggregates = new Aggregates(query.aggregates());
    this.watermarks = new Watermark[partitions];
    this.open = new OpenWindows[partitions];
    this.nextArrival = new long[partitions];
    this.partitionIds = new String[partitions];
    for (int p = 0; p < partitions; p++) {
      open[p] = query.spec().openWindows(query.latePolicy(), aggregates);
    }
    restore(state);
    streamWatermark = leastWatermark();
    long due = joined == null ? -1 : joined.firstDue(streamWatermark);
    if (due >= 0) {
      OpenState.OpenWindow w = state.waiting().get((int) due);
      throw new IllegalArgumentException("the waiting session " + describe(w) + " of partition " + w.partition()
          + " (waiting[" + due + "]) is closed at the stream's watermark " + TimeText.format(streamWatermark)
          + " and no partition holds an open session that could still join it: the run that held the state would"
          + " have emitted it");
    }
  }

  private static String describe(OpenState.OpenWindow w) {
    return w.key() + " [" + TimeText.format(w.start()) + ", " + TimeText.format(w.end()) + ")";
  }

  /** The state of {@code partitions} partitions, {@code "0"} and on, before their first row. */
  private static List<String> numbered(int partitions) {
    List<String> ids = new ArrayList<>();
    for (int p = 0; p < partitions; p++) {
      ids.add(String.valueOf(p));
    }
    return ids;
  }

  private static OpenState noRowYet(List<String> ids) {
    List<OpenState.Partition> fresh = new ArrayList<>();
    for (String id : ids) {
      fresh.add(new OpenState.Partition(id, null, null, 0, null));
    }
    return new OpenState(fresh, List.of(), Map.of());
  }

  /** Takes each partition's watermark, next arrival and windows from {@code state}. */
  private void restore(OpenState state) {
    if (state.partitions().size() != partitionIds.length) {
      throw new IllegalArgumentException("the state holds " + state.partitions().size() + " partitions, this run "
          + partitionIds.length + ": go on from it with PartitionedWindowProcessor.resume");
    }
    Map<String, Integer> index = new HashMap<>();
    for (int p = 0; p < partitionIds.length; p++) {
      OpenState.Partition part = state.partitions().get(p);
      if (index.put(part.id(), p) != null) {
        throw new IllegalArgumentException("the state names partition " + part.id() + " twice");
      }
      partitionIds[p] = part.id();
      watermarks[p] = new Watermark(query.delayMillis(), part.maxEventTime());
      if (part.idleWatermark() != null) {
        watermarks[p].advanceTo(part.idleWatermark());
      }
      nextArrival[p] = part.nextArrival();
    }
    for (OpenState.OpenWindow w : state.windows()) {
      Integer p = index.get(w.partition());
      if (p == null) {
        throw new IllegalArgumentException("the open window " + describe(w) + " names partition " + w.partition()
            + ", which the state does not hold");
      }
      open[p].restore(w);
    }
    if (!state.waiting().isEmpty() && !joinsSessions()) {
      int n = state.waiting().size();
      throw new IllegalArgumentException("the state holds " + n + " waiting session" + (n == 1 ? "" : "s")
          + ", which only a run of session windows over several partitions has");
    }
    // in the order they were handed to the join, so that each partition's parts merge in that order again
    for (OpenState.OpenWindow w : state.waiting()) {
      Integer p = index.get(w.partition());
      if (p == null) {
        throw new IllegalArgumentException("the waiting session " + describe(w) + " names partition "
            + w.partition() + ", which the state does not hold");
      }
      joined.add(p, w.key(), w.start(), w.end(), w.accumulators());
    }
  }

  /** {@code partitions}, refused when there is none: every query runs across any number of partitions. */
  private static int supported(int partitions) {
    if (partitions < 1) {
      throw new IllegalArgumentException("a stream has at least one partition, got " + partitions);
    }
    return partitions;
  }

  public WindowQuery query() {
    return query;
  }

  /**
   * Turns on the idle timeout (docs/semantics.md, "Idle partitions"), the one setting that reads
   * the wall clock and so makes results depend on when rows arrive: a partition that has had no
   * row with an event time for {@code timeoutMillis} of {@code wallClock} (counted from this
   * call for one that never had one) takes the wall clock less the delay as its watermark, when
   * that is ahead of its own, at the next {@link #advanceIdle}; and again every
   * {@code timeoutMillis} while it stays quiet. Rejected rows do not count: they move no
   * watermark. Call it before the first row, once.
   *
   * @param wallClock epoch milliseconds of the wall clock, read at this call and at each row
   * @return this processor
   */
  public PartitionedWindowProcessor withIdleTimeout(long timeoutMillis, LongSupplier wallClock) {
    checkOpen();
    Objects.requireNonNull(wallClock, "wallClock");
    if (timeoutMillis <= 0) {
      throw new IllegalArgumentException("the idle timeout must be positive, got " + timeoutMillis
          + " ms: give a duration greater than zero (e.g. 30 SECOND), or none for no idle timeout");
    }
    TimeRange.requireDuration("idle timeout", timeoutMillis);
    if (this.wallClock != null || rowsIn > 0) {
      throw new IllegalStateException("the idle timeout is set once, before the first row of the run");
    }
    if (idleWatermark != null) {
      throw new IllegalStateException("this processor's idle advances are decided elsewhere (advanceIdleTo): it"
          + " cannot read a wall clock of its own as well");
    }
    long now = wallClock.getAsLong();
    this.wallClock = wallClock;
    this.idleTimeoutMillis = timeoutMillis;
    this.idleDueAt = new long[watermarks.length];
    Arrays.fill(idleDueAt, later(now, timeoutMillis));
    this.idleWatermark = new long[watermarks.length];
    Arrays.fill(idleWatermark, Long.MIN_VALUE);
    this.idleWallTime = new long[watermarks.length];
    return this;
  }

  /**
   * Applies the idle timeout at wall time {@code now}: each partition that has had no row for
   * the timeout takes {@code max(its watermark, now - delay)} as its watermark, and the windows
   * the stream's watermark then closes are emitted. A surface calls it on a wall-clock timer.
   * Returns whether any partition's watermark moved.
   */
  public boolean advanceIdle(long now) {
    checkOpen();
    if (wallClock == null) {
      throw new IllegalStateException("this processor has no idle timeout: set one with withIdleTimeout first");
    }
    boolean moved = false;
    for (int p = 0; p < watermarks.length; p++) {
      if (now < idleDueAt[p]) {
        continue;
      }
      idleDueAt[p] = later(now, idleTimeoutMillis);
      long target = now < Long.MIN_VALUE + query.delayMillis() ? Long.MIN_VALUE : now - query.delayMillis();
      if (watermarks[p].advanceTo(target)) {
        idleWatermark[p] = watermarks[p].current();
        idleWallTime[p] = now;
        moved = true;
        watermarkMoved(p);
      }
    }
    return moved;
  }

  /**
   * Moves {@code partition}'s watermark to {@code watermark} as the idle timeout did, for a
   * surface that reads the wall clock itself (one partition's timer, a step apart from the
   * windows): the partition had no row for {@code timeoutMillis} and the wall clock read
   * {@code watermark} plus the delay. While no row moves the watermark further, a late row's
   * reason names the idle timeout. A watermark behind the partition's changes nothing; one equal
   * to it records it as the idle timeout's, so that a processor resumed from {@link #hold} can be
   * told again of the advances its state holds ({@link OpenState.Partition#idleWatermark}).
   * Refused (IllegalStateException) on a processor that reads its own wall clock
   * ({@link #withIdleTimeout}). Returns whether the watermark moved.
   */
  public boolean advanceIdleTo(int partition, long watermark, long timeoutMillis) {
    checkOpen();
    checkPartition(partition);
    if (wallClock != null) {
      throw new IllegalStateException("this processor reads its own wall clock (withIdleTimeout): its idle advances"
          + " come from advanceIdle, not advanceIdleTo");
    }
    if (timeoutMillis <= 0) {
      throw new IllegalArgumentException("the idle timeout must be positive, got " + timeoutMillis + " ms");
    }
    if (idleWatermark == null) {
      idleWatermark = new long[watermarks.length];
      Arrays.fill(idleWatermark, Long.MIN_VALUE);
      idleWallTime = new long[watermarks.length];
    }
    idleTimeoutMillis = timeoutMillis;
    boolean moved = watermarks[partition].advanceTo(watermark);
    if (watermarks[partition].current() == watermark) {
      idleWatermark[partition] = watermark;
      idleWallTime[partition] = later(watermark, query.delayMillis());
    }
    if (moved) {
      watermarkMoved(partition);
    }
    return moved;
  }

  /** {@link #advanceIdle(long)} at the idle timeout's wall clock now. */
  public boolean advanceIdle() {
    if (wallClock == null) {
      throw new IllegalStateException("this processor has no idle timeout: set one with withIdleTimeout first");
    }
    return advanceIdle(wallClock.getAsLong());
  }

  /**
   * The watermark the idle timeout set {@code partition} to, while no row has moved it further;
   * null otherwise: what a store keeps so that a late row's reason still names the timeout.
   */
  public Long idleWatermark(int partition) {
    checkPartition(partition);
    return idleSetsWatermark(partition) ? idleWatermark[partition] : null;
  }

  private boolean idleSetsWatermark(int partition) {
    return idleWatermark != null && idleWatermark[partition] != Long.MIN_VALUE
        && idleWatermark[partition] == watermarks[partition].current();
  }

  private static long later(long time, long millis) {
    return time > Long.MAX_VALUE - millis ? Long.MAX_VALUE : time + millis;
  }

  /** How many partitions the stream has. */
  public int partitions() {
    return watermarks.length;
  }

  /**
   * Takes the next row of {@code partition} in that partition's order: its key, its event time in
   * epoch milliseconds, and the input value of each aggregate (any value for count(*)). Returns
   * true when the row was folded into at least one window, false when it is late against its
   * partition's watermark (see {@link #lateReason}).
   */
  public boolean process(int partition, Key key, long eventTime, Object[] inputs) {
    checkOpen();
    checkPartition(partition);
    if (wallClock != null) {
      idleDueAt[partition] = later(wallClock.getAsLong(), idleTimeoutMillis);
    }
    rowsIn++;
    long arrival = nextArrival[partition]++;
    Watermark own = watermarks[partition];
    if (!open[partition].fold(key, eventTime, inputs, arrival, own.current())) {
      lateDropped++;
      return false;
    }
    rowsFolded++;
    if (own.observe(eventTime)) {
      watermarkMoved(partition);
    }
    return true;
  }

  /**
   * Moves {@code partition}'s watermark forward to {@code target} without a row, emitting the
   * windows the stream's watermark then closes; a target behind it changes nothing. A source
   * that knows a partition has moved on (an idle partition whose time is taken from the wall
   * clock, design section 1.5) uses it; its rows that arrive later behind it are late.
   */
  public void advanceWatermarkTo(int partition, long target) {
    checkOpen();
    checkPartition(partition);
    if (watermarks[partition].advanceTo(target)) {
      watermarkMoved(partition);
    }
  }

  /** Counts a row of {@code partition} that could not be read (no usable event time). */
  public void reject(int partition) {
    checkOpen();
    checkPartition(partition);
    nextArrival[partition]++;
    rowsIn++;
    rowsRejected++;
  }

  /**
   * Why a row of {@code partition} that {@link #process} found late was left out; it says so when
   * the watermark that made it late came from the idle timeout.
   */
  public String lateReason(int partition, long eventTime) {
    checkPartition(partition);
    String reason = query.latePolicy().lateReason(eventTime, watermarks[partition].current());
    if (!idleSetsWatermark(partition)) {
      return reason;
    }
    return reason + "; that watermark is the wall clock " + TimeText.format(idleWallTime[partition])
        + " less the delay, set by the idle timeout after " + (watermarks.length == 1 ? "the stream" : "partition "
        + partitionIds[partition]) + " had no row for " + durationText(idleTimeoutMillis);
  }

  private static String durationText(long millis) {
    return millis % 1000 == 0 ? millis / 1000 + " s" : millis + " ms";
  }

  /** Emits every window still open, in close order: the end of a run with no carried state. */
  public void finish() {
    checkOpen();
    finished = true;
    if (joinsSessions()) {
      for (int p = 0; p < open.length; p++) {
        closePartitionSessions(p, Long.MAX_VALUE);
      }
      joined.closeUpTo(Long.MAX_VALUE, this::emit);
    } else {
      closeUpTo(Long.MAX_VALUE);
    }
  }

  /**
   * Ends the run without emitting the open windows, and hands them back for the next run to go
   * on from ({@link #resume}): each partition, in partition order, with its latest event time,
   * idle watermark and next arrival (no position: the source adds it, {@link OpenState#withPosition});
   * each partition's part of every open window, in close order and then partition order; and,
   * with sessions over several partitions, the waiting sessions (closed in their partition, not
   * emitted yet) in the order their partitions closed them. A run resumed from it goes on as if
   * it had not stopped.
   */
  public OpenState hold() {
    checkOpen();
    finished = true;
    List<OpenState.Partition> partitions = new ArrayList<>();
    for (int p = 0; p < partitionIds.length; p++) {
      partitions.add(
          new OpenState.Partition(partitionIds[p], watermarks[p].maxEventTime(), idleWatermark(p), nextArrival[p], null));
    }
    List<OpenState.OpenWindow> waiting = joined == null ? List.of() : joined.held(partitionIds);
    return new OpenState(partitions, heldInCloseOrder(), waiting, Map.of());
  }

  /** Every partition's open windows, labelled with its id: by end, start and key, then partition order. */
  private List<OpenState.OpenWindow> heldInCloseOrder() {
    List<OpenState.OpenWindow> held = new ArrayList<>();
    for (int p = 0; p < open.length; p++) {
      for (OpenState.OpenWindow w : open[p].held()) {
        held.add(w.inPartition(partitionIds[p]));
      }
    }
    if (open.length > 1) {
      // a stable sort: the parts of one window stay in partition order
      held.sort(Comparator.comparing((OpenState.OpenWindow w) -> new WindowId(w.end(), w.start(), w.key()),
          CLOSE_ORDER));
    }
    return held;
  }

  public Stats stats() {
    return new Stats(rowsIn, rowsOut, lateDropped, windowsClosed, rowsFolded, rowsRejected);
  }

  /** The stream's watermark, the least of the partitions', or null while a partition has none. */
  public Long watermark() {
    return streamWatermark == Long.MIN_VALUE ? null : streamWatermark;
  }

  /** {@code partition}'s own watermark, or null before its first row. */
  public Long watermark(int partition) {
    checkPartition(partition);
    return watermarks[partition].isSet() ? watermarks[partition].current() : null;
  }

  /**
   * How many windows are open, across keys, counting a window once for each partition that holds
   * a part of it: all that the processor keeps in memory.
   */
  public int openWindowCount() {
    int n = 0;
    for (OpenWindows o : open) {
      n += o.count();
    }
    return joined == null ? n : n + joined.count();
  }

  private long leastWatermark() {
    long least = Long.MAX_VALUE;
    for (Watermark w : watermarks) {
      if (!w.isSet()) {
        return Long.MIN_VALUE;
      }
      least = Math.min(least, w.current());
    }
    return least;
  }

  /**
   * After {@code partition}'s watermark moved: grid windows close at the stream's watermark;
   * sessions close in their own partition at its watermark (as if it were replayed alone), and the
   * joined ones leave at the stream's.
   */
  private void watermarkMoved(int partition) {
    long least = leastWatermark();
    if (!joinsSessions()) {
      if (least > streamWatermark) {
        streamWatermark = least;
        closeUpTo(least);
      }
      return;
    }
    closePartitionSessions(partition, watermarks[partition].current());
    streamWatermark = Math.max(streamWatermark, least);
    // also when the stream's watermark stood still: a session this partition closed may have been awaited
    joined.closeUpTo(streamWatermark, this::emit);
  }

  private boolean joinsSessions() {
    if (joined == null && open.length > 1 && query.spec() instanceof WindowSpec.Session session) {
      OpenSessionWindows[] sessions = new OpenSessionWindows[open.length];
      for (int p = 0; p < open.length; p++) {
        sessions[p] = (OpenSessionWindows) open[p];
      }
      joined = new JoinedSessions(session, aggregates, sessions);
    }
    return joined != null;
  }

  /** Hands the sessions of {@code partition} that {@code watermark} closes to the joined sessions. */
  private void closePartitionSessions(int partition, long watermark) {
    open[partition].closeUpTo(watermark, (key, start, end, accs) -> joined.add(partition, key, start, end, accs));
  }

  /** Emits the grid windows (or, with one partition, the sessions) closed at {@code wm}. */
  private void closeUpTo(long wm) {
    if (open.length == 1) {
      // one partition: nothing to merge, and its windows already come in close order
      open[0].closeResultsUpTo(wm, aggregates, emitter);
      return;
    }
    TreeMap<WindowId, Accumulator[]> closing = new TreeMap<>(CLOSE_ORDER);
    for (OpenWindows partition : open) {
      // in partition order, so that each window's partials merge in the same order in every run
      partition.closeUpTo(wm, (key, start, end, accs) -> closing.merge(new WindowId(end, start, key), accs,
          (into, from) -> {
            aggregates.mergeAcrossPartitions(into, from);
            return into;
          }));
    }
    closing.forEach((id, accs) -> emit(id.key(), id.start(), id.end(), accs));
  }

  private void emit(Key key, long start, long end, Accumulator[] accs) {
    emitResults(key, start, end, aggregates.results(accs));
  }

  private void emitResults(Key key, long start, long end, Object[] results) {
    if (start != lastClosedStart || end != lastClosedEnd) {
      windowsClosed++;
      lastClosedStart = start;
      lastClosedEnd = end;
    }
    rowsOut++;
    sink.emit(new WindowResult(key, start, end, results));
  }

  private void checkPartition(int partition) {
    if (partition < 0 || partition >= watermarks.length) {
      throw new IllegalArgumentException("partition " + partition + " is not one of this stream's partitions 0 to "
          + (watermarks.length - 1));
    }
  }

  private void checkOpen() {
    if (finished) {
      throw new IllegalStateException("this run has ended: start a new processor for more rows");
    }
  }

  /** The partitions' open windows, for a test that looks at what each holds. */
  List<OpenState.OpenWindow> heldBy(int partition) {
    checkPartition(partition);
    return open[partition].held();
  }
}
