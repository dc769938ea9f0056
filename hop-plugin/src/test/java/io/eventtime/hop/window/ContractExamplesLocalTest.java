package io.eventtime.hop.window;

import static io.eventtime.core.contract.WorkedExamples.A;
import static io.eventtime.core.contract.WorkedExamples.C;
import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.core.Stats;
import io.eventtime.core.contract.WorkedExamples;
import io.eventtime.core.contract.WorkedExamples.Case;
import io.eventtime.hop.HopTestEnvironment;
import io.eventtime.hop.LocalRun;
import io.eventtime.hop.PipelineBuilder;
import io.eventtime.hop.Rows;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;
import org.apache.hop.core.row.IRowMeta;
import org.apache.hop.core.row.RowMeta;
import org.apache.hop.core.row.value.ValueMetaInteger;
import org.apache.hop.core.row.value.ValueMetaString;
import org.apache.hop.core.row.value.ValueMetaTimestamp;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The contract's worked examples A and C (the shared fixture WorkedExamples) through pipelines
 * built in code (Injector, Event Time Window, Dummy), on Hop's local engine, to the row.
 */
class ContractExamplesLocalTest {

  @BeforeAll
  static void hop() {
    HopTestEnvironment.init();
  }

  /** The window of a case of an example: its kind and durations, the example's delay and late policy. */
  private static EventTimeWindowMeta window(WorkedExamples.Example example, Case c) {
    EventTimeWindowMeta w = new EventTimeWindowMeta();
    w.setDefault();
    w.setWindowKind(c.kind());
    w.setWindowSize(c.size());
    w.setWindowSlide(c.slide());
    w.setSessionGap(c.gap());
    w.setWatermarkDelay(example.delay());
    w.setLatePolicy(example.policy());
    return w;
  }

  /** Example A: event times as Strings, delay 5 minutes, policy event, count(*). */
  private static LocalRun.Result exampleA(Case c) throws Exception {
    EventTimeWindowMeta w = window(A, c);
    w.setTimeField("event_time");
    w.setAggregates(List.of(new WindowAggregate(null, "count", "events")));
    IRowMeta layout = new RowMeta();
    layout.addValueMeta(new ValueMetaString("event_time"));
    List<Object[]> rows = new ArrayList<>();
    for (String t : A.times()) {
      rows.add(new Object[] {t});
    }
    LocalRun.Result r = new LocalRun(new PipelineBuilder("example-a")
        .injector("in", layout).transform("window", w).dummy("out")
        .hop("in", "window").hop("window", "out").build())
        .inject("in", layout, rows).run("out");
    assertThat(r.errors()).isZero();
    assertThat(r.layout("out").getFieldNames()).containsExactly("window_start", "window_end", "events");
    Stats stats = ((EventTimeWindowData) r.pipeline().getTransform("window", 0).getData()).processor().stats();
    assertThat(stats).isEqualTo(c.stats());
    return r;
  }

  @Test
  void exampleA_tumbling() throws Exception {
    assertThat(Rows.text(exampleA(A.tumbling()).rows("out"))).isEqualTo(A.tumbling().texts());
  }

  @Test
  void exampleA_hopping() throws Exception {
    assertThat(Rows.text(exampleA(A.hopping()).rows("out"))).isEqualTo(A.hopping().texts());
  }

  @Test
  void exampleA_session() throws Exception {
    assertThat(Rows.text(exampleA(A.session()).rows("out"))).isEqualTo(A.session().texts());
  }

  /** Example C: times as Timestamps, amounts as Integers, by merchant, delay 0, policy window. */
  private static LocalRun.Result exampleC(Case c, WindowAggregate... aggs) throws Exception {
    EventTimeWindowMeta w = window(C, c);
    w.setGroupFields(List.of(new GroupField(C.keyField())));
    w.setAggregates(List.of(aggs));
    IRowMeta layout = new RowMeta();
    layout.addValueMeta(new ValueMetaString("merchant"));
    layout.addValueMeta(new ValueMetaInteger("amount"));
    layout.addValueMeta(new ValueMetaTimestamp("event_time"));
    List<Object[]> rows = C.rows().stream()
        .map(r -> new Object[] {r[0], r[1], new Timestamp(WorkedExamples.millis((String) r[2]))}).toList();
    LocalRun.Result r = new LocalRun(new PipelineBuilder("example-c")
        .injector("in", layout).transform("window", w).dummy("out")
        .hop("in", "window").hop("window", "out").build())
        .inject("in", layout, rows).run("out");
    assertThat(r.errors()).isZero();
    Stats stats = ((EventTimeWindowData) r.pipeline().getTransform("window", 0).getData()).processor().stats();
    assertThat(stats).isEqualTo(c.stats());
    return r;
  }

  @Test
  void exampleC_tumblingByMerchant_countAndSum() throws Exception {
    LocalRun.Result r = exampleC(C.tumbling(),
        new WindowAggregate(null, "count", "events"), new WindowAggregate("amount", "sum", "total"));
    assertThat(r.layout("out").getFieldNames()).containsExactly("merchant", "window_start", "window_end", "events", "total");
    assertThat(r.layout("out").getValueMeta(4).getTypeDesc()).isEqualTo("Integer");
    assertThat(Rows.text(r.rows("out"))).isEqualTo(C.tumbling().texts());
  }

  @Test
  void exampleC_hoppingByMerchant_count() throws Exception {
    LocalRun.Result r = exampleC(C.hopping(), new WindowAggregate(null, "count", "events"));
    assertThat(Rows.text(r.rows("out"))).isEqualTo(C.hopping().texts());
  }

  @Test
  void exampleC_sessionByMerchant_count() throws Exception {
    LocalRun.Result r = exampleC(C.session(), new WindowAggregate(null, "count", "events"));
    assertThat(Rows.text(r.rows("out"))).isEqualTo(C.session().texts());
  }
}
