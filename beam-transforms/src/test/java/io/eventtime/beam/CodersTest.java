package io.eventtime.beam;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.eventtime.core.Accumulator;
import io.eventtime.core.AggregateKind;
import io.eventtime.core.AggregateSpec;
import io.eventtime.core.Aggregates;
import io.eventtime.core.PartialAggregate;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.apache.beam.sdk.coders.CoderException;
import org.apache.beam.sdk.util.CoderUtils;
import org.junit.jupiter.api.Test;

class CodersTest {

  @Test
  void accumulatorsOfEveryAggregateKeepTheirStateThroughTheCoder() throws CoderException {
    List<AggregateSpec> specs = List.of(AggregateSpec.countAll("n"), AggregateSpec.of(AggregateKind.COUNT, "v", "c"),
        AggregateSpec.of(AggregateKind.COUNT_DISTINCT, "v", "d"), AggregateSpec.of(AggregateKind.SUM, "v", "s"),
        AggregateSpec.of(AggregateKind.MIN, "v", "lo"), AggregateSpec.of(AggregateKind.MAX, "v", "hi"),
        AggregateSpec.of(AggregateKind.AVG, "v", "mean"), AggregateSpec.of(AggregateKind.FIRST, "v", "first"),
        AggregateSpec.of(AggregateKind.LAST, "v", "last"));
    Aggregates aggregates = new Aggregates(specs);
    AccumulatorsCoder coder = AccumulatorsCoder.of(specs);
    Object[][] rows = {
        {"a", "b"}, {2L, -7L}, {2.5, 1L}, {Instant.parse("2026-03-01T00:00:00.123Z"), Instant.parse("2026-03-01T00:01:00Z")},
        {true, false}, {null, null}, {Long.MAX_VALUE, 1L}};
    for (Object[] values : rows) {
      Accumulator[] accs = aggregates.create();
      assertThat(states(CoderUtils.clone(coder, accs))).as("empty").isEqualTo(states(accs));
      for (int i = 0; i < values.length; i++) {
        Object[] inputs = new Object[specs.size()];
        Arrays.fill(inputs, values[i]);
        if (!(values[i] instanceof Number)) {
          inputs[3] = null; // sum and avg take numbers only
          inputs[6] = null;
        }
        aggregates.add(accs, inputs, 40L + i);
      }
      Accumulator[] copy = CoderUtils.clone(coder, accs);
      assertThat(states(copy)).as(Arrays.toString(values)).isEqualTo(states(accs));
      assertThat(aggregates.results(copy)).isEqualTo(aggregates.results(accs));
    }
  }

  @Test
  void accumulatorCodersOfTheSameAggregatesAreEqual() {
    List<AggregateSpec> specs = List.of(AggregateSpec.countAll("n"), AggregateSpec.of(AggregateKind.SUM, "v", "s"));
    assertThat(AccumulatorsCoder.of(specs)).isEqualTo(AccumulatorsCoder.of(List.copyOf(specs)))
        .hasSameHashCodeAs(AccumulatorsCoder.of(specs))
        .isNotEqualTo(AccumulatorsCoder.of(List.of(AggregateSpec.countAll("n"))));
  }

  @Test
  void aWrongNumberOfAccumulatorsIsRefused() {
    AccumulatorsCoder coder = AccumulatorsCoder.of(List.of(AggregateSpec.countAll("n")));
    assertThatThrownBy(() -> CoderUtils.encodeToByteArray(coder, new Accumulator[0]))
        .isInstanceOf(CoderException.class).hasMessage("expected 1 accumulators, got 0");
  }

  @Test
  void arrivalTimesKeepEveryPairThroughTheCoder() throws CoderException {
    ArrivalTimes times = new ArrivalTimes();
    long[][] pairs = {{1024, 1_772_323_200_000L}, {1030, 1_772_323_140_000L}, {1025, Long.MAX_VALUE},
        {1026, Long.MIN_VALUE}, {2047, -5L}, {1024, 0L}};
    for (long[] p : pairs) {
      times.add(p[0], p[1]);
    }
    ArrivalTimes copy = CoderUtils.clone(ArrivalTimes.ArrivalTimesCoder.of(), times);
    assertThat(copy).isEqualTo(times);
    assertThat(copy.size()).isEqualTo(6);
    assertThat(copy.maxTime()).isEqualTo(Long.MAX_VALUE);
    assertThat(copy.lastPosition()).isEqualTo(2047);
    assertThat(CoderUtils.clone(ArrivalTimes.ArrivalTimesCoder.of(), new ArrivalTimes()).size()).isZero();
  }

  private static List<PartialAggregate> states(Accumulator[] accs) {
    return Arrays.stream(accs).map(PartialAggregate::of).toList();
  }
}
