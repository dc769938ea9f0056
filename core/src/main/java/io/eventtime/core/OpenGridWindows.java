package io.eventtime.core;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The open grid windows (tumbling, hopping) of a run: by end, then key. */
final class OpenGridWindows implements OpenWindows {
  private final WindowSpec.Grid grid;
  private final WindowAssigner assigner;
  private final GridPartials.Layout layout;
  private final long size;
  private final long[] starts;
  private final TreeMap<Long, GridPartials> byEnd = new TreeMap<>();
  /** The first key of {@code byEnd}, {@link Long#MAX_VALUE} when it is empty: most rows close nothing, a look here says so. */
  private long firstEnd = Long.MAX_VALUE;
  // rows of one window tend to come together: the windows the last row landed in, by its landing
  // index, without a look-up (a hopping row lands in several, each the next row's too)
  private final long[] cachedEnds;
  private final GridPartials[] cachedWindows;
  // keys of the last window closed: a new window is made that large, not grown step by step
  private int lastClosedKeys;
  /**
   * Every key of an open window, in key order, with how many open windows hold it (the same
   * counter in both maps): a closing window that holds most of them is handed on by walking them,
   * not by sorting its keys; a key leaves when its last window closes, so memory stays the open
   * windows'.
   */
  private final HashMap<Key, int[]> openKeyCounts = new HashMap<>();
  private final TreeMap<Key, int[]> openKeys = new TreeMap<>();

  /** Receives each closing window's partial of one key, in close order. */
  @FunctionalInterface
  private interface ClosedSlot {
    void window(Key key, long start, long end, GridPartials partials, int slot);
  }

  OpenGridWindows(WindowSpec.Grid grid, LatePolicy policy, Aggregates aggregates) {
    this.grid = grid;
    this.assigner = new WindowAssigner(grid, policy);
    this.layout = new GridPartials.Layout(aggregates);
    this.size = grid.sizeMillis();
    this.starts = new long[grid.maxWindowsPerRow()];
    this.cachedEnds = new long[starts.length];
    this.cachedWindows = new GridPartials[starts.length];
  }

  @Override
  public boolean fold(Key key, long eventTime, Object[] inputs, long arrival, long watermark) {
    int n = assigner.landing(eventTime, watermark, starts);
    for (int i = 0; i < n; i++) {
      GridPartials window = windowsEndingAt(i, starts[i] + size);
      // one look-up for the (window, key) partial, found or made
      int slot = window.slotFor(key);
      if (slot < 0) {
        slot = -1 - slot;
        holding(key);
      }
      window.add(slot, inputs, arrival, eventTime);
    }
    return n > 0;
  }

  @Override
  public void closeUpTo(long watermark, Closed closed) {
    if (!closesAny(watermark)) {
      return;
    }
    close(watermark, (key, start, end, partials, slot) -> closed.window(key, start, end, partials.accumulators(slot)));
  }

  @Override
  public void closeResultsUpTo(long watermark, Aggregates aggregates, ClosedResults closed) {
    if (!closesAny(watermark)) {
      return;
    }
    close(watermark, (key, start, end, partials, slot) -> closed.window(key, start, end, partials.results(slot)));
  }

  private boolean closesAny(long watermark) {
    return !byEnd.isEmpty() && (watermark == Long.MAX_VALUE || grid.isClosed(firstEnd, watermark));
  }

  private void close(long watermark, ClosedSlot closed) {
    while (!byEnd.isEmpty()) {
      long end = byEnd.firstKey();
      if (watermark != Long.MAX_VALUE && !grid.isClosed(end, watermark)) {
        break;
      }
      GridPartials window = byEnd.pollFirstEntry().getValue();
      for (int c = 0; c < cachedWindows.length; c++) {
        if (cachedWindows[c] == window) {
          cachedWindows[c] = null;
        }
      }
      int n = window.size();
      lastClosedKeys = n;
      Key[] keys = new Key[n];
      int[] slots = new int[n];
      if (openKeys.size() <= 2 * n) {
        // the window holds most open keys: walk them in key order, each key's count going down
        int i = 0;
        for (Iterator<Map.Entry<Key, int[]>> it = openKeys.entrySet().iterator(); it.hasNext() && i < n; ) {
          Map.Entry<Key, int[]> open = it.next();
          // read before it.remove(), which may reuse the entry for the next key
          Key key = open.getKey();
          int slot = window.slotOf(key);
          if (slot >= 0) {
            keys[i] = key;
            slots[i++] = slot;
            if (--open.getValue()[0] == 0) {
              it.remove();
              openKeyCounts.remove(key);
            }
          }
        }
      } else {
        // a few of many keys: sort the window's own keys
        inKeyOrder(window, keys, slots);
        for (Key key : keys) {
          released(key);
        }
      }
      firstEnd = byEnd.isEmpty() ? Long.MAX_VALUE : byEnd.firstKey();
      for (int i = 0; i < n; i++) {
        closed.window(keys[i], end - size, end, window, slots[i]);
      }
    }
  }

  /** Fills {@code keys} with the window's keys in key order, {@code slots} with their slots. */
  private static void inKeyOrder(GridPartials window, Key[] keys, int[] slots) {
    int i = 0;
    for (int s = 0; s < window.capacity(); s++) {
      if (window.keyAt(s) != null) {
        keys[i++] = window.keyAt(s);
      }
    }
    Arrays.sort(keys);
    for (i = 0; i < keys.length; i++) {
      slots[i] = window.slotOf(keys[i]);
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
    firstEnd = Math.min(firstEnd, w.end());
    if (byEnd.computeIfAbsent(w.end(), e -> new GridPartials(layout, 0)).restore(w.key(), w.accumulators())) {
      holding(w.key());
    }
  }

  @Override
  public List<OpenState.OpenWindow> held() {
    List<OpenState.OpenWindow> open = new ArrayList<>();
    byEnd.forEach((end, window) -> {
      Key[] keys = new Key[window.size()];
      int[] slots = new int[keys.length];
      inKeyOrder(window, keys, slots);
      for (int i = 0; i < keys.length; i++) {
        open.add(new OpenState.OpenWindow(keys[i], end - size, end, window.accumulators(slots[i])));
      }
    });
    return open;
  }

  @Override
  public int count() {
    int n = 0;
    for (GridPartials window : byEnd.values()) {
      n += window.size();
    }
    return n;
  }

  /** The window ending at {@code end}, found or made, where the row's {@code landing}th window goes. */
  private GridPartials windowsEndingAt(int landing, long end) {
    GridPartials window = cachedWindows[landing];
    if (window == null || cachedEnds[landing] != end) {
      window = byEnd.get(end);
      if (window == null) {
        window = new GridPartials(layout, lastClosedKeys);
        byEnd.put(end, window);
        firstEnd = Math.min(firstEnd, end);
      }
      cachedWindows[landing] = window;
      cachedEnds[landing] = end;
    }
    return window;
  }
}
