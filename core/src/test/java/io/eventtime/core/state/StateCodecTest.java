package io.eventtime.core.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.eventtime.core.Accumulator;
import io.eventtime.core.AggregateKind;
import io.eventtime.core.AggregateSpec;
import io.eventtime.core.Aggregates;
import io.eventtime.core.Key;
import io.eventtime.core.OpenState;
import io.eventtime.core.PartialAggregate;
import io.eventtime.core.WindowProcessor;
import io.eventtime.core.WindowQuery;
import io.eventtime.core.WindowSpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The state document: what it holds, exactly, and what it refuses. */
class StateCodecTest {
  private static final Path DOCS = Path.of("..", "docs");

  /** The example in docs/state.md and docs/state-example.json is what the code writes. */
  @Test
  void theDocumentedExampleIsWhatTheCodecWrites() throws IOException {
    List<String> emitted = new ArrayList<>();
    OpenState state = StateFixtures.docsState(emitted);
    assertThat(emitted).containsExactly(
        "[acme] 2026-07-18 10:00:00 2026-07-18 10:01:00 [1, 250, 250.0, 250, 250, 250, 1]",
        "[globex] 2026-07-18 10:00:00 2026-07-18 10:01:00 [1, 42, 42.0, 42, 42, 42, 1]");
    String written = new String(new StateCodec(StateFixtures.docsQuery(), "event_time").encode(state),
        StandardCharsets.UTF_8);
    assertThat(Files.readString(DOCS.resolve("state-example.json"))).isEqualTo(written);
    assertThat(Files.readString(DOCS.resolve("state.md"))).contains("```json\n" + written + "```\n");
  }

  /** Going on from the documented state gives the windows one run over all rows gives. */
  @Test
  void theDocumentedExampleGoesOnWhereItStopped() throws IOException {
    OpenState state = new StateCodec(StateFixtures.docsQuery(), "event_time")
        .decode(Files.readAllBytes(DOCS.resolve("state-example.json")), "state-example.json");
    List<String> flushed = new ArrayList<>();
    new WindowProcessor(StateFixtures.docsQuery(), r -> flushed.add(StateFixtures.show(r)), state).finish();
    assertThat(flushed).containsExactly(
        "[acme] 2026-07-18 10:01:00 2026-07-18 10:02:00 [2, 1090, 545.0, 980, 980, 110, 2]",
        "[globex] 2026-07-18 10:02:00 2026-07-18 10:03:00 [1, 7, 7.0, 7, 7, 7, 1]");
  }

  private static final WindowQuery EVERY_AGGREGATE = WindowQuery.of(WindowSpec.tumbling(1000))
      .withKeys("k1", "k2").withAggregates(
          AggregateSpec.countAll("c"),
          AggregateSpec.of(AggregateKind.COUNT, "x", "cx"),
          AggregateSpec.of(AggregateKind.COUNT_DISTINCT, "x", "dx"),
          AggregateSpec.of(AggregateKind.SUM, "n", "s"),
          AggregateSpec.of(AggregateKind.MIN, "x", "mn"),
          AggregateSpec.of(AggregateKind.MAX, "x", "mx"),
          AggregateSpec.of(AggregateKind.AVG, "n", "av"),
          AggregateSpec.of(AggregateKind.FIRST, "x", "f"),
          AggregateSpec.of(AggregateKind.LAST, "x", "l"));

  private static final Instant NANOS = Instant.parse("2026-03-01T00:00:00.123456789Z");

  /** Windows whose keys, values and partial aggregates use every type and edge the format has. */
  private static OpenState everyValue() {
    Aggregates aggregates = new Aggregates(EVERY_AGGREGATE.aggregates());
    Object[][][] rowsByWindow = {
        { // whole numbers at the edges: the sum overflows into floating
            {null, 5L, 5L, Long.MAX_VALUE, "b", NANOS, 1L, null, true},
            {null, null, 5.0, Long.MAX_VALUE, "a", Instant.MAX, 2L, "x", false},
            {null, Long.MIN_VALUE, Long.MIN_VALUE, 3L, null, Instant.MIN, 3.5, true, null}},
        { // doubles JSON numbers cannot hold, and signed zeros
            {null, -0.0, Double.NaN, 0.1, -0.0, 0.0, Double.NaN, Double.MIN_VALUE, Double.POSITIVE_INFINITY},
            {null, 0.0, 0.0, 0.2, 0.0, -0.0, 1.0, Double.NEGATIVE_INFINITY, 2.5},
            {null, Double.POSITIVE_INFINITY, 1L, Double.MAX_VALUE, 1L, 1.0, Double.NEGATIVE_INFINITY, -0.0, 1e-300}},
        { // one row of nulls: a sum and an average of nothing, a first and last of null
            {null, null, null, null, null, null, null, null, null}},
    };
    Key[] keys = {Key.of(Long.MIN_VALUE, "ünïcødé \"q\" \\ \n\t/ \u2028 \u0000"), Key.of(Double.NaN, true),
        Key.of(NANOS, null)};
    List<OpenState.OpenWindow> windows = new ArrayList<>();
    long arrival = 0;
    for (int w = 0; w < keys.length; w++) {
      Accumulator[] accs = aggregates.create();
      for (Object[] row : rowsByWindow[w]) {
        aggregates.add(accs, row, arrival++);
      }
      windows.add(new OpenState.OpenWindow(keys[w], 10_000, 11_000, accs));
    }
    return new OpenState(10_500L, 42, windows);
  }

  @Test
  void everyTypeAndPartialAggregateComesBackExactly() {
    StateCodec codec = new StateCodec(EVERY_AGGREGATE, null);
    OpenState state = everyValue();
    byte[] bytes = codec.encode(state);
    OpenState back = codec.decode(bytes, "test");

    assertThat(back.maxEventTime()).isEqualTo(10_500L);
    assertThat(back.nextArrival()).isEqualTo(42);
    assertThat(back.windows()).hasSize(3);
    for (int w = 0; w < 3; w++) {
      OpenState.OpenWindow before = state.windows().get(w);
      OpenState.OpenWindow after = back.windows().get(w);
      assertThat(after.key()).isEqualTo(before.key());
      assertThat(classes(after.key().values())).isEqualTo(classes(before.key().values()));
      assertThat(after.start()).isEqualTo(10_000);
      assertThat(after.end()).isEqualTo(11_000);
      assertThat(partials(after.accumulators())).isEqualTo(partials(before.accumulators()));
      assertThat(results(after.accumulators())).isEqualTo(results(before.accumulators()));
    }
    assertThat(codec.encode(back)).isEqualTo(bytes);
  }

  /** The parts of the first window, spelled out: nothing is rounded, widened or lost. */
  @Test
  void theEdgeValuesAreTheOnesWritten() {
    OpenState back = new StateCodec(EVERY_AGGREGATE, null).decode(new StateCodec(EVERY_AGGREGATE, null)
        .encode(everyValue()), "test");
    assertThat(partials(back.windows().get(0).accumulators())).containsExactly(
        new PartialAggregate.Count(3),
        new PartialAggregate.Count(2),
        new PartialAggregate.Distinct(java.util.Set.of(5L, 5.0, Long.MIN_VALUE)),
        new PartialAggregate.Sum(true, true, Long.MAX_VALUE, (double) Long.MAX_VALUE + 3),
        new PartialAggregate.Extreme("a"),
        new PartialAggregate.Extreme(Instant.MAX),
        new PartialAggregate.Avg(3, 6.5),
        new PartialAggregate.ByArrival(true, 0, null),
        new PartialAggregate.ByArrival(true, 2, null));
    assertThat(partials(back.windows().get(1).accumulators())).containsExactly(
        new PartialAggregate.Count(3),
        new PartialAggregate.Count(3),
        new PartialAggregate.Distinct(java.util.Set.of(Double.NaN, 0.0, 1L)),
        new PartialAggregate.Sum(true, true, 0, 0.1 + 0.2 + Double.MAX_VALUE),
        new PartialAggregate.Extreme(-0.0),
        new PartialAggregate.Extreme(1.0),
        new PartialAggregate.Avg(3, Double.NaN),
        new PartialAggregate.ByArrival(true, 3, Double.MIN_VALUE),
        new PartialAggregate.ByArrival(true, 5, 1e-300));
    assertThat(partials(back.windows().get(2).accumulators())).containsExactly(
        new PartialAggregate.Count(1),
        new PartialAggregate.Count(0),
        new PartialAggregate.Distinct(java.util.Set.of()),
        new PartialAggregate.Sum(false, false, 0, 0.0),
        new PartialAggregate.Extreme(null),
        new PartialAggregate.Extreme(null),
        new PartialAggregate.Avg(0, 0.0),
        new PartialAggregate.ByArrival(true, 6, null),
        new PartialAggregate.ByArrival(true, 6, null));
  }

  @Test
  void aValueOfATypeTheCoreDoesNotHoldIsRefusedWhenWriting() {
    WindowQuery q = WindowQuery.of(WindowSpec.tumbling(1000)).withAggregates(AggregateSpec.of(AggregateKind.MIN, "x", "m"));
    Accumulator[] accs = new Aggregates(q.aggregates()).create();
    accs[0].add(5, 0);
    OpenState state = new OpenState(10_500L, 1, List.of(new OpenState.OpenWindow(Key.GLOBAL, 10_000, 11_000, accs)));
    assertThatThrownBy(() -> new StateCodec(q, null).encode(state))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("aggregate min(x) AS m of window [] [10000, 11000): a value of type java.lang.Integer (5) cannot"
            + " be stored: the core holds Long, Double, String, Boolean or Instant values (convert others with"
            + " Values.normalize before handing them to the processor)");
  }

  private static List<Class<?>> classes(List<Object> values) {
    return values.stream().<Class<?>>map(v -> v == null ? Void.class : v.getClass()).toList();
  }

  private static List<PartialAggregate> partials(Accumulator[] accs) {
    return Arrays.stream(accs).map(PartialAggregate::of).toList();
  }

  private static List<Object> results(Accumulator[] accs) {
    return Arrays.stream(accs).map(Accumulator::result).toList();
  }
}
