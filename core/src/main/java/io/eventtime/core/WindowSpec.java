package io.eventtime.core;

import java.io.Serializable;
import java.util.Locale;

/**
 * The shape of the windows rows are grouped into: tumbling, hopping or session, all in
 * milliseconds of event time.
 *
 * <p>Tumbling and hopping windows are half-open intervals {@code [start, end)} on a grid; a
 * session window is built from the data of one key. A spec is immutable and checked when it is
 * made: a size, slide or gap that is not positive or longer than {@link TimeRange} allows, or a
 * slide larger than the size (which would leave rows in no window at all), is refused with a
 * message that says how to fix it.
 *
 * <p>Each kind carries its behaviour: when one of its windows is closed ({@link #isClosed}) and
 * the {@link OpenWindows} that hold its windows during a run ({@link #openWindows}), which
 * {@link WindowProcessor} drives without knowing the kind. Grid kinds ({@link Grid}) say which
 * windows cover a row and share {@link WindowAssigner}; sessions are merged by {@link SessionSet}.
 * Whether a row is late is {@link LatePolicy#admits}, for every kind.
 */
public sealed interface WindowSpec extends Serializable permits WindowSpec.Grid, WindowSpec.Session {

  /** Fixed windows of {@code sizeMillis}, the grid from the epoch ({@link Tumbling#withOffset} shifts it). */
  static Tumbling tumbling(long sizeMillis) {
    return new Tumbling(sizeMillis, 0);
  }

  /** Sliding windows of {@code sizeMillis}, a new one every {@code slideMillis}. */
  static Hopping hopping(long slideMillis, long sizeMillis) {
    return new Hopping(slideMillis, sizeMillis, 0);
  }

  /** Session windows per key that a silence longer than {@code gapMillis} splits. */
  static Session session(long gapMillis) {
    return new Session(gapMillis);
  }

  /** The kind, as the surfaces name it: {@code tumbling}, {@code hopping} or {@code session}. */
  String kind();

  /**
   * Whether a window ending at {@code end} is closed once the watermark is {@code watermark}.
   * Grid windows close when the watermark reaches their end; a session (whose end is its last
   * event time plus the gap) only when the watermark passes it, since a row exactly one gap
   * after the last one still belongs to it.
   */
  boolean isClosed(long end, long watermark);

  /** The windows of this kind that a run holds open, none yet, for rows late by {@code policy}. */
  OpenWindows openWindows(LatePolicy policy, Aggregates aggregates);

  /**
   * Windows of one size on a grid fixed in advance, {@code [start, start + size)}: a row goes
   * into each of the windows that cover it, and a window closes when the watermark reaches its
   * end.
   */
  sealed interface Grid extends WindowSpec permits Tumbling, Hopping {
    long sizeMillis();

    /** The most windows one row can be in: the length {@link #startsOf}'s buffer needs. */
    int maxWindowsPerRow();

    /**
     * Writes the starts of the windows that contain {@code ts} into {@code starts}, earliest
     * first, and returns how many there are.
     */
    int startsOf(long ts, long[] starts);

    @Override
    default boolean isClosed(long end, long watermark) {
      return watermark >= end;
    }

    @Override
    default OpenWindows openWindows(LatePolicy policy, Aggregates aggregates) {
      return new OpenGridWindows(this, policy, aggregates);
    }
  }

  /** Tumbling (fixed) windows {@code [start, start + size)}. */
  record Tumbling(long sizeMillis, long offsetMillis) implements Grid {
    public Tumbling {
      requirePositive(sizeMillis, "tumbling window size", "e.g. 1 MINUTE");
    }

    public Tumbling withOffset(long offset) {
      return new Tumbling(sizeMillis, offset);
    }

    public long startOf(long ts) {
      long phase = Math.floorMod(offsetMillis, sizeMillis);
      return Math.floorDiv(ts - phase, sizeMillis) * sizeMillis + phase;
    }

    /** A row is in one tumbling window. */
    @Override
    public int maxWindowsPerRow() {
      return 1;
    }

    @Override
    public int startsOf(long ts, long[] starts) {
      starts[0] = startOf(ts);
      return 1;
    }

    @Override
    public String kind() {
      return "tumbling";
    }
  }

  /**
   * Hopping (sliding) windows {@code [k * slide + offset, k * slide + offset + size)}. A row
   * lands in every window that covers it: {@code size / slide} of them when the slide divides
   * the size, otherwise {@code floor} or {@code ceil} of that ratio depending on where it falls.
   * Since every row is folded into each of its windows, a size of more than
   * {@value #MAX_WINDOWS_PER_ROW} slides is refused.
   */
  record Hopping(long slideMillis, long sizeMillis, long offsetMillis) implements Grid {
    /** The most windows one row may land in: the size may be at most this many slides. */
    public static final int MAX_WINDOWS_PER_ROW = 10_000;

    public Hopping {
      requirePositive(slideMillis, "hopping window slide", "e.g. 30 SECOND");
      requirePositive(sizeMillis, "hopping window size", "e.g. 1 MINUTE");
      if (slideMillis > sizeMillis) {
        throw new IllegalArgumentException(String.format(Locale.ROOT,
            "the hopping window slide (%d ms) is larger than its size (%d ms), so some rows would fall"
                + " in no window: make the slide at most the size (for windows that do not overlap,"
                + " use a tumbling window)", slideMillis, sizeMillis));
      }
      long windows = ceilDiv(sizeMillis, slideMillis);
      if (windows > MAX_WINDOWS_PER_ROW) {
        throw new IllegalArgumentException(String.format(Locale.ROOT,
            "the hopping window size (%d ms) is %d times its slide (%d ms), so each row would land in %d windows;"
                + " at most %d are supported: make the slide at least the size / %d (%d ms), or the size smaller",
            sizeMillis, windows, slideMillis, windows, MAX_WINDOWS_PER_ROW, MAX_WINDOWS_PER_ROW,
            ceilDiv(sizeMillis, MAX_WINDOWS_PER_ROW)));
      }
    }

    public Hopping withOffset(long offset) {
      return new Hopping(slideMillis, sizeMillis, offset);
    }

    @Override
    public int maxWindowsPerRow() {
      return (int) ceilDiv(sizeMillis, slideMillis);
    }

    @Override
    public int startsOf(long ts, long[] starts) {
      long phase = Math.floorMod(offsetMillis, slideMillis);
      long last = Math.floorDiv(ts - phase, slideMillis) * slideMillis + phase;
      int n = 0;
      long first = last;
      while (first - slideMillis > ts - sizeMillis) {
        first -= slideMillis;
      }
      for (long s = first; s <= last; s += slideMillis) {
        starts[n++] = s;
      }
      return n;
    }

    @Override
    public String kind() {
      return "hopping";
    }
  }

  /**
   * Session windows: rows of one key whose event times are at most {@code gap} apart share a
   * session, which starts at its first event time and ends at its last event time plus the gap.
   */
  record Session(long gapMillis) implements WindowSpec {
    public Session {
      requirePositive(gapMillis, "session gap", "e.g. 5 MINUTE");
    }

    @Override
    public String kind() {
      return "session";
    }

    @Override
    public boolean isClosed(long end, long watermark) {
      return watermark > end;
    }

    @Override
    public OpenWindows openWindows(LatePolicy policy, Aggregates aggregates) {
      return new OpenSessionWindows(this, policy, aggregates);
    }
  }

  private static long ceilDiv(long a, long b) {
    return -Math.floorDiv(-a, b);
  }

  /** A size, slide or gap: positive, and at most {@link TimeRange#MAX_DURATION_MILLIS}. */
  private static void requirePositive(long millis, String what, String example) {
    if (millis <= 0) {
      throw new IllegalArgumentException(String.format(Locale.ROOT,
          "the %s must be positive, got %d ms: give a duration greater than zero (%s)", what, millis, example));
    }
    TimeRange.requireDuration(what, millis);
  }
}
