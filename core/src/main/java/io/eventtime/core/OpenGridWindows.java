package io.eventtime.core;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

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
  // made once: a lambda per row would be an allocation per row
  private final Function<Key, Accumulator[]> fresh;
  // keys of the last window closed: a new window's map is made that large, not grown step by step
  private int lastClosedKeys;

  OpenGridWindows(WindowSpec.Grid grid, LatePolicy policy, Aggregates aggregates) {
    this.grid = grid;
    this.assigner = new WindowAssigner(grid, policy);
    this.aggregates = aggregates;
    this.size = grid.sizeMillis();
    this.starts = new long[grid.maxWindowsPerRow()];
    this.fresh = k -> aggregates.create();
  }

  @Override
  public boolean fold(Key key, long eventTime, Object[] inputs, long arrival, long watermark) {
    int n = assigner.landing(eventTime, watermark, starts);
    for (int i = 0; i < n; i++) {
      // one look-up for the (window, key) partial, found or made
      Accumulator[] accs = windowsEndingAt(starts[i] + size).computeIfAbsent(key, fresh);
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
      lastClosedKeys = byKey.size();
      if (byKey.size() == 1) {
        Map.Entry<Key, Accumulator[]> only = byKey.entrySet().iterator().next();
        closed.window(only.getKey(), end - size, end, only.getValue());
        continue;
      }
      // the entries sorted by key: the close order, without a look-up per key afterwards
      @SuppressWarnings("unchecked")
      Map.Entry<Key, Accumulator[]>[] entries = byKey.entrySet().toArray(new Map.Entry[0]);
      Arrays.sort(entries, Map.Entry.comparingByKey());
      for (Map.Entry<Key, Accumulator[]> e : entries) {
        closed.window(e.getKey(), end - size, end, e.getValue());
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
      cachedWindows = byEnd.get(end);
      if (cachedWindows == null) {
        cachedWindows = new HashMap<>(Math.max(16, (int) (lastClosedKeys / 0.75f) + 1));
        byEnd.put(end, cachedWindows);
      }
      cachedEnd = end;
    }
    return cachedWindows;
  }
}
