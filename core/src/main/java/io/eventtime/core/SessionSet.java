package io.eventtime.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The open sessions of one key, in order of start. Sessions of one key never touch: rows at
 * most one gap apart are always in the same session, so each pair of neighbours is more than a
 * gap apart, and ordering by start is ordering by end too.
 */
public final class SessionSet {

  /** One open session: its first and last event time and its accumulators. */
  public static final class Session {
    final Key key;
    long start;
    long last;
    /** Where an index last put the session by its last event time ({@link OpenSessionWindows}): at most {@link #last}. */
    long indexedLast;
    final Accumulator[] accumulators;

    Session(Key key, long start, long last, Accumulator[] accumulators) {
      this.key = key;
      this.start = start;
      this.last = last;
      this.accumulators = accumulators;
    }

    public Key key() {
      return key;
    }

    public long start() {
      return start;
    }

    public long last() {
      return last;
    }

    public Accumulator[] accumulators() {
      return accumulators;
    }
  }

  /**
   * Told of every session taken out of the set or put into it, to keep an index in step; and of a
   * session whose last event time moved later, nothing else changed (an index by start stays right).
   */
  public interface Listener {
    void removed(Session s);

    void added(Session s);

    default void extended(Session s) {}
  }

  private static final Listener NONE = new Listener() {
    @Override
    public void removed(Session s) {}

    @Override
    public void added(Session s) {}
  };

  private final Key key;
  private final WindowSpec.Session spec;
  private final LatePolicy policy;
  private final Aggregates aggregates;
  private final Listener listener;
  private final TreeMap<Long, Session> byStart = new TreeMap<>();

  public SessionSet(Key key, WindowSpec.Session spec, LatePolicy policy, Aggregates aggregates, Listener listener) {
    this.key = key;
    this.spec = spec;
    this.policy = policy;
    this.aggregates = aggregates;
    this.listener = listener == null ? NONE : listener;
  }

  public SessionSet(Key key, WindowSpec.Session spec, LatePolicy policy, Aggregates aggregates) {
    this(key, spec, policy, aggregates, null);
  }

  public boolean isEmpty() {
    return byStart.isEmpty();
  }

  /** The start of the earliest open session, or null when none is open. */
  public Long earliestStart() {
    return byStart.isEmpty() ? null : byStart.firstKey();
  }

  /** The end of a session: its last event time plus the gap. */
  public long endOf(Session s) {
    return s.last + spec.gapMillis();
  }

  /**
   * Folds a row into the sessions it touches, joining them when it bridges two, and returns
   * true; or returns false, changing nothing, when the row is late: when {@link LatePolicy#admits}
   * does not let it into the session it would form. Every session in the set must be open at
   * {@code watermark} (close them with {@link #pollClosed} as the watermark moves).
   */
  public boolean fold(long ts, Object[] inputs, long arrival, long watermark) {
    long gap = spec.gapMillis();
    Map.Entry<Long, Session> before = byStart.floorEntry(ts);
    Session low = before != null && before.getValue().last + gap >= ts ? before.getValue() : null;
    Map.Entry<Long, Session> after = byStart.higherEntry(ts);
    Session high = after != null && after.getKey() - gap <= ts ? after.getValue() : null;
    // the session the row forms ends one gap after the latest of its own and the joined sessions' events
    long formedLast = ts;
    if (low != null) {
      formedLast = Math.max(formedLast, low.last);
    }
    if (high != null) {
      formedLast = Math.max(formedLast, high.last);
    }
    if (!policy.admits(spec, ts, formedLast + gap, watermark)) {
      return false;
    }
    if (low == null && high == null) {
      Session s = new Session(key, ts, ts, aggregates.create());
      aggregates.add(s.accumulators, inputs, arrival, ts);
      byStart.put(ts, s);
      listener.added(s);
      return true;
    }
    if (high == null) {
      // the row falls in, or one gap after, the session before it: only that session's last time can move
      low.last = Math.max(low.last, ts);
      aggregates.add(low.accumulators, inputs, arrival, ts);
      listener.extended(low);
      return true;
    }
    Session target = low != null ? low : high;
    remove(target);
    if (low != null && high != null) {
      remove(high);
      aggregates.merge(target.accumulators, high.accumulators);
      target.last = Math.max(target.last, high.last);
    }
    target.start = Math.min(target.start, ts);
    target.last = Math.max(target.last, ts);
    aggregates.add(target.accumulators, inputs, arrival, ts);
    byStart.put(target.start, target);
    listener.added(target);
    return true;
  }

  /** Takes out and returns, earliest first, the sessions closed at {@code watermark}. */
  public List<Session> pollClosed(long watermark) {
    List<Session> closed = new ArrayList<>();
    while (!byStart.isEmpty() && spec.isClosed(endOf(byStart.firstEntry().getValue()), watermark)) {
      Session s = byStart.pollFirstEntry().getValue();
      listener.removed(s);
      closed.add(s);
    }
    return closed;
  }

  /** Takes out a session that an index found closed. */
  public void close(Session s) {
    remove(s);
  }

  /** Puts back a stored open session. */
  public void restore(long start, long last, Accumulator[] accumulators) {
    Session s = new Session(key, start, last, accumulators);
    byStart.put(start, s);
    listener.added(s);
  }

  /** The open sessions, earliest first. */
  public List<Session> sessions() {
    return new ArrayList<>(byStart.values());
  }

  private void remove(Session s) {
    byStart.remove(s.start);
    listener.removed(s);
  }
}
