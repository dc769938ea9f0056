package io.eventtime.core;

import io.eventtime.core.RandomStreams.Event;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A deliberately naive model of the contract, to check {@link WindowProcessor} against. It shares
 * no logic with the processor: before each row it recomputes the watermark from the whole prefix
 * of arrivals, finds the windows a row belongs to by their definition (every grid window that
 * contains it; every session whose rows are within a gap of it), keeps every window's rows, and
 * after each row scans all windows for those the new watermark closes. Aggregates are computed
 * at the end from each window's rows, by definition. Quadratic, and meant to be.
 */
final class ReferenceModel {
  private ReferenceModel() {}

  /** A window as it was emitted, and how many rows had arrived when it was. */
  record Emission(WindowResult result, long rowsInAtEmit) {}

  /** What a run gives: the emissions in order, the stats, whether each row was folded, and the open windows after each row. */
  record Outcome(List<Emission> emissions, Stats stats, List<Boolean> folded, List<Integer> openAfterRow) {}

  private static final class Window {
    final Key key;
    final long gridStart;
    final long gridEnd;
    final List<Integer> rows = new ArrayList<>(); // arrival positions
    boolean emitted;

    Window(Key key, long gridStart, long gridEnd) {
      this.key = key;
      this.gridStart = gridStart;
      this.gridEnd = gridEnd;
    }
  }

  static Outcome run(WindowQuery query, List<Event> events) {
    WindowSpec spec = query.spec();
    boolean session = spec instanceof WindowSpec.Session;
    List<Window> windows = new ArrayList<>();
    List<Emission> emissions = new ArrayList<>();
    List<Boolean> folded = new ArrayList<>();
    List<Integer> openAfter = new ArrayList<>();
    long rowsFolded = 0;
    long late = 0;
    long rejected = 0;

    for (int i = 0; i < events.size(); i++) {
      Event e = events.get(i);
      if (e.ts() == null) {
        rejected++;
        folded.add(false);
      } else {
        Long w = watermarkBefore(events, i, query.delayMillis());
        long ts = e.ts();
        boolean behind = w != null && ts < w;
        boolean landed;
        if (query.latePolicy() == LatePolicy.EVENT && behind) {
          landed = false;
        } else if (session) {
          landed = foldSession(windows, events, e.key(), i, w, ((WindowSpec.Session) spec).gapMillis());
        } else {
          landed = false;
          for (long[] interval : gridWindowsContaining(spec, ts)) {
            if (w != null && w >= interval[1]) {
              continue; // that window had closed when the row arrived
            }
            Window win = openGridWindow(windows, e.key(), interval[0], interval[1]);
            win.rows.add(i);
            landed = true;
          }
        }
        folded.add(landed);
        if (landed) {
          rowsFolded++;
        } else {
          late++;
        }
      }
      Long after = watermarkBefore(events, i + 1, query.delayMillis());
      if (after != null) {
        emit(windows, events, spec, query, after, i + 1, emissions);
      }
      openAfter.add((int) windows.stream().filter(win -> !win.emitted).count());
    }
    emit(windows, events, spec, query, null, events.size(), emissions);

    Set<List<Long>> intervals = new HashSet<>();
    for (Emission em : emissions) {
      intervals.add(List.of(em.result().start(), em.result().end()));
    }
    Stats stats = new Stats(events.size(), emissions.size(), late, intervals.size(), rowsFolded, rejected);
    return new Outcome(emissions, stats, folded, openAfter);
  }

  /** The latest event time among the first {@code count} arrivals, less the delay; null when none had a time. */
  static Long watermarkBefore(List<Event> events, int count, long delay) {
    Long max = null;
    for (int j = 0; j < count; j++) {
      Long t = events.get(j).ts();
      if (t != null && (max == null || t > max)) {
        max = t;
      }
    }
    return max == null ? null : max - delay;
  }

  /** Every {@code [start, end)} of the grid that contains {@code ts}: starts at {@code k * slide + offset}. */
  static List<long[]> gridWindowsContaining(WindowSpec spec, long ts) {
    long slide;
    long size;
    long offset;
    if (spec instanceof WindowSpec.Tumbling t) {
      slide = t.sizeMillis();
      size = t.sizeMillis();
      offset = t.offsetMillis();
    } else {
      WindowSpec.Hopping h = (WindowSpec.Hopping) spec;
      slide = h.slideMillis();
      size = h.sizeMillis();
      offset = h.offsetMillis();
    }
    List<long[]> out = new ArrayList<>();
    for (long k = Math.floorDiv(ts - size - offset, slide) - 1; k <= Math.floorDiv(ts - offset, slide) + 1; k++) {
      long start = k * slide + offset;
      if (start <= ts && ts < start + size) {
        out.add(new long[] {start, start + size});
      }
    }
    return out;
  }

  private static Window openGridWindow(List<Window> windows, Key key, long start, long end) {
    for (Window w : windows) {
      if (!w.emitted && w.key.equals(key) && w.gridStart == start && w.gridEnd == end) {
        return w;
      }
    }
    Window w = new Window(key, start, end);
    windows.add(w);
    return w;
  }

  /**
   * A row joins every open session of its key that has a row within a gap of it, merging them;
   * with none, it starts a session of its own unless that session would already be closed.
   */
  private static boolean foldSession(List<Window> windows, List<Event> events, Key key, int row, Long w, long gap) {
    long ts = events.get(row).ts();
    List<Window> touched = new ArrayList<>();
    for (Window s : windows) {
      if (s.emitted || !s.key.equals(key) || sessionClosed(s, events, gap, w)) {
        continue;
      }
      for (int j : s.rows) {
        if (Math.abs(events.get(j).ts() - ts) <= gap) {
          touched.add(s);
          break;
        }
      }
    }
    if (touched.isEmpty() && w != null && w > ts + gap) {
      return false;
    }
    Window merged = new Window(key, 0, 0);
    for (Window s : touched) {
      merged.rows.addAll(s.rows);
      windows.remove(s);
    }
    merged.rows.add(row);
    merged.rows.sort(null);
    windows.add(merged);
    return true;
  }

  private static boolean sessionClosed(Window s, List<Event> events, long gap, Long w) {
    return w != null && w > sessionEnd(s, events, gap);
  }

  private static long sessionEnd(Window s, List<Event> events, long gap) {
    long last = Long.MIN_VALUE;
    for (int j : s.rows) {
      last = Math.max(last, events.get(j).ts());
    }
    return last + gap;
  }

  private static long sessionStart(Window s, List<Event> events) {
    long first = Long.MAX_VALUE;
    for (int j : s.rows) {
      first = Math.min(first, events.get(j).ts());
    }
    return first;
  }

  /** Emits, in close order, every window not yet emitted that {@code watermark} closes (all of them when null). */
  private static void emit(List<Window> windows, List<Event> events, WindowSpec spec, WindowQuery query,
      Long watermark, long rowsIn, List<Emission> out) {
    List<WindowResult> closing = new ArrayList<>();
    for (Window win : windows) {
      if (win.emitted) {
        continue;
      }
      long start;
      long end;
      boolean closed;
      if (spec instanceof WindowSpec.Session s) {
        start = sessionStart(win, events);
        end = sessionEnd(win, events, s.gapMillis());
        closed = watermark == null || watermark > end;
      } else {
        start = win.gridStart;
        end = win.gridEnd;
        closed = watermark == null || watermark >= end;
      }
      if (closed) {
        win.emitted = true;
        closing.add(new WindowResult(win.key, start, end, aggregate(query.aggregates(), win.rows, events)));
      }
    }
    closing.sort(Comparator.comparingLong(WindowResult::end).thenComparingLong(WindowResult::start)
        .thenComparing(WindowResult::key, ReferenceModel::compareKeys));
    for (WindowResult r : closing) {
      out.add(new Emission(r, rowsIn));
    }
  }

  /** Keys order field by field, a null before any value. */
  static int compareKeys(Key a, Key b) {
    for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
      Object x = a.get(i);
      Object y = b.get(i);
      int c;
      if (x == null || y == null) {
        c = x == null ? (y == null ? 0 : -1) : 1;
      } else if (x instanceof Long lx) {
        c = Long.compare(lx, (Long) y);
      } else {
        c = ((String) x).compareTo((String) y);
      }
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(a.size(), b.size());
  }

  /** Each aggregate by its definition, over the window's rows in arrival order. */
  static Object[] aggregate(List<AggregateSpec> specs, List<Integer> rows, List<Event> events) {
    List<Integer> byArrival = new ArrayList<>(rows);
    byArrival.sort(null);
    Object[] out = new Object[specs.size()];
    for (int a = 0; a < specs.size(); a++) {
      AggregateSpec spec = specs.get(a);
      List<Object> all = new ArrayList<>();
      List<Object> present = new ArrayList<>();
      for (int j : byArrival) {
        Object v = spec.kind().needsInput() ? events.get(j).field(spec.inputField()) : null;
        all.add(v);
        if (v != null) {
          present.add(v);
        }
      }
      out[a] = switch (spec.kind()) {
        case COUNT_ALL -> (long) all.size();
        case COUNT -> (long) present.size();
        case COUNT_DISTINCT -> (long) new LinkedHashSet<>(present).size();
        case SUM -> present.isEmpty() ? null : sum(present);
        case MIN -> present.stream().min(ReferenceModel::compareValues).orElse(null);
        case MAX -> present.stream().max(ReferenceModel::compareValues).orElse(null);
        case AVG -> present.isEmpty() ? null : toDouble(sum(present)) / present.size();
        case FIRST -> all.get(0);
        case LAST -> all.get(all.size() - 1);
      };
    }
    return out;
  }

  private static Object sum(List<Object> values) {
    if (values.get(0) instanceof Long) {
      long s = 0;
      for (Object v : values) {
        s += (Long) v;
      }
      return s;
    }
    // the doubles are quarters: add them up exactly as whole quarters
    long quarters = 0;
    for (Object v : values) {
      quarters += Math.round((Double) v * 4);
    }
    return quarters / 4.0;
  }

  private static double toDouble(Object n) {
    return ((Number) n).doubleValue();
  }

  @SuppressWarnings("unchecked")
  private static int compareValues(Object a, Object b) {
    return ((Comparable<Object>) a).compareTo(b);
  }
}
