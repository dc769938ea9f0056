package io.eventtime.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Settings read from text, and bad settings refused before a run with a message that says how to fix them. */
class ConfigurationTest {

  @Test
  void windowSpecsRefuseSizesSlidesAndGapsThatAreNotPositive() {
    for (long bad : new long[] {0, -1, Long.MIN_VALUE}) {
      assertThatThrownBy(() -> WindowSpec.tumbling(bad)).isInstanceOf(IllegalArgumentException.class)
          .hasMessage("the tumbling window size must be positive, got " + bad
              + " ms: give a duration greater than zero (e.g. 1 MINUTE)");
      assertThatThrownBy(() -> WindowSpec.hopping(bad, 60_000)).isInstanceOf(IllegalArgumentException.class)
          .hasMessage("the hopping window slide must be positive, got " + bad
              + " ms: give a duration greater than zero (e.g. 30 SECOND)");
      assertThatThrownBy(() -> WindowSpec.hopping(1, bad)).isInstanceOf(IllegalArgumentException.class)
          .hasMessage("the hopping window size must be positive, got " + bad
              + " ms: give a duration greater than zero (e.g. 1 MINUTE)");
      assertThatThrownBy(() -> WindowSpec.session(bad)).isInstanceOf(IllegalArgumentException.class)
          .hasMessage("the session gap must be positive, got " + bad
              + " ms: give a duration greater than zero (e.g. 5 MINUTE)");
    }
    assertThatThrownBy(() -> new WindowSpec.Tumbling(0, 5)).hasMessageContaining("must be positive");
    assertThatThrownBy(() -> new WindowSpec.Hopping(0, 10, 5)).hasMessageContaining("slide must be positive");
  }

  @Test
  void aHoppingSlideLargerThanItsSizeIsRefused() {
    assertThatThrownBy(() -> WindowSpec.hopping(60_001, 60_000)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the hopping window slide (60001 ms) is larger than its size (60000 ms), so some rows would fall"
            + " in no window: make the slide at most the size (for windows that do not overlap, use a tumbling window)");
    assertThatThrownBy(() -> new WindowSpec.Hopping(20, 10, 0).withOffset(3)).hasMessageContaining("larger than its size");
  }

  @Test
  void aSlideEqualToTheSizeIsTumbling() {
    WindowSpec.Hopping h = WindowSpec.hopping(10, 10);
    assertThat(h.maxWindowsPerRow()).isEqualTo(1);
    List<WindowResult> hop = new ArrayList<>();
    List<WindowResult> tumble = new ArrayList<>();
    WindowProcessor ph = new WindowProcessor(WindowQuery.of(h).withAggregates(AggregateSpec.countAll("n")), hop::add);
    WindowProcessor pt = new WindowProcessor(WindowQuery.of(WindowSpec.tumbling(10))
        .withAggregates(AggregateSpec.countAll("n")), tumble::add);
    for (long ts : new long[] {3, 9, 10, 25, -4, 31}) {
      ph.process(Key.GLOBAL, ts, new Object[] {null});
      pt.process(Key.GLOBAL, ts, new Object[] {null});
    }
    ph.finish();
    pt.finish();
    assertThat(hop).isEqualTo(tumble).hasSize(4);
  }

  @Test
  void windowGeometry() {
    assertThat(WindowSpec.tumbling(10).kind()).isEqualTo("tumbling");
    assertThat(WindowSpec.hopping(5, 10).kind()).isEqualTo("hopping");
    assertThat(WindowSpec.session(5).kind()).isEqualTo("session");

    assertThat(WindowSpec.tumbling(10).startOf(-1)).isEqualTo(-10);
    assertThat(WindowSpec.tumbling(10).startOf(0)).isEqualTo(0);
    assertThat(WindowSpec.tumbling(10).startOf(19)).isEqualTo(10);
    assertThat(new WindowSpec.Tumbling(10, 3).startOf(2)).isEqualTo(-7);
    assertThat(new WindowSpec.Tumbling(10, -27).startOf(2)).isEqualTo(-7);

    assertThat(WindowSpec.hopping(3, 7).maxWindowsPerRow()).isEqualTo(3);
    assertThat(WindowSpec.hopping(5, 10).maxWindowsPerRow()).isEqualTo(2);
    long[] starts = new long[3];
    assertThat(WindowSpec.hopping(3, 7).startsOf(6, starts)).isEqualTo(3);
    assertThat(starts).containsExactly(0, 3, 6);
    assertThat(WindowSpec.hopping(3, 7).startsOf(-1, starts)).isEqualTo(2);
    assertThat(starts[0]).isEqualTo(-6);
    assertThat(starts[1]).isEqualTo(-3);
    assertThat(new WindowSpec.Hopping(5, 10, 1).startsOf(0, starts)).isEqualTo(2);
    assertThat(starts[0]).isEqualTo(-9);
    assertThat(starts[1]).isEqualTo(-4);

    // grid windows close when the watermark reaches the end; sessions once it passes it
    assertThat(WindowSpec.tumbling(10).isClosed(10, 9)).isFalse();
    assertThat(WindowSpec.tumbling(10).isClosed(10, 10)).isTrue();
    assertThat(WindowSpec.hopping(5, 10).isClosed(10, 10)).isTrue();
    assertThat(WindowSpec.session(5).isClosed(10, 10)).isFalse();
    assertThat(WindowSpec.session(5).isClosed(10, 11)).isTrue();

    assertThatThrownBy(() -> new WindowAssigner(WindowSpec.session(5), LatePolicy.WINDOW))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("session windows are not on a grid");
  }

  @Test
  void aQueryRefusesANegativeDelayAndMissingParts() {
    assertThatThrownBy(() -> WindowQuery.of(WindowSpec.tumbling(10)).withDelay(-1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the watermark delay must not be negative, got -1 ms: give 0 or a positive duration such as"
            + " 5 MINUTE");
    assertThatThrownBy(() -> new Watermark(-5)).hasMessageContaining("must not be negative, got -5 ms");
    assertThatThrownBy(() -> WindowQuery.of(null)).isInstanceOf(NullPointerException.class)
        .hasMessage("a window spec is required");
    assertThatThrownBy(() -> WindowQuery.of(WindowSpec.tumbling(10)).withLatePolicy(null))
        .isInstanceOf(NullPointerException.class).hasMessage("a late policy is required");

    WindowQuery q = WindowQuery.of(WindowSpec.session(5));
    assertThat(q.keyFields()).isEmpty();
    assertThat(q.aggregates()).isEmpty();
    assertThat(q.delayMillis()).isZero();
    assertThat(q.latePolicy()).isEqualTo(LatePolicy.WINDOW);
    List<String> keys = new ArrayList<>(List.of("a"));
    WindowQuery copied = new WindowQuery(WindowSpec.session(5), keys, List.of(), 0, LatePolicy.EVENT);
    keys.add("b");
    assertThat(copied.keyFields()).containsExactly("a");
  }

  @Test
  void latePolicyNames() {
    assertThat(LatePolicy.parse("window")).isEqualTo(LatePolicy.WINDOW);
    assertThat(LatePolicy.parse("WINDOW")).isEqualTo(LatePolicy.WINDOW);
    assertThat(LatePolicy.parse(" Event ")).isEqualTo(LatePolicy.EVENT);
    assertThat(LatePolicy.WINDOW.label()).isEqualTo("window");
    assertThat(LatePolicy.EVENT.label()).isEqualTo("event");
    for (String bad : new String[] {"strict", "", "windows", "late"}) {
      assertThatThrownBy(() -> LatePolicy.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class)
          .hasMessage("unknown late policy '" + bad + "': use one of window, event");
    }
    assertThatThrownBy(() -> LatePolicy.parse(null)).hasMessage("unknown late policy 'null': use one of window, event");
  }

  @Test
  void aggregateNames() {
    for (String t : new String[] {"count(*)", "COUNT(*)", "count_all", "Count All", "count_star", "count star"}) {
      assertThat(AggregateKind.parse(t)).as(t).isEqualTo(AggregateKind.COUNT_ALL);
    }
    for (String t : new String[] {"count_distinct", "count distinct", "COUNT DISTINCT", " Count_Distinct "}) {
      assertThat(AggregateKind.parse(t)).as(t).isEqualTo(AggregateKind.COUNT_DISTINCT);
    }
    assertThat(AggregateKind.parse("count")).isEqualTo(AggregateKind.COUNT);
    assertThat(AggregateKind.parse("SUM")).isEqualTo(AggregateKind.SUM);
    assertThat(AggregateKind.parse("min")).isEqualTo(AggregateKind.MIN);
    assertThat(AggregateKind.parse("Max")).isEqualTo(AggregateKind.MAX);
    assertThat(AggregateKind.parse(" avg ")).isEqualTo(AggregateKind.AVG);
    assertThat(AggregateKind.parse("first")).isEqualTo(AggregateKind.FIRST);
    assertThat(AggregateKind.parse("LAST")).isEqualTo(AggregateKind.LAST);
    for (AggregateKind k : AggregateKind.values()) {
      assertThat(AggregateKind.parse(k.label())).isEqualTo(k);
      assertThat(AggregateKind.parse(k.name())).isEqualTo(k);
    }
    String choices = "use one of count(*), count, count_distinct, sum, min, max, avg, first, last";
    for (String bad : new String[] {"median", "", "count(x)", "total", "average"}) {
      assertThatThrownBy(() -> AggregateKind.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class)
          .hasMessage("unknown aggregate '" + bad + "': " + choices);
    }
    assertThatThrownBy(() -> AggregateKind.parse(null)).hasMessage("unknown aggregate 'null': " + choices);
    assertThat(AggregateKind.COUNT_ALL.needsInput()).isFalse();
    assertThat(AggregateKind.COUNT.needsInput()).isTrue();
  }

  @Test
  void aggregateResultTypes() {
    for (ValueType t : ValueType.values()) {
      assertThat(AggregateKind.COUNT_ALL.resultType(t)).isEqualTo(ValueType.INT64);
      assertThat(AggregateKind.COUNT.resultType(t)).isEqualTo(ValueType.INT64);
      assertThat(AggregateKind.COUNT_DISTINCT.resultType(t)).isEqualTo(ValueType.INT64);
      assertThat(AggregateKind.MIN.resultType(t)).isEqualTo(t);
      assertThat(AggregateKind.MAX.resultType(t)).isEqualTo(t);
      assertThat(AggregateKind.FIRST.resultType(t)).isEqualTo(t);
      assertThat(AggregateKind.LAST.resultType(t)).isEqualTo(t);
    }
    assertThat(AggregateKind.COUNT_ALL.resultType(null)).isEqualTo(ValueType.INT64);
    assertThat(AggregateKind.SUM.resultType(ValueType.INT64)).isEqualTo(ValueType.INT64);
    assertThat(AggregateKind.SUM.resultType(ValueType.DOUBLE)).isEqualTo(ValueType.DOUBLE);
    assertThat(AggregateKind.AVG.resultType(ValueType.INT64)).isEqualTo(ValueType.DOUBLE);
    assertThat(AggregateKind.AVG.resultType(ValueType.DOUBLE)).isEqualTo(ValueType.DOUBLE);
  }

  @Test
  void aSumOrAverageOfSomethingNotNumericIsRefused() {
    for (ValueType t : new ValueType[] {ValueType.STRING, ValueType.BOOLEAN, ValueType.TIMESTAMP, null}) {
      assertThatThrownBy(() -> AggregateKind.SUM.resultType(t)).as("sum of %s", t)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("sum takes a numeric field (INT64 or DOUBLE), not " + t
              + ": use count, min or max for that field, or sum a numeric one");
      assertThatThrownBy(() -> AggregateKind.AVG.resultType(t)).as("avg of %s", t)
          .hasMessage("avg takes a numeric field (INT64 or DOUBLE), not " + t
              + ": use count, min or max for that field, or avg a numeric one");
    }
    assertThat(ValueType.INT64.isNumeric()).isTrue();
    assertThat(ValueType.DOUBLE.isNumeric()).isTrue();
    assertThat(ValueType.STRING.isNumeric()).isFalse();
    assertThat(ValueType.TIMESTAMP.javaType()).isEqualTo(java.time.Instant.class);
  }

  @Test
  void anAggregateSpecNeedsItsFieldAndItsOutputName() {
    assertThatThrownBy(() -> AggregateSpec.of(AggregateKind.SUM, null, "total"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("sum needs an input field: name the field to sum for output 'total'");
    assertThatThrownBy(() -> AggregateSpec.of(AggregateKind.COUNT_DISTINCT, "  ", "d"))
        .hasMessage("count_distinct needs an input field: name the field to count_distinct for output 'd'");
    assertThatThrownBy(() -> AggregateSpec.of(AggregateKind.MAX, null, null))
        .hasMessage("max needs an input field: name the field to max");
    assertThatThrownBy(() -> AggregateSpec.of(AggregateKind.COUNT, "x", null))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("the count aggregate needs an output name");
    assertThatThrownBy(() -> AggregateSpec.countAll(" ")).hasMessage("the count(*) aggregate needs an output name");
    assertThatThrownBy(() -> AggregateSpec.of(null, "x", "y")).isInstanceOf(NullPointerException.class)
        .hasMessage("kind");

    // count(*) reads no field, whatever it is given
    assertThat(AggregateSpec.of(AggregateKind.COUNT_ALL, "x", "n").inputField()).isNull();
    assertThat(AggregateSpec.countAll("n")).hasToString("count(*) AS n");
    assertThat(AggregateSpec.of(AggregateKind.SUM, "amount", "total")).hasToString("sum(amount) AS total");
  }

  @Test
  void valuesAndKeys() {
    assertThat(Values.normalize(5)).isEqualTo(5L);
    assertThat(Values.normalize((short) 5)).isEqualTo(5L);
    assertThat(Values.normalize((byte) 5)).isEqualTo(5L);
    assertThat(Values.normalize(java.math.BigInteger.TEN)).isEqualTo(10L);
    assertThat(Values.normalize(1.5f)).isEqualTo(1.5);
    assertThat(Values.normalize(new java.math.BigDecimal("2.25"))).isEqualTo(2.25);
    assertThat(Values.normalize(new java.util.Date(7))).isEqualTo(java.time.Instant.ofEpochMilli(7));
    assertThat(Values.normalize(new StringBuilder("ab"))).isEqualTo("ab");
    assertThat(Values.normalize(null)).isNull();
    assertThatThrownBy(() -> Values.normalize(new Object())).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("values of type Object cannot be grouped or aggregated: use a number, a string, a boolean or a"
            + " timestamp");

    assertThat(Values.compare(null, 1L)).isNegative();
    assertThat(Values.compare(1L, null)).isPositive();
    assertThat(Values.compare(1L, 1.5)).isNegative();
    assertThat(Values.compare(2.0, 2L)).isZero();
    assertThat(Values.compare("b", "a")).isPositive();
    assertThat(Values.compare(true, "a")).isNegative(); // different types order by type name

    assertThat(Key.of()).isSameAs(Key.GLOBAL);
    assertThat(Key.of(1, "a")).isEqualTo(Key.of(1L, "a")).hasSameHashCodeAs(Key.of(1L, "a"));
    assertThat(Key.of(1L, "a")).isNotEqualTo(Key.of(1L, "b")).hasToString("[1, a]");
    List<Key> keys = new ArrayList<>(List.of(Key.of("b", 1L), Key.of("a", 2L), Key.of(null, 9L), Key.of("a", 1L),
        Key.of("a")));
    keys.sort(null);
    assertThat(keys).containsExactly(Key.of(null, 9L), Key.of("a"), Key.of("a", 1L), Key.of("a", 2L),
        Key.of("b", 1L));
    assertThat(Key.of("a", 1L).values()).containsExactly("a", 1L);
  }
}
