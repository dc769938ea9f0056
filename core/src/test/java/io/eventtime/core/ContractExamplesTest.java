package io.eventtime.core;

import static io.eventtime.core.contract.WorkedExamples.A;
import static io.eventtime.core.contract.WorkedExamples.B;
import static io.eventtime.core.contract.WorkedExamples.C;
import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.core.contract.WorkedExamples;
import io.eventtime.core.contract.WorkedExamples.Case;
import io.eventtime.core.contract.WorkedExamples.Window;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The worked examples of the contract (semantics.md), to the row, through the processor; their
 * inputs and windows are the shared fixture {@link WorkedExamples}.
 */
class ContractExamplesTest {

  /** Example A with {@code spec}: delay 5 minutes, policy event, count(*); each window as start, end, count. */
  private static List<String> runA(WindowSpec spec) {
    List<String> rows = new ArrayList<>();
    WindowProcessor p = new WindowProcessor(
        WindowQuery.of(spec).withDelay(A.delayMillis()).withLatePolicy(LatePolicy.parse(A.policy()))
            .withAggregates(AggregateSpec.countAll("events")),
        r -> rows.add(TimeText.format(r.start()) + "|" + TimeText.format(r.end()) + "|" + r.values()[0]));
    List<Boolean> folded = new ArrayList<>();
    for (String t : A.times()) {
      folded.add(p.process(Key.GLOBAL, WorkedExamples.millis(t), new Object[] {null}));
    }
    p.finish();
    assertThat(folded).isEqualTo(A.folded());
    return rows;
  }

  @Test
  void exampleA_tumbling() {
    Case c = A.tumbling();
    assertThat(runA(WindowSpec.tumbling(c.sizeMillis()))).isEqualTo(c.texts());
  }

  @Test
  void exampleA_hopping() {
    Case c = A.hopping();
    assertThat(runA(WindowSpec.hopping(c.slideMillis(), c.sizeMillis()))).isEqualTo(c.texts());
  }

  @Test
  void exampleA_session() {
    Case c = A.session();
    assertThat(runA(WindowSpec.session(c.gapMillis()))).isEqualTo(c.texts());
  }

  @Test
  void exampleA_stats() {
    for (Case c : A.cases().values()) {
      WindowSpec spec = switch (c.kind()) {
        case "tumbling" -> WindowSpec.tumbling(c.sizeMillis());
        case "hopping" -> WindowSpec.hopping(c.slideMillis(), c.sizeMillis());
        default -> WindowSpec.session(c.gapMillis());
      };
      WindowProcessor p = new WindowProcessor(WindowQuery.of(spec).withDelay(A.delayMillis())
          .withLatePolicy(LatePolicy.parse(A.policy())).withAggregates(AggregateSpec.countAll("events")), r -> { });
      A.times().forEach(t -> p.process(Key.GLOBAL, WorkedExamples.millis(t), new Object[] {null}));
      p.finish();
      assertThat(p.stats()).as(c.kind()).isEqualTo(c.stats());
    }
  }

  @Test
  void exampleB_twoRunsWithState() {
    WindowQuery q = WindowQuery.of(WindowSpec.tumbling(B.sizeMillis())).withDelay(B.delayMillis())
        .withLatePolicy(LatePolicy.parse(B.policy())).withAggregates(AggregateSpec.countAll("events"));
    List<String> run1 = new ArrayList<>();
    WindowProcessor p1 = new WindowProcessor(q, r -> run1.add(TimeText.format(r.start()) + "|"
        + TimeText.format(r.end()) + "|" + r.values()[0]));
    for (String t : B.run1().times()) {
      p1.process(Key.GLOBAL, WorkedExamples.millis(t), new Object[] {null});
    }
    OpenState state = p1.hold();
    assertThat(run1).isEqualTo(texts(B.run1().windows()));
    assertThat(p1.stats()).isEqualTo(B.run1().stats());
    assertThat(state.maxEventTime() - B.delayMillis()).isEqualTo(B.run1().watermarkMillis());
    assertThat(open(state)).isEqualTo(texts(B.run1().open()));

    List<String> run2 = new ArrayList<>();
    WindowProcessor p2 = new WindowProcessor(q, r -> run2.add(TimeText.format(r.start()) + "|"
        + TimeText.format(r.end()) + "|" + r.values()[0]), state);
    List<Boolean> folded = new ArrayList<>();
    for (String t : B.run2().times()) {
      folded.add(p2.process(Key.GLOBAL, WorkedExamples.millis(t), new Object[] {null}));
    }
    OpenState after = p2.hold();
    assertThat(folded).isEqualTo(B.run2().folded());
    assertThat(run2).isEqualTo(texts(B.run2().windows()));
    assertThat(p2.stats()).isEqualTo(B.run2().stats());
    assertThat(p2.watermark()).isEqualTo(B.run2().watermarkMillis());
    assertThat(open(after)).isEqualTo(texts(B.run2().open()));
  }

  private static List<String> texts(List<Window> windows) {
    return windows.stream().map(Window::text).toList();
  }

  /** The open windows of a state as start, end, count. */
  private static List<String> open(OpenState state) {
    return state.windows().stream().map(w -> TimeText.format(w.start()) + "|" + TimeText.format(w.end()) + "|"
        + w.accumulators()[0].result()).toList();
  }

  /** Example C with {@code spec} by merchant: each window as key|start|end|values. */
  private static WindowProcessor runC(WindowSpec spec, List<String> rows, AggregateSpec... aggs) {
    EventTimeParser parser = EventTimeParser.defaults();
    WindowProcessor p = new WindowProcessor(WindowQuery.of(spec).withKeys(C.keyField()).withAggregates(aggs),
        r -> {
          StringBuilder b = new StringBuilder(r.key().get(0) + "|" + TimeText.format(r.start()) + "|"
              + TimeText.format(r.end()));
          for (Object v : r.values()) {
            b.append('|').append(v);
          }
          rows.add(b.toString());
        });
    for (Object[] row : C.rows()) {
      p.process(Key.of(row[0]), parser.parse(row[2]), new Object[] {null, row[1]});
    }
    p.finish();
    return p;
  }

  @Test
  void exampleC_tumblingPerKey() {
    Case c = C.tumbling();
    List<String> rows = new ArrayList<>();
    WindowProcessor p = runC(WindowSpec.tumbling(c.sizeMillis()), rows, AggregateSpec.countAll("n"),
        AggregateSpec.of(AggregateKind.SUM, "amount", "total"));
    assertThat(rows).isEqualTo(c.texts());
    assertThat(p.stats()).isEqualTo(c.stats());
  }

  /** Two counts of the same rows: each window's count twice. */
  private static List<String> countTwice(Case c) {
    return c.windows().stream().map(w -> w.text() + "|" + w.count()).toList();
  }

  @Test
  void exampleC_hoppingPerKey() {
    Case c = C.hopping();
    List<String> rows = new ArrayList<>();
    WindowProcessor p = runC(WindowSpec.hopping(c.slideMillis(), c.sizeMillis()), rows, AggregateSpec.countAll("n"),
        AggregateSpec.countAll("n2"));
    assertThat(rows).isEqualTo(countTwice(c));
    assertThat(p.stats()).isEqualTo(c.stats());
  }

  @Test
  void exampleC_sessionPerKey() {
    Case c = C.session();
    List<String> rows = new ArrayList<>();
    WindowProcessor p = runC(WindowSpec.session(c.gapMillis()), rows, AggregateSpec.countAll("n"),
        AggregateSpec.countAll("n2"));
    assertThat(rows).isEqualTo(countTwice(c));
    assertThat(p.stats()).isEqualTo(c.stats());
  }
}
