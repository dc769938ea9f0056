package io.eventtime.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Each aggregate over known values, nulls, no values at all, and merged from parts in any order. */
class AccumulatorTest {

  private static Object result(AggregateKind kind, Object... values) {
    Accumulator a = kind.newAccumulator();
    for (int i = 0; i < values.length; i++) {
      a.add(values[i], i);
    }
    return a.result();
  }

  @Test
  void eachAggregateOverValuesWithNulls() {
    Object[] longs = {4L, null, -2L, 4L, 9L, null};
    assertThat(result(AggregateKind.COUNT_ALL, longs)).isEqualTo(6L);
    assertThat(result(AggregateKind.COUNT, longs)).isEqualTo(4L);
    assertThat(result(AggregateKind.COUNT_DISTINCT, longs)).isEqualTo(3L);
    assertThat(result(AggregateKind.SUM, longs)).isEqualTo(15L);
    assertThat(result(AggregateKind.MIN, longs)).isEqualTo(-2L);
    assertThat(result(AggregateKind.MAX, longs)).isEqualTo(9L);
    assertThat(result(AggregateKind.AVG, longs)).isEqualTo(3.75);
    assertThat(result(AggregateKind.FIRST, longs)).isEqualTo(4L);
    assertThat(result(AggregateKind.LAST, longs)).isNull(); // the last row's value, null or not

    Object[] doubles = {0.5, -1.25, null, 2.0};
    assertThat(result(AggregateKind.SUM, doubles)).isEqualTo(1.25);
    assertThat(result(AggregateKind.AVG, doubles)).isEqualTo(1.25 / 3);
    assertThat(result(AggregateKind.MIN, doubles)).isEqualTo(-1.25);
    assertThat(result(AggregateKind.MAX, doubles)).isEqualTo(2.0);

    Object[] strings = {"pear", null, "apple", "pear", "fig"};
    assertThat(result(AggregateKind.MIN, strings)).isEqualTo("apple");
    assertThat(result(AggregateKind.MAX, strings)).isEqualTo("pear");
    assertThat(result(AggregateKind.COUNT_DISTINCT, strings)).isEqualTo(3L);
    assertThat(result(AggregateKind.FIRST, strings)).isEqualTo("pear");
    assertThat(result(AggregateKind.LAST, strings)).isEqualTo("fig");

    // a sum of whole numbers and a double is a double
    assertThat(result(AggregateKind.SUM, 1L, 0.5, 2L)).isEqualTo(3.5);
  }

  @Test
  void aggregatesOfNoValue() {
    Object[] nulls = {null, null};
    assertThat(result(AggregateKind.COUNT_ALL, nulls)).isEqualTo(2L);
    assertThat(result(AggregateKind.COUNT, nulls)).isEqualTo(0L);
    assertThat(result(AggregateKind.COUNT_DISTINCT, nulls)).isEqualTo(0L);
    for (AggregateKind k : new AggregateKind[] {AggregateKind.SUM, AggregateKind.MIN, AggregateKind.MAX,
        AggregateKind.AVG, AggregateKind.FIRST, AggregateKind.LAST}) {
      assertThat(result(k, nulls)).as(k.label()).isNull();
      assertThat(k.newAccumulator().result()).as(k.label()).isNull();
    }
    assertThat(AggregateKind.COUNT_ALL.newAccumulator().result()).isEqualTo(0L);
  }

  @Test
  void aSumOfWholeNumbersPastSixtyFourBitsBecomesADoubleAsDocumented() {
    assertThat(result(AggregateKind.SUM, Long.MAX_VALUE, 1L)).isEqualTo(9.223372036854775808E18);
    assertThat(result(AggregateKind.SUM, Long.MAX_VALUE, -1L)).isEqualTo(Long.MAX_VALUE - 1);
  }

  @Test
  void firstAndLastFollowArrivalNotTheOrderValuesAreAdded() {
    Accumulator first = AggregateKind.FIRST.newAccumulator();
    Accumulator last = AggregateKind.LAST.newAccumulator();
    long[] arrivals = {5, 2, 9, 7};
    String[] values = {"e", "b", "i", "g"};
    for (int i = 0; i < arrivals.length; i++) {
      first.add(values[i], arrivals[i]);
      last.add(values[i], arrivals[i]);
    }
    assertThat(first.result()).isEqualTo("b");
    assertThat(last.result()).isEqualTo("i");
  }

  @Test
  void mergingPartsInAnyOrderEqualsAggregatingTheWhole() {
    Random r = new Random(42);
    for (int round = 0; round < 500; round++) {
      for (AggregateKind kind : AggregateKind.values()) {
        int n = r.nextInt(12);
        int type = r.nextInt(3);
        List<Object> values = new ArrayList<>();
        for (int i = 0; i < n; i++) {
          values.add(r.nextInt(4) == 0 ? null : switch (type) {
            case 0 -> (long) r.nextInt(21) - 10;
            case 1 -> (r.nextInt(41) - 20) * 0.25; // quarters: sums exact in any order
            default -> String.valueOf((char) ('a' + r.nextInt(5)));
          });
        }
        if (type == 2 && (kind == AggregateKind.SUM || kind == AggregateKind.AVG)) {
          continue;
        }
        List<Long> arrivals = new ArrayList<>();
        for (long i = 0; i < n; i++) {
          arrivals.add(i * 3 + r.nextInt(3));
        }
        Accumulator whole = kind.newAccumulator();
        for (int i = 0; i < n; i++) {
          whole.add(values.get(i), arrivals.get(i));
        }
        int parts = 1 + r.nextInt(4);
        List<Accumulator> accs = new ArrayList<>();
        for (int p = 0; p < parts; p++) {
          accs.add(kind.newAccumulator());
        }
        for (int i = 0; i < n; i++) {
          accs.get(r.nextInt(parts)).add(values.get(i), arrivals.get(i));
        }
        Collections.shuffle(accs, r);
        Accumulator merged = accs.get(0);
        for (Accumulator other : accs.subList(1, accs.size())) {
          merged.merge(other);
        }
        assertThat(merged.result()).as("%s of %s at %s in %d parts", kind, values, arrivals, parts)
            .isEqualTo(whole.result());
      }
    }
  }

  @Test
  void aggregatesApplyTogetherToOneWindow() {
    Aggregates aggs = new Aggregates(List.of(AggregateSpec.countAll("n"),
        AggregateSpec.of(AggregateKind.SUM, "x", "s"), AggregateSpec.of(AggregateKind.LAST, "y", "l")));
    assertThat(aggs.size()).isEqualTo(3);
    assertThat(aggs.specs()).extracting(AggregateSpec::outputName).containsExactly("n", "s", "l");
    Accumulator[] a = aggs.create();
    Accumulator[] b = aggs.create();
    aggs.add(a, new Object[] {null, 3L, "p"}, 0);
    aggs.add(b, new Object[] {null, 4L, "q"}, 1);
    aggs.add(a, new Object[] {null, null, "r"}, 2);
    aggs.merge(b, a);
    assertThat(aggs.results(b)).containsExactly(3L, 7L, "r");
    assertThat(aggs.results(a)).containsExactly(2L, 3L, "r");
  }

  /**
   * Across partitions first and last go by the event time of each partition's row, not by
   * arrival positions (which do not compare across partitions); within one partition by arrival.
   */
  @Test
  void firstAndLastMergeAcrossPartitionsByEventTime() {
    Accumulator first0 = AggregateKind.FIRST.newAccumulator();
    first0.add("p0 at 5", 0, 5_000);
    first0.add("p0 at 1", 1, 1_000);
    Accumulator first1 = AggregateKind.FIRST.newAccumulator();
    first1.add("p1 at 3", 0, 3_000);
    first0.mergeAcrossPartitions(first1);
    assertThat(first0.result()).isEqualTo("p1 at 3");
    assertThat(((Accumulator.ByArrival) first0).eventTime()).isEqualTo(3_000L);

    Accumulator last0 = AggregateKind.LAST.newAccumulator();
    last0.add("p0 at 3", 4, 3_000);
    Accumulator last1 = AggregateKind.LAST.newAccumulator();
    last1.add("p1 at 3", 0, 3_000);
    last0.mergeAcrossPartitions(last1);
    assertThat(last0.result()).isEqualTo("p1 at 3");

    // a partial restored from a store gets its row's event time back, and merges as before
    Accumulator restored = PartialAggregate.of(first1).toAccumulator(AggregateKind.FIRST);
    assertThat(((Accumulator.ByArrival) restored).eventTime()).isNull();
    ((Accumulator.ByArrival) restored).restoreEventTime(3_000);
    Accumulator later = AggregateKind.FIRST.newAccumulator();
    later.add("p2 at 2", 7, 2_000);
    restored.mergeAcrossPartitions(later);
    assertThat(restored.result()).isEqualTo("p2 at 2");

    Accumulator untimed = AggregateKind.LAST.newAccumulator();
    untimed.add("no time", 0);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> last0.mergeAcrossPartitions(untimed))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("a last partial without the event time of its row cannot be merged with another partition's");
  }
}
