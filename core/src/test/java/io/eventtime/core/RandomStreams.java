package io.eventtime.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Random disordered streams for the property and differential tests. Times are multiples of a
 * unit so that rows often fall exactly on window boundaries, on the watermark and on each other;
 * most rows follow a moving frontier, some lag a little, some a lot, some sit exactly on the
 * watermark, and a few have no usable time at all (rejected).
 */
final class RandomStreams {
  private RandomStreams() {}

  /** One row: its key, its event time (null: no usable time, the row is rejected) and its fields. */
  record Event(Key key, Long ts, Long x, Double d, String s) {
    Object field(String name) {
      return switch (name) {
        case "x" -> x;
        case "d" -> d;
        case "s" -> s;
        default -> throw new IllegalArgumentException(name);
      };
    }
  }

  /** The aggregates the property tests compute: every kind, over long, double and string fields. */
  static final List<AggregateSpec> ALL_AGGREGATES = List.of(
      AggregateSpec.countAll("n"),
      AggregateSpec.of(AggregateKind.COUNT, "x", "count_x"),
      AggregateSpec.of(AggregateKind.COUNT_DISTINCT, "x", "distinct_x"),
      AggregateSpec.of(AggregateKind.SUM, "x", "sum_x"),
      AggregateSpec.of(AggregateKind.SUM, "d", "sum_d"),
      AggregateSpec.of(AggregateKind.MIN, "x", "min_x"),
      AggregateSpec.of(AggregateKind.MAX, "x", "max_x"),
      AggregateSpec.of(AggregateKind.MIN, "d", "min_d"),
      AggregateSpec.of(AggregateKind.MAX, "d", "max_d"),
      AggregateSpec.of(AggregateKind.AVG, "x", "avg_x"),
      AggregateSpec.of(AggregateKind.AVG, "d", "avg_d"),
      AggregateSpec.of(AggregateKind.FIRST, "s", "first_s"),
      AggregateSpec.of(AggregateKind.LAST, "s", "last_s"),
      AggregateSpec.of(AggregateKind.FIRST, "x", "first_x"),
      AggregateSpec.of(AggregateKind.LAST, "d", "last_d"),
      AggregateSpec.of(AggregateKind.MIN, "s", "min_s"),
      AggregateSpec.of(AggregateKind.MAX, "s", "max_s"),
      AggregateSpec.of(AggregateKind.COUNT, "s", "count_s"),
      AggregateSpec.of(AggregateKind.COUNT_DISTINCT, "s", "distinct_s"));

  /** The values of a row's fields in the order of {@code aggregates} (anything for count(*)). */
  static Object[] inputs(Event e, List<AggregateSpec> aggregates) {
    Object[] in = new Object[aggregates.size()];
    for (int i = 0; i < in.length; i++) {
      AggregateSpec a = aggregates.get(i);
      in[i] = a.kind().needsInput() ? e.field(a.inputField()) : null;
    }
    return in;
  }

  private static final Key[] KEY_POOL = {
      Key.of("k0", 0L), Key.of("k1", 1L), Key.of(null, 2L), Key.of("k1", 0L), Key.of("k2", -1L), Key.of("", 3L)};

  private static final String[] STRINGS = {"a", "b", "c", "dd", ""};

  /** A random disordered stream; {@code unit} is the step of its times, {@code delay} the watermark delay. */
  static List<Event> stream(Random r, int rows, long unit, long base, long delay, boolean globalKey, int keyCount,
      double rejectedShare) {
    List<Event> events = new ArrayList<>(rows);
    long frontier = base;
    Long max = null;
    int maxStep = r.nextInt(6);
    int jitter = 1 + r.nextInt(20);
    int bigJump = 1 + r.nextInt(200);
    for (int i = 0; i < rows; i++) {
      Key key = globalKey ? Key.GLOBAL : KEY_POOL[r.nextInt(keyCount)];
      frontier += unit * r.nextInt(maxStep + 1);
      Long ts;
      double roll = r.nextDouble();
      if (roll < rejectedShare) {
        ts = null;
      } else if (roll < 0.55) {
        ts = frontier;
      } else if (roll < 0.78) {
        ts = frontier - unit * r.nextInt(jitter + 1);
      } else if (roll < 0.88) {
        ts = frontier - unit * r.nextInt(bigJump + 1);
      } else if (roll < 0.95 && max != null) {
        ts = max - delay; // exactly on the watermark
      } else {
        ts = frontier + unit * r.nextInt(3);
      }
      if (ts != null) {
        max = max == null ? ts : Math.max(max, ts);
      }
      Long x = r.nextInt(5) == 0 ? null : (long) (r.nextInt(101) - 50);
      // quarters add up exactly in binary, so a double sum does not depend on the order of its terms
      Double d = r.nextInt(5) == 0 ? null : (r.nextInt(2001) - 1000) * 0.25;
      String s = r.nextInt(5) == 0 ? null : STRINGS[r.nextInt(STRINGS.length)];
      events.add(new Event(key, ts, x, d, s));
    }
    return events;
  }

  /** A random grid or session spec of the given kind, in multiples of {@code unit}. */
  static WindowSpec spec(Random r, String kind, long unit) {
    switch (kind) {
      case "tumbling": {
        long size = unit * (1 + r.nextInt(30));
        return new WindowSpec.Tumbling(size, offset(r, size, unit));
      }
      case "hopping": {
        int sizeUnits = 2 + r.nextInt(30);
        int slideUnits;
        if (r.nextBoolean()) {
          List<Integer> divisors = new ArrayList<>();
          for (int p = 1; p <= sizeUnits; p++) {
            if (sizeUnits % p == 0) {
              divisors.add(p);
            }
          }
          slideUnits = divisors.get(r.nextInt(divisors.size()));
        } else {
          slideUnits = 1 + r.nextInt(sizeUnits);
        }
        return new WindowSpec.Hopping(unit * slideUnits, unit * sizeUnits, offset(r, unit * sizeUnits, unit));
      }
      case "session":
        return new WindowSpec.Session(unit * (1 + r.nextInt(20)));
      default:
        throw new IllegalArgumentException(kind);
    }
  }

  /** No offset, an offset on the unit grid, or any offset, up to three sizes either way. */
  private static long offset(Random r, long size, long unit) {
    double roll = r.nextDouble();
    if (roll < 0.5) {
      return 0;
    }
    long any = (long) (r.nextDouble() * 6 * size) - 3 * size;
    return roll < 0.85 ? any / unit * unit : any;
  }
}
