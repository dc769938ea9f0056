package io.eventtime.core;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
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
  /**
   * Every key of an open window, in key order, with how many open windows hold it (the same
   * counter in both maps): a closing window that holds most of them is handed on by walking them,
   * not by sorting its keys; a key leaves when its last window closes, so memory stays the open
   * windows'.
   */
  private final HashMap<Key, int[]> openKeyCounts = new HashMap<>();
  private final TreeMap<Key, int[]> openKeys = new TreeMap<>();

  OpenGridWindows(WindowSpec.Grid grid, LatePolicy policy, Aggregates aggregates) {
    this.grid = grid;
    this.assigner = new WindowAssigner(grid, policy);
    this.aggregates = aggregates;
    this.size = grid.sizeMillis();
    this.starts = new long[grid.maxWindowsPerRow()];
    this.fresh = k -> {
      holding(k);
      return aggregates.create();
    };
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
      int n = byKey.size();
      lastClosedKeys = n;
      Key[] keys = new Key[n];
      Accumulator[][] accs = new Accumulator[n][];
      if (openKeys.size() <= 2 * n) {
        // the window holds most open keys: walk them in key order, each key's count going down
        int i = 0;
        for (Iterator<Map.Entry<Key, int[]>> it = openKeys.entrySet().iterator(); it.hasNext() && i < n; ) {
          Map.Entry<Key, int[]> open = it.next();
          // read before it.remove(), which may reuse the entry for the next key
          Key key = open.getKey();
          Accumulator[] a = byKey.get(key);
          if (a != null) {
            keys[i] = key;
            accs[i++] = a;
            if (--open.getValue()[0] == 0) {
              it.remove();
              openKeyCounts.remove(key);
            }
          }
        }
      } else {
        // a few of many keys: sort the window's own entries
        @SuppressWarnings("unchecked")
        Map.Entry<Key, Accumulator[]>[] entries = byKey.entrySet().toArray(new Map.Entry[0]);
        Arrays.sort(entries, Map.Entry.comparingByKey());
        for (int i = 0; i < n; i++) {
          keys[i] = entries[i].getKey();
          accs[i] = entries[i].getValue();
          released(keys[i]);
        }
      }
      for (int i = 0; i < n; i++) {
        closed.window(keys[i], end - size, end, accs[i]);
      }
    }
  }

  /** One more open window holds {@code key}. */
  private void holding(Key key) {
    int[] count = openKeyCounts.get(key);
    if (count == null) {
      count = new int[1];
      openKeyCounts.put(key, count);
      openKeys.put(key, count);
    }
    count[0]++;
  }

  /** One open window fewer holds {@code key}. */
  private void released(Key key) {
    int[] count = openKeyCounts.get(key);
    if (--count[0] == 0) {
      openKeyCounts.remove(key);
      openKeys.remove(key);
    }
  }

  @Override
  public void restore(OpenState.OpenWindow w) {
    if (byEnd.computeIfAbsent(w.end(), e -> new HashMap<>()).put(w.key(), w.accumulators()) == null) {
      holding(w.key());
    }
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
