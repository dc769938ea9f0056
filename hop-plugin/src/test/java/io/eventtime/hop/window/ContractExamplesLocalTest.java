package io.eventtime.hop.window;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.core.Stats;
import io.eventtime.hop.HopTestEnvironment;
import io.eventtime.hop.LocalRun;
import io.eventtime.hop.PipelineBuilder;
import io.eventtime.hop.Rows;
import java.sql.Timestamp;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
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
 * The contract's worked examples A and C through pipelines built in code (Injector, Event Time
 * Window, Dummy), on Hop's local engine, to the row.
 */
class ContractExamplesLocalTest {

  @BeforeAll
  static void hop() {
    HopTestEnvironment.init();
  }

  private static final String[] EXAMPLE_A = {"00:01", "00:04", "00:08", "00:12", "00:05", "00:11", "00:30", "00:34"};

  /** Example A: event times as Strings, delay 5 minutes, policy event, count(*). */
  private static LocalRun.Result exampleA(String kind, String size, String slide) throws Exception {
    EventTimeWindowMeta w = new EventTimeWindowMeta();
    w.setDefault();
    w.setTimeField("event_time");
    w.setWindowKind(kind);
    w.setWindowSize(size);
    w.setWindowSlide(slide);
    w.setSessionGap(size);
    w.setWatermarkDelay("5 MINUTE");
    w.setLatePolicy("event");
    w.setAggregates(List.of(new WindowAggregate(null, "count", "events")));
    IRowMeta layout = new RowMeta();
    layout.addValueMeta(new ValueMetaString("event_time"));
    List<Object[]> rows = new ArrayList<>();
    for (String t : EXAMPLE_A) {
      rows.add(new Object[] {"2026-03-01 " + t + ":00"});
    }
    LocalRun.Result r = new LocalRun(new PipelineBuilder("example-a")
        .injector("in", layout).transform("window", w).dummy("out")
        .hop("in", "window").hop("window", "out").build())
        .inject("in", layout, rows).run("out");
    assertThat(r.errors()).isZero();
    assertThat(r.layout("out").getFieldNames()).containsExactly("window_start", "window_end", "events");
    Stats stats = ((EventTimeWindowData) r.pipeline().getTransform("window", 0).getData()).processor().stats();
    assertThat(stats).extracting(Stats::rowsIn, Stats::rowsFolded, Stats::lateDropped, Stats::rowsRejected)
        .containsExactly(8L, 7L, 1L, 0L);
    return r;
  }

  @Test
  void exampleA_tumbling() throws Exception {
    assertThat(Rows.text(exampleA("tumbling", "10 MINUTE", null).rows("out"))).containsExactly(
        "2026-03-01 00:00:00|2026-03-01 00:10:00|3",
        "2026-03-01 00:10:00|2026-03-01 00:20:00|2",
        "2026-03-01 00:30:00|2026-03-01 00:40:00|2");
  }

  @Test
  void exampleA_hopping() throws Exception {
    assertThat(Rows.text(exampleA("hopping", "10 MINUTE", "5 MINUTE").rows("out"))).containsExactly(
        "2026-02-28 23:55:00|2026-03-01 00:05:00|2",
        "2026-03-01 00:00:00|2026-03-01 00:10:00|3",
        "2026-03-01 00:05:00|2026-03-01 00:15:00|3",
        "2026-03-01 00:10:00|2026-03-01 00:20:00|2",
        "2026-03-01 00:25:00|2026-03-01 00:35:00|2",
        "2026-03-01 00:30:00|2026-03-01 00:40:00|2");
  }

  @Test
  void exampleA_session() throws Exception {
    assertThat(Rows.text(exampleA("session", "5 MINUTE", null).rows("out"))).containsExactly(
        "2026-03-01 00:01:00|2026-03-01 00:17:00|5",
        "2026-03-01 00:30:00|2026-03-01 00:39:00|2");
  }

  private static Timestamp at(String time) {
    return Timestamp.from(LocalDateTime.parse("2026-07-18T" + time).toInstant(ZoneOffset.UTC));
  }

  /** Example C: times as Timestamps, amounts as Integers, by merchant, delay 0, policy window. */
  private static LocalRun.Result exampleC(String kind, String size, String slide, WindowAggregate... aggs)
      throws Exception {
    EventTimeWindowMeta w = new EventTimeWindowMeta();
    w.setDefault();
    w.setWindowKind(kind);
    w.setWindowSize(size);
    w.setWindowSlide(slide);
    w.setSessionGap(size);
    w.setGroupFields(List.of(new GroupField("merchant")));
    w.setAggregates(List.of(aggs));
    IRowMeta layout = new RowMeta();
    layout.addValueMeta(new ValueMetaString("merchant"));
    layout.addValueMeta(new ValueMetaInteger("amount"));
    layout.addValueMeta(new ValueMetaTimestamp("event_time"));
    List<Object[]> rows = List.of(
        new Object[] {"acme", 250L, at("10:00:03")},
        new Object[] {"globex", 42L, at("10:00:07")},
        new Object[] {"acme", 980L, at("10:01:12")},
        new Object[] {"acme", 110L, at("10:01:48")},
        new Object[] {"globex", 7L, at("10:02:20")});
    LocalRun.Result r = new LocalRun(new PipelineBuilder("example-c")
        .injector("in", layout).transform("window", w).dummy("out")
        .hop("in", "window").hop("window", "out").build())
        .inject("in", layout, rows).run("out");
    assertThat(r.errors()).isZero();
    return r;
  }

  @Test
  void exampleC_tumblingByMerchant_countAndSum() throws Exception {
    LocalRun.Result r = exampleC("tumbling", "1 MINUTE", null,
        new WindowAggregate(null, "count", "events"), new WindowAggregate("amount", "sum", "total"));
    assertThat(r.layout("out").getFieldNames()).containsExactly("merchant", "window_start", "window_end", "events", "total");
    assertThat(r.layout("out").getValueMeta(4).getTypeDesc()).isEqualTo("Integer");
    assertThat(Rows.text(r.rows("out"))).containsExactly(
        "acme|2026-07-18 10:00:00|2026-07-18 10:01:00|1|250",
        "globex|2026-07-18 10:00:00|2026-07-18 10:01:00|1|42",
        "acme|2026-07-18 10:01:00|2026-07-18 10:02:00|2|1090",
        "globex|2026-07-18 10:02:00|2026-07-18 10:03:00|1|7");
    Stats stats = ((EventTimeWindowData) r.pipeline().getTransform("window", 0).getData()).processor().stats();
    assertThat(stats).isEqualTo(new Stats(5, 4, 0, 3, 5, 0));
  }

  @Test
  void exampleC_hoppingByMerchant_count() throws Exception {
    LocalRun.Result r = exampleC("hopping", "1 MINUTE", "30 SECONDS", new WindowAggregate(null, "count", "events"));
    assertThat(Rows.text(r.rows("out"))).containsExactly(
        "acme|2026-07-18 09:59:30|2026-07-18 10:00:30|1",
        "globex|2026-07-18 09:59:30|2026-07-18 10:00:30|1",
        "acme|2026-07-18 10:00:00|2026-07-18 10:01:00|1",
        "globex|2026-07-18 10:00:00|2026-07-18 10:01:00|1",
        "acme|2026-07-18 10:00:30|2026-07-18 10:01:30|1",
        "acme|2026-07-18 10:01:00|2026-07-18 10:02:00|2",
        "acme|2026-07-18 10:01:30|2026-07-18 10:02:30|1",
        "globex|2026-07-18 10:01:30|2026-07-18 10:02:30|1",
        "globex|2026-07-18 10:02:00|2026-07-18 10:03:00|1");
  }

  @Test
  void exampleC_sessionByMerchant_count() throws Exception {
    LocalRun.Result r = exampleC("session", "1 MINUTE", null, new WindowAggregate(null, "count", "events"));
    assertThat(Rows.text(r.rows("out"))).containsExactly(
        "acme|2026-07-18 10:00:03|2026-07-18 10:01:03|1",
        "globex|2026-07-18 10:00:07|2026-07-18 10:01:07|1",
        "acme|2026-07-18 10:01:12|2026-07-18 10:02:48|2",
        "globex|2026-07-18 10:02:20|2026-07-18 10:03:20|1");
  }
}
