package io.eventtime.core;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/** The open sessions of a run: a {@link SessionSet} per key, and every session in close order. */
final class OpenSessionWindows implements OpenWindows {
  private static final Comparator<SessionSet.Session> CLOSE_ORDER =
      Comparator.<SessionSet.Session>comparingLong(s -> s.last)
          .thenComparingLong(s -> s.start)
          .thenComparing(s -> s.key);

  private final WindowSpec.Session spec;
  private final LatePolicy policy;
  private final Aggregates aggregates;
  private final Map<Key, SessionSet> byKey = new HashMap<>();
  private final TreeSet<SessionSet.Session> byEnd = new TreeSet<>(CLOSE_ORDER);
  private final SessionSet.Listener index = new SessionSet.Listener() {
    @Override
    public void removed(SessionSet.Session s) {
      byEnd.remove(s);
    }

    @Override
    public void added(SessionSet.Session s) {
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
    for (SessionSet.Session s : byEnd) {
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
