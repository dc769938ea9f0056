package io.eventtime.beam;

import static io.eventtime.core.contract.WorkedExamples.A;
import static io.eventtime.core.contract.WorkedExamples.C;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.eventtime.core.AggregateKind;
import io.eventtime.core.AggregateSpec;
import io.eventtime.core.LatePolicy;
import io.eventtime.core.WindowQuery;
import io.eventtime.core.WindowSpec;
import io.eventtime.core.contract.WorkedExamples;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The contract's worked examples A and C fed to {@link EventTimeWindow} as live streams
 * (TestStream on the DirectRunner: random bundles, rows out of position order between watermark
 * advances, the drain at the end) give the examples' windows, late rows with their reasons,
 * rejected rows and counters, to the row, and the same as the bounded path over the same rows in
 * the same pipeline. Example B is two runs with a state, which the live path does not keep yet.
 */
class LiveWindowExamplesTest {
  static final String ARRIVAL = EventTimeWindow.DEFAULT_ARRIVAL_FIELD;

  /** Example A's arrivals as rows: the event time, and the arrival (1 for the first) as the position. */
  static final Schema A_SCHEMA = Schema.builder().addStringField("event_time").addInt64Field(ARRIVAL).build();

  static List<Row> exampleARows() {
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < A.times().size(); i++) {
      rows.add(Row.withSchema(A_SCHEMA).addValues(A.times().get(i), (long) i + 1).build());
    }
    return rows;
  }

  static EventTimeWindow exampleA(WindowSpec spec) {
    return EventTimeWindow.of(WindowQuery.of(spec).withDelay(A.delayMillis()).withLatePolicy(LatePolicy.parse(A.policy()))
        .withAggregates(AggregateSpec.countAll("events"))).withTimeField("event_time");
  }

  /** Example A's late rows as {@link ConformanceSuite#formatRow} writes a late row of these rows. */
  static List<String> exampleALate() {
    return A.late().stream().map(l -> l.time() + "|" + l.arrival() + "|event_time|arrival " + l.arrival()
        + ": event time " + l.time() + " is behind the watermark " + l.watermark() + " (late policy " + A.policy() + ")")
        .toList();
  }

  static Pipeline pipeline() {
    return Pipeline.create(PipelineOptionsFactory.fromArgs("--runner=DirectRunner", "--targetParallelism=2").create());
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3})
  void exampleA_liveInRandomBundles_isTheReplay(long seed) {
    Random random = new Random(seed);
    List<Row> rows = exampleARows();
    Pipeline p = pipeline();
    PCollection<Row> live = p.apply("Live", LiveStreams.shuffled(A_SCHEMA, LiveStreams.stamped(rows, random, 2), random, 3));
    PCollection<Row> replay = p.apply("Replay", Create.of(rows).withRowSchema(A_SCHEMA));
    assertThat(live.isBounded()).isEqualTo(PCollection.IsBounded.UNBOUNDED);
    Map<String, WindowSpec> specs = Map.of(
        "Tumbling", WindowSpec.tumbling(A.tumbling().sizeMillis()),
        "Hopping", WindowSpec.hopping(A.hopping().slideMillis(), A.hopping().sizeMillis()),
        "Session", WindowSpec.session(A.session().gapMillis()));
    Map<String, WorkedExamples.Case> cases = Map.of("Tumbling", A.tumbling(), "Hopping", A.hopping(),
        "Session", A.session());
    for (String kind : specs.keySet()) {
      for (Map.Entry<String, PCollection<Row>> input : Map.of("Live", live, "Replay", replay).entrySet()) {
        String name = input.getKey() + kind;
        EventTimeWindowResult r = input.getValue().apply(name, exampleA(specs.get(kind)));
        PAssert.that(ConformanceSuite.format(name + "Rows", r.windows())).containsInAnyOrder(cases.get(kind).texts());
        PAssert.that(ConformanceSuite.format(name + "Late", r.late())).containsInAnyOrder(exampleALate());
        PAssert.that(r.rejected()).empty();
      }
    }
    runAndCheckStats(p, cases);
  }

  /** Runs the pipeline; each kind's live and replayed stats are the example's. */
  private static void runAndCheckStats(Pipeline p, Map<String, WorkedExamples.Case> cases) {
    PipelineResult result = p.run();
    result.waitUntilFinish();
    cases.forEach((kind, c) -> {
      assertThat(EventTimeMetrics.stats(result, "Live" + kind)).as(kind).isEqualTo(c.stats());
      assertThat(EventTimeMetrics.stats(result, "Replay" + kind)).as(kind).isEqualTo(c.stats());
    });
  }

  /** Example C's file as rows: its fields (strings and whole numbers) and the line as the position. */
  static Schema exampleCSchema() {
    JsonNode first = json(C.lines().get(0));
    Schema.Builder b = Schema.builder();
    for (Iterator<Map.Entry<String, JsonNode>> it = first.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> f = it.next();
      b.addField(f.getKey(), f.getValue().isNumber() ? Schema.FieldType.INT64 : Schema.FieldType.STRING);
    }
    return b.addInt64Field(ARRIVAL).build();
  }

  static List<Row> exampleCRows(Schema schema) {
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < C.rows().size(); i++) {
      List<Object> values = new ArrayList<>(List.of(C.rows().get(i)));
      values.add((long) i + 1);
      rows.add(Row.withSchema(schema).addValues(values).build());
    }
    return rows;
  }

  @ParameterizedTest
  @ValueSource(longs = {4, 5})
  void exampleC_liveInRandomBundles_isTheReplay(long seed) {
    Random random = new Random(seed);
    Schema schema = exampleCSchema();
    List<Row> rows = exampleCRows(schema);
    Pipeline p = pipeline();
    PCollection<Row> live = p.apply("Live", LiveStreams.shuffled(schema, LiveStreams.stamped(rows, random, 2), random, 4));
    PCollection<Row> replay = p.apply("Replay", Create.of(rows).withRowSchema(schema));
    WindowQuery base = WindowQuery.of(WindowSpec.tumbling(C.tumbling().sizeMillis())).withKeys(C.keyField())
        .withDelay(C.delayMillis()).withLatePolicy(LatePolicy.parse(C.policy()));
    Map<String, WindowQuery> queries = Map.of(
        "Tumbling", base.withAggregates(AggregateSpec.countAll("n"), AggregateSpec.of(AggregateKind.SUM, "amount", "total")),
        "Hopping", base.withSpec(WindowSpec.hopping(C.hopping().slideMillis(), C.hopping().sizeMillis()))
            .withAggregates(AggregateSpec.countAll("n")),
        "Session", base.withSpec(WindowSpec.session(C.session().gapMillis())).withAggregates(AggregateSpec.countAll("n")));
    Map<String, WorkedExamples.Case> cases = Map.of("Tumbling", C.tumbling(), "Hopping", C.hopping(),
        "Session", C.session());
    for (String kind : queries.keySet()) {
      for (Map.Entry<String, PCollection<Row>> input : Map.of("Live", live, "Replay", replay).entrySet()) {
        String name = input.getKey() + kind;
        EventTimeWindowResult r = input.getValue().apply(name,
            EventTimeWindow.of(queries.get(kind)).withTimeField(C.timeField()));
        PAssert.that(ConformanceSuite.format(name + "Rows", r.windows())).containsInAnyOrder(cases.get(kind).texts());
        PAssert.that(r.late()).empty();
        PAssert.that(r.rejected()).empty();
      }
    }
    runAndCheckStats(p, cases);
  }

  private static JsonNode json(String line) {
    try {
      return new ObjectMapper().readTree(line);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
