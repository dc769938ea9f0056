package io.eventtime.core;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The open sessions of a run: a {@link SessionSet} per key, and every session in close order. The
 * order is kept lazily: a row that only makes a session last longer (most rows) leaves it where it
 * was in the index ({@code indexedLast}, never later than its last event time), and the closing
 * moves it back when it comes first and its place there would close it; so the first session of
 * the index whose place is up to date is the one that closes first, and a watermark that closes
 * no place closes no session and moves none.
 */
final class OpenSessionWindows implements OpenWindows {
  private static final Comparator<SessionSet.Session> INDEX_ORDER = (a, b) -> {
    int c = Long.compare(a.indexedLast, b.indexedLast);
    if (c == 0) {
      c = Long.compare(a.start, b.start);
    }
    return c != 0 ? c : a.key.compareTo(b.key);
  };
  private static final Comparator<SessionSet.Session> CLOSE_ORDER = (a, b) -> {
    int c = Long.compare(a.last, b.last);
    if (c == 0) {
      c = Long.compare(a.start, b.start);
    }
    return c != 0 ? c : a.key.compareTo(b.key);
  };

  private final WindowSpec.Session spec;
  private final LatePolicy policy;
  private final Aggregates aggregates;
  private final Map<Key, SessionSet> byKey = new HashMap<>();
  private final TreeSet<SessionSet.Session> byEnd = new TreeSet<>(INDEX_ORDER);
  private final SessionSet.Listener index = new SessionSet.Listener() {
    @Override
    public void removed(SessionSet.Session s) {
      byEnd.remove(s);
    }

    @Override
    public void added(SessionSet.Session s) {
      s.indexedLast = s.last;
      byEnd.add(s);
    }
  };

  OpenSessionWindows(WindowSpec.Session spec, LatePolicy policy, Aggregates aggregates) {
    this.spec = spec;
    this.policy = policy;
    this.aggregates = aggregates;
  }

  @Override
  public boolean fold(Key key, long eventTime, Object[] inputs, long arrival, long watermark) {
    return sessionsOf(key).fold(eventTime, inputs, arrival, watermark);
  }

  @Override
  public void closeUpTo(long watermark, Closed closed) {
    while (!byEnd.isEmpty()) {
      SessionSet.Session s = byEnd.first();
      if (watermark != Long.MAX_VALUE && !spec.isClosed(s.indexedLast + spec.gapMillis(), watermark)) {
        // no session ends before where the index put it: if the first place is open, every session is
        break;
      }
      if (s.indexedLast != s.last) { // it lasted longer since it was put here: its place is further back
        byEnd.pollFirst();
        s.indexedLast = s.last;
        byEnd.add(s);
        continue;
      }
      SessionSet set = byKey.get(s.key);
      long end = set.endOf(s);
      if (watermark != Long.MAX_VALUE && !spec.isClosed(end, watermark)) {
        break;
      }
      set.close(s);
      if (set.isEmpty()) {
        byKey.remove(s.key);
      }
      closed.window(s.key, s.start, end, s.accumulators);
    }
  }

  @Override
  public void restore(OpenState.OpenWindow w) {
    sessionsOf(w.key()).restore(w.start(), w.end() - spec.gapMillis(), w.accumulators());
  }

  @Override
  public List<OpenState.OpenWindow> held() {
    List<OpenState.OpenWindow> open = new ArrayList<>();
    List<SessionSet.Session> inCloseOrder = new ArrayList<>(byEnd);
    inCloseOrder.sort(CLOSE_ORDER);
    for (SessionSet.Session s : inCloseOrder) {
      open.add(new OpenState.OpenWindow(s.key, s.start, byKey.get(s.key).endOf(s), s.accumulators));
    }
    return open;
  }

  @Override
  public int count() {
    return byEnd.size();
  }

  /** The start of {@code key}'s earliest open session, or null when it has none open. */
  Long earliestOpenStart(Key key) {
    SessionSet set = byKey.get(key);
    return set == null ? null : set.earliestStart();
  }

  private SessionSet sessionsOf(Key key) {
    SessionSet set = byKey.get(key);
    if (set == null) {
      set = new SessionSet(key, spec, policy, aggregates, index);
      byKey.put(key, set);
    }
    return set;
  }
}
