package io.eventtime.core;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The open grid windows (tumbling, hopping) of a run: by end, then key. */
final class OpenGridWindows implements OpenWindows {
  private final WindowSpec.Grid grid;
  private final WindowAssigner assigner;
  private final Aggregates aggregates;
  private final long size;
  private final long[] starts;
  private final TreeMap<Long, Map<Key, Accumulator[]>> byEnd = new TreeMap<>();
  // rows of one window tend to come together: the last window's keys, without a look-up
  private long cachedEnd = Long.MIN_VALUE;
  private Map<Key, Accumulator[]> cachedWindows;

  OpenGridWindows(WindowSpec.Grid grid, LatePolicy policy, Aggregates aggregates) {
    this.grid = grid;
    this.assigner = new WindowAssigner(grid, policy);
    this.aggregates = aggregates;
    this.size = grid.sizeMillis();
    this.starts = new long[grid.maxWindowsPerRow()];
  }

  @Override
  public boolean fold(Key key, long eventTime, Object[] inputs, long arrival, long watermark) {
    int n = assigner.landing(eventTime, watermark, starts);
    for (int i = 0; i < n; i++) {
      Map<Key, Accumulator[]> byKey = windowsEndingAt(starts[i] + size);
      Accumulator[] accs = byKey.get(key);
      if (accs == null) {
        accs = aggregates.create();
        byKey.put(key, accs);
      }
      aggregates.add(accs, inputs, arrival, eventTime);
    }
    return n > 0;
  }

  @Override
  public void closeUpTo(long watermark, Closed closed) {
    while (!byEnd.isEmpty()) {
      long end = byEnd.firstKey();
      if (watermark != Long.MAX_VALUE && !grid.isClosed(end, watermark)) {
        break;
      }
      Map<Key, Accumulator[]> byKey = byEnd.pollFirstEntry().getValue();
      if (byKey == cachedWindows) {
        cachedWindows = null;
      }
      List<Key> keys = new ArrayList<>(byKey.keySet());
      if (keys.size() > 1) {
        keys.sort(null);
      }
      for (Key k : keys) {
        closed.window(k, end - size, end, byKey.get(k));
      }
    }
  }

  @Override
  public void restore(OpenState.OpenWindow w) {
    byEnd.computeIfAbsent(w.end(), e -> new HashMap<>()).put(w.key(), w.accumulators());
  }

  @Override
  public List<OpenState.OpenWindow> held() {
    List<OpenState.OpenWindow> open = new ArrayList<>();
    byEnd.forEach((end, byKey) -> byKey.entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .forEach(e -> open.add(new OpenState.OpenWindow(e.getKey(), end - size, end, e.getValue()))));
    return open;
  }

  @Override
  public int count() {
    int n = 0;
    for (Map<Key, Accumulator[]> byKey : byEnd.values()) {
      n += byKey.size();
    }
    return n;
  }

  private Map<Key, Accumulator[]> windowsEndingAt(long end) {
    if (end != cachedEnd || cachedWindows == null) {
      cachedWindows = byEnd.computeIfAbsent(end, e -> new HashMap<>());
      cachedEnd = end;
    }
    return cachedWindows;
  }
}
