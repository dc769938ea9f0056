package io.eventtime.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link GridPartials}, the partials of one grid window with count and sum in primitive slots,
 * against the accumulators they stand for: the same rows folded both ways give the same results,
 * the same accumulators (as a state stores them) and, put back from those, go on the same way.
 */
class GridPartialsTest {
  /** Every kind, a sum of whole numbers near overflow, a sum of doubles and of both, a count of a field with nulls. */
  private static final Aggregates AGGREGATES = new Aggregates(List.of(
      AggregateSpec.countAll("n"),
      AggregateSpec.of(AggregateKind.SUM, "big", "big_sum"),
      AggregateSpec.of(AggregateKind.COUNT, "x", "x_count"),
      AggregateSpec.of(AggregateKind.MIN, "x", "x_min"),
      AggregateSpec.of(AggregateKind.SUM, "x", "x_sum"),
      AggregateSpec.of(AggregateKind.SUM, "mixed", "mixed_sum"),
      AggregateSpec.of(AggregateKind.MAX, "x", "x_max"),
      AggregateSpec.of(AggregateKind.AVG, "x", "x_avg"),
      AggregateSpec.of(AggregateKind.COUNT_DISTINCT, "x", "x_distinct"),
      AggregateSpec.of(AggregateKind.FIRST, "x", "x_first"),
      AggregateSpec.of(AggregateKind.LAST, "x", "x_last")));

  @Test
  void foldsAsTheAccumulatorsDoAndGoesOnFromThem() {
    GridPartials.Layout layout = new GridPartials.Layout(AGGREGATES);
    for (int round = 0; round < 40; round++) {
      Random r = new Random(round);
      int keyCount = 1 + r.nextInt(round % 4 == 0 ? 3000 : 40); // past the first table's size, and within it
      Key[] keys = new Key[keyCount];
      for (int k = 0; k < keyCount; k++) {
        keys[k] = Key.of("k" + k, (long) (k % 7));
      }
      GridPartials partials = new GridPartials(layout, r.nextInt(20));
      Map<Key, Accumulator[]> expected = new LinkedHashMap<>();
      foldBoth(r, keys, 1 + r.nextInt(4 * keyCount), partials, expected, 0);
      assertSame(partials, expected, "round " + round);

      // put back from what a state holds, and both go on
      GridPartials restored = new GridPartials(layout, 0);
      for (Map.Entry<Key, Accumulator[]> e : expected.entrySet()) {
        assertThat(restored.restore(e.getKey(), copy(e.getValue()))).isTrue();
      }
      assertSame(restored, expected, "round " + round + ", restored");
      foldBoth(r, keys, 1 + r.nextInt(2 * keyCount), restored, expected, 1_000_000);
      assertSame(restored, expected, "round " + round + ", restored and folded on");
    }
  }

  @Test
  void aKeyPutBackAgainReplacesItsPartial() {
    GridPartials partials = new GridPartials(new GridPartials.Layout(AGGREGATES), 0);
    Key a = Key.of("a");
    Accumulator[] one = AGGREGATES.create();
    AGGREGATES.add(one, new Object[] {null, 5L, 1L, 1L, 1L, 1L, 1L, 1L, 1L, 1L, 1L}, 0, 10);
    Accumulator[] two = AGGREGATES.create();
    AGGREGATES.add(two, new Object[] {null, 7L, 2L, 2L, 2L, 2.5, 2L, 2L, 2L, 2L, 2L}, 1, 11);
    AGGREGATES.add(two, new Object[] {null, 1L, null, 3L, 3L, 1L, 3L, 3L, 3L, 3L, 3L}, 2, 12);
    assertThat(partials.restore(a, one)).isTrue();
    assertThat(partials.restore(a, two)).isFalse();
    assertThat(partials.size()).isEqualTo(1);
    assertThat(partials.results(partials.slotOf(a))).containsExactly(2L, 8L, 1L, 2L, 5L, 3.5, 3L, 2.5, 2L, 2L, 3L);
    assertThat(partials.slotOf(Key.of("b"))).isEqualTo(-1);
  }

  /** Folds {@code rows} random rows into both, arrivals from {@code firstArrival}. */
  private static void foldBoth(Random r, Key[] keys, int rows, GridPartials partials, Map<Key, Accumulator[]> expected,
      long firstArrival) {
    for (int i = 0; i < rows; i++) {
      Key key = keys[r.nextInt(keys.length)];
      Object[] inputs = inputs(r);
      long arrival = firstArrival + i;
      long eventTime = r.nextInt(1000);
      int found = partials.slotFor(key);
      boolean isNew = found < 0;
      assertThat(isNew).as("new key %s", key).isEqualTo(!expected.containsKey(key));
      partials.add(isNew ? -1 - found : found, inputs, arrival, eventTime);
      AGGREGATES.add(expected.computeIfAbsent(key, k -> AGGREGATES.create()), inputs, arrival, eventTime);
    }
  }

  private static Object[] inputs(Random r) {
    Long x = r.nextInt(5) == 0 ? null : (long) (r.nextInt(41) - 20);
    // near the ends of a long: a sum that overflows goes on in floating point
    Long big = r.nextInt(6) == 0 ? null : (r.nextBoolean() ? Long.MAX_VALUE : Long.MIN_VALUE) - r.nextInt(3) * (long) r.nextInt();
    Object mixed = switch (r.nextInt(4)) {
      case 0 -> null;
      case 1 -> (r.nextInt(41) - 20) * 0.1; // not exact in binary: the order of the terms counts
      default -> (long) r.nextInt(1000);
    };
    return new Object[] {null, big, x, x, x, mixed, x, x, x, x, x};
  }

  private static void assertSame(GridPartials partials, Map<Key, Accumulator[]> expected, String what) {
    assertThat(partials.size()).as(what).isEqualTo(expected.size());
    int seen = 0;
    for (int s = 0; s < partials.capacity(); s++) {
      Key key = partials.keyAt(s);
      if (key == null) {
        continue;
      }
      seen++;
      assertThat(partials.slotOf(key)).as(what).isEqualTo(s);
      Accumulator[] want = expected.get(key);
      assertThat(partials.results(s)).as("%s, results of %s", what, key).containsExactly(AGGREGATES.results(want));
      assertThat(stored(partials.accumulators(s))).as("%s, accumulators of %s", what, key).isEqualTo(stored(want));
    }
    assertThat(seen).as(what).isEqualTo(expected.size());
  }

  /** A deep copy, as a state gives it back: first and last with the event time of their row. */
  private static Accumulator[] copy(Accumulator[] accs) {
    Accumulator[] out = AGGREGATES.copy(accs);
    for (int i = 0; i < accs.length; i++) {
      if (accs[i] instanceof Accumulator.ByArrival b && b.eventTime() != null) {
        ((Accumulator.ByArrival) out[i]).restoreEventTime(b.eventTime());
      }
    }
    return out;
  }

  /** The accumulators as a state stores them: every field of each compared. */
  private static List<Object> stored(Accumulator[] accs) {
    List<Object> out = new ArrayList<>();
    for (Accumulator a : accs) {
      out.add(PartialAggregate.of(a));
      out.add(a instanceof Accumulator.ByArrival b ? b.eventTime() : null);
    }
    return out;
  }
}
