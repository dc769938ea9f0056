package io.eventtime.hop.window;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.core.Stats;
import io.eventtime.hop.HopTestEnvironment;
import io.eventtime.hop.LocalRun;
import io.eventtime.hop.PipelineBuilder;
import io.eventtime.hop.Rows;
import java.math.BigDecimal;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import org.apache.hop.core.row.IRowMeta;
import org.apache.hop.core.row.IValueMeta;
import org.apache.hop.core.row.RowMeta;
import org.apache.hop.core.row.value.ValueMetaBigNumber;
import org.apache.hop.core.row.value.ValueMetaDate;
import org.apache.hop.core.row.value.ValueMetaInteger;
import org.apache.hop.core.row.value.ValueMetaNumber;
import org.apache.hop.core.row.value.ValueMetaString;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The window transform on the local engine beyond the contract's examples: streaming emission,
 * late target, error handling, metrics, variables, time types, every aggregate, the idle timeout.
 */
class WindowBehaviourTest {
  private static final long MIN = 60_000L;
  private static final long T0 = LocalDateTime.parse("2026-03-01T00:00:00").toInstant(ZoneOffset.UTC).toEpochMilli();

  @BeforeAll
  static void hop() {
    HopTestEnvironment.init();
  }

  private static IRowMeta layout(IValueMeta... fields) {
    IRowMeta m = new RowMeta();
    for (IValueMeta f : fields) {
      m.addValueMeta(f);
    }
    return m;
  }

  private static EventTimeWindowMeta tumbling(String size, WindowAggregate... aggs) {
    EventTimeWindowMeta w = new EventTimeWindowMeta();
    w.setDefault();
    w.setWindowKind("tumbling");
    w.setWindowSize(size);
    w.setAggregates(List.of(aggs));
    return w;
  }

  private static EventTimeWindowData data(LocalRun.Result r) {
    return (EventTimeWindowData) r.pipeline().getTransform("window", 0).getData();
  }

  @Test
  void windowsAreSentAsSoonAsTheWatermarkClosesThemAndOnlyOpenWindowsAreKept() throws Exception {
    EventTimeWindowMeta w = tumbling("1 MINUTE", new WindowAggregate(null, "count", "n"));
    IRowMeta in = layout(new ValueMetaInteger("event_time"));
    LocalRun.Started run = new LocalRun(new PipelineBuilder("streaming").injector("in", in).transform("window", w)
        .dummy("out").hop("in", "window").hop("window", "out").build()).inject("in", in, List.of()).start("out");
    run.put(T0 + 1_000L).put(T0 + 2_000L);
    run.put(T0 + MIN + 5_000L);
    run.await("the first window, before the input ends", Duration.ofSeconds(20),
        () -> run.result().rows("out").size() == 1);
    assertThat(Rows.text(run.result().rows("out"))).containsExactly("2026-03-01 00:00:00|2026-03-01 00:01:00|2");

    for (int i = 2; i < 2_000; i++) {
      run.put(T0 + i * MIN);
    }
    run.await("1,999 windows closed", Duration.ofSeconds(30), () -> run.result().rows("out").size() == 1_999);
    EventTimeWindowData data = data(run.result());
    synchronized (data.lock) {
      assertThat(data.processor.openWindowCount()).isEqualTo(1);
    }
    LocalRun.Result r = run.finish();
    assertThat(r.rows("out")).hasSize(2_000);
    assertThat(r.errors()).isZero();
  }

  @Test
  void lateRowsGoToTheLateTargetWithTheReasonAndMetricsCountEveryRow() throws Exception {
    EventTimeWindowMeta w = new EventTimeWindowMeta();
    w.setDefault();
    w.setWindowKind("hopping");
    w.setWindowSize("10 MINUTES");
    w.setWindowSlide("5 MINUTES");
    w.setAggregates(List.of(new WindowAggregate(null, "count", "n"), new WindowAggregate("id", "first", "first_id")));
    w.setLateTargetTransform("late");
    w.setLateReasonField("why");
    IRowMeta in = layout(new ValueMetaInteger("id"), new ValueMetaString("event_time"));
    LocalRun.Result r = new LocalRun(new PipelineBuilder("late").injector("in", in).transform("window", w)
        .dummy("out").dummy("late").hop("in", "window").hop("window", "out").hop("window", "late").build())
        .inject("in", in, List.of(
            new Object[] {1L, "2026-03-01 00:01:00"},
            new Object[] {2L, "2026-03-01 00:12:00"},
            // watermark 00:12: [23:55, 00:05) and [00:00, 00:10) are closed, [00:05, 00:15) is open
            new Object[] {3L, "2026-03-01 00:07:00"},
            new Object[] {4L, "2026-03-01 00:03:00"},
            new Object[] {5L, "2026-03-01 00:13:00"}))
        .run("out", "late");
    assertThat(r.errors()).isZero();
    assertThat(Rows.text(r.rows("late"))).containsExactly("4|2026-03-01 00:03:00|every window of event time"
        + " 2026-03-01 00:03:00 had closed at watermark 2026-03-01 00:12:00 (late policy window)");
    assertThat(r.layout("late").getFieldNames()).containsExactly("id", "event_time", "why");
    assertThat(Rows.text(r.rows("out"))).containsExactly(
        "2026-02-28 23:55:00|2026-03-01 00:05:00|1|1",
        "2026-03-01 00:00:00|2026-03-01 00:10:00|1|1",
        "2026-03-01 00:05:00|2026-03-01 00:15:00|3|2",
        "2026-03-01 00:10:00|2026-03-01 00:20:00|2|2");
    assertThat(data(r).processor().stats()).isEqualTo(new Stats(5, 4, 1, 4, 4, 0));
    assertThat(r.metric("window", LocalRun.READ)).isEqualTo(5);
    assertThat(r.metric("window", LocalRun.WRITTEN)).isEqualTo(4 + 1);
    assertThat(r.metric("window", LocalRun.REJECTED)).isZero();
    assertThat(data(r).lateToTarget).isEqualTo(1);
  }

  @Test
  void rowsWithoutAReadableTimeGoToErrorHandlingWithTheFieldAndReason() throws Exception {
    EventTimeWindowMeta w = tumbling("10 MINUTES", new WindowAggregate(null, "count", "n"));
    IRowMeta in = layout(new ValueMetaString("user"), new ValueMetaString("event_time"));
    LocalRun.Result r = new LocalRun(new PipelineBuilder("rejected").injector("in", in).transform("window", w)
        .dummy("out").dummy("errors").hop("in", "window").hop("window", "out").errorHop("window", "errors").build())
        .inject("in", in, List.of(
            new Object[] {"ann", "2026-03-01 00:01:00"},
            new Object[] {"bob", "yesterday"},
            new Object[] {"cat", null},
            new Object[] {"dan", "2026-03-01 00:02:00"}))
        .run("out", "errors");
    assertThat(r.errors()).isZero();
    assertThat(Rows.text(r.rows("out"))).containsExactly("2026-03-01 00:00:00|2026-03-01 00:10:00|2");
    assertThat(r.layout("errors").getFieldNames())
        .containsExactly("user", "event_time", "error_count", "error_description", "error_field", "error_code");
    assertThat(Rows.text(r.rows("errors"))).containsExactly(
        "bob|yesterday|1|field 'event_time': 'yesterday' is not a time in ISO-8601 form (e.g. 2026-07-18 10:00:03"
            + " or 2026-07-18T10:00:03Z)|event_time|EVENTTIME-REJECTED",
        "cat|null|1|field 'event_time': the time is null|event_time|EVENTTIME-REJECTED");
    assertThat(data(r).processor().stats()).isEqualTo(new Stats(4, 1, 0, 1, 2, 2));
    assertThat(r.metric("window", LocalRun.REJECTED)).isEqualTo(2);
  }

  @Test
  void withoutErrorHandlingRejectedRowsAreCountedAndTheRunGoesOn() throws Exception {
    EventTimeWindowMeta w = tumbling("10 MINUTES", new WindowAggregate(null, "count", "n"));
    IRowMeta in = layout(new ValueMetaString("event_time"));
    LocalRun.Result r = new LocalRun(new PipelineBuilder("rejected").injector("in", in).transform("window", w)
        .dummy("out").hop("in", "window").hop("window", "out").build())
        .inject("in", in, List.of(new Object[] {"2026-03-01 00:01:00"}, new Object[] {"soon"}))
        .run("out");
    assertThat(r.errors()).isZero();
    assertThat(Rows.text(r.rows("out"))).containsExactly("2026-03-01 00:00:00|2026-03-01 00:10:00|1");
    assertThat(r.metric("window", LocalRun.REJECTED)).isEqualTo(1);
    assertThat(data(r).processor().stats().balanced()).isTrue();
  }

  @Test
  void variablesWorkInEveryTextSetting() throws Exception {
    EventTimeWindowMeta w = new EventTimeWindowMeta();
    w.setTimeField("${TIME}");
    w.setTimeFormat("${FORMAT}");
    w.setEpochUnit("${UNIT}");
    w.setTimeZone("${ZONE}");
    w.setWindowKind("${KIND}");
    w.setWindowSize("${SIZE}");
    w.setWindowOffset("${OFFSET}");
    w.setGroupFields(List.of(new GroupField("${KEY}")));
    w.setAggregates(List.of(new WindowAggregate("${VALUE}", "${AGG}", "${OUT}")));
    w.setWindowStartField("${START}");
    w.setWindowEndField("${END}");
    w.setWatermarkDelay("${DELAY}");
    w.setLatePolicy("${POLICY}");
    w.setLateReasonField("${REASON}");
    IRowMeta in = layout(new ValueMetaString("k"), new ValueMetaInteger("v"), new ValueMetaString("t"));
    LocalRun.Result r = new LocalRun(new PipelineBuilder("variables").injector("in", in).transform("window", w)
        .dummy("out").hop("in", "window").hop("window", "out").build())
        .variable("TIME", "t").variable("FORMAT", "dd/MM/yyyy HH:mm").variable("UNIT", "seconds")
        .variable("ZONE", "Europe/Paris").variable("KIND", "tumbling").variable("SIZE", "1 HOUR")
        .variable("OFFSET", "30 MINUTES").variable("KEY", "k").variable("VALUE", "v").variable("AGG", "sum")
        .variable("OUT", "total").variable("START", "from").variable("END", "to").variable("DELAY", "0 s")
        .variable("POLICY", "event").variable("REASON", "why")
        .inject("in", in, List.of(new Object[] {"a", 1L, "01/03/2026 10:40"}, new Object[] {"a", 2L, "01/03/2026 11:20"},
            new Object[] {"a", 4L, "01/03/2026 11:31"}))
        .run("out");
    assertThat(r.errors()).isZero();
    assertThat(r.layout("out").getFieldNames()).containsExactly("k", "from", "to", "total");
    // Paris is UTC+1 in March: 10:40 there is 09:40 UTC; hours start at half past
    assertThat(Rows.text(r.rows("out"))).containsExactly(
        "a|2026-03-01 09:30:00|2026-03-01 10:30:00|3",
        "a|2026-03-01 10:30:00|2026-03-01 11:30:00|4");
  }

  @Test
  void timesAsEpochNumbersDatesAndWholeNumbers() throws Exception {
    Object[][] cases = {
        {new ValueMetaInteger("t"), "milliseconds", T0 + 61_000L},
        {new ValueMetaInteger("t"), "seconds", T0 / 1000 + 61},
        {new ValueMetaNumber("t"), "milliseconds", (double) (T0 + 61_000L)},
        {new ValueMetaBigNumber("t"), "seconds", BigDecimal.valueOf(T0 / 1000 + 61)},
        {new ValueMetaDate("t"), null, new Date(T0 + 61_000L)},
    };
    for (Object[] c : cases) {
      EventTimeWindowMeta w = tumbling("1 MINUTE", new WindowAggregate(null, "count", "n"));
      w.setTimeField("t");
      w.setEpochUnit((String) c[1]);
      IRowMeta in = layout((IValueMeta) c[0]);
      LocalRun.Result r = new LocalRun(new PipelineBuilder("types").injector("in", in).transform("window", w)
          .dummy("out").hop("in", "window").hop("window", "out").build())
          .inject("in", in, List.<Object[]>of(new Object[] {c[2]})).run("out");
      assertThat(Rows.text(r.rows("out"))).as(((IValueMeta) c[0]).getTypeDesc() + " " + c[1])
          .containsExactly("2026-03-01 00:01:00|2026-03-01 00:02:00|1");
    }
  }

  @Test
  void everyAggregateKeepsItsHopType() throws Exception {
    EventTimeWindowMeta w = tumbling("1 HOUR",
        new WindowAggregate(null, "count", "rows"),
        new WindowAggregate("amount", "count", "amounts"),
        new WindowAggregate("user", "count distinct", "users"),
        new WindowAggregate("amount", "sum", "total"),
        new WindowAggregate("price", "sum", "price_total"),
        new WindowAggregate("price", "min", "cheapest"),
        new WindowAggregate("price", "max", "dearest"),
        new WindowAggregate("amount", "avg", "mean"),
        new WindowAggregate("user", "first", "first_user"),
        new WindowAggregate("user", "last", "last_user"),
        new WindowAggregate("seen", "min", "first_seen"),
        new WindowAggregate("exact", "max", "exact_max"));
    w.setTimeField("event_time");
    IRowMeta in = layout(new ValueMetaString("user"), new ValueMetaInteger("amount"), new ValueMetaNumber("price"),
        new ValueMetaDate("seen"), new ValueMetaBigNumber("exact"), new ValueMetaString("event_time"));
    Date d1 = new Date(T0 + 5 * MIN);
    Date d2 = new Date(T0 + 2 * MIN);
    LocalRun.Result r = new LocalRun(new PipelineBuilder("aggregates").injector("in", in).transform("window", w)
        .dummy("out").hop("in", "window").hop("window", "out").build())
        .inject("in", in, List.of(
            new Object[] {"ann", 10L, 2.5, d1, new BigDecimal("1.25"), "2026-03-01 00:10:00"},
            new Object[] {"bob", null, 1.5, d2, new BigDecimal("7.5"), "2026-03-01 00:20:00"},
            new Object[] {"ann", 20L, 4.0, null, null, "2026-03-01 00:30:00"}))
        .run("out");
    assertThat(r.errors()).isZero();
    IRowMeta out = r.layout("out");
    assertThat(out.getFieldNames()).containsExactly("window_start", "window_end", "rows", "amounts", "users", "total",
        "price_total", "cheapest", "dearest", "mean", "first_user", "last_user", "first_seen", "exact_max");
    assertThat(out.getValueMetaList().stream().map(IValueMeta::getTypeDesc).toList()).containsExactly("Timestamp",
        "Timestamp", "Integer", "Integer", "Integer", "Integer", "Number", "Number", "Number", "Number", "String",
        "String", "Date", "BigNumber");
    assertThat(Rows.text(r.rows("out"))).containsExactly("2026-03-01 00:00:00|2026-03-01 01:00:00|3|2|2|30|8.0|1.5"
        + "|4.0|15.0|ann|ann|2026-03-01 00:02:00|7.5");
    assertThat(r.rows("out").get(0)[1]).isInstanceOf(Timestamp.class);
  }

  @Test
  void theIdleTimeoutClosesWindowsByTheWallClockWhenRowsStop() throws Exception {
    EventTimeWindowMeta w = tumbling("1 SECOND", new WindowAggregate(null, "count", "n"));
    w.setIdleTimeout("200 MILLISECONDS");
    IRowMeta in = layout(new ValueMetaInteger("event_time"));
    LocalRun.Started run = new LocalRun(new PipelineBuilder("idle").injector("in", in).transform("window", w)
        .dummy("out").hop("in", "window").hop("window", "out").build()).inject("in", in, List.of()).start("out");
    run.put(T0 + 100L).put(T0 + 300L);
    // no row comes after these: the window [0 s, 1 s) closes once about a second of wall clock has passed
    run.await("the window closed by the idle timeout", Duration.ofSeconds(20), () -> run.result().rows("out").size() == 1);
    assertThat(Rows.text(run.result().rows("out"))).containsExactly("2026-03-01 00:00:00|2026-03-01 00:00:01|2");
    // the contract's rule: the watermark is now the wall clock (December) less the delay, so a row of March is late,
    // a minute after the others too (a watermark moved on by the idle time alone would have kept that one)
    run.put(T0 + 500L).put(T0 + MIN);
    LocalRun.Result r = run.finish();
    assertThat(r.rows("out")).hasSize(1);
    assertThat(data(r).processor().stats()).extracting(Stats::rowsIn, Stats::lateDropped).containsExactly(4L, 2L);
    assertThat(data(r).processor().lateReason(0, T0 + MIN)).startsWith("every window of event time 2026-03-01 00:01:00"
        + " had closed at watermark ").contains("set by the idle timeout after the stream had no row for 200 ms");
  }

  /**
   * With a partition field each partition is idle on its own (the contract's L5): a partition that
   * never has a row holds every window back until the idle timeout lets its watermark go to the
   * wall clock; then the other partition's watermark closes the window, while the run goes on.
   */
  @Test
  void withAPartitionFieldAQuietPartitionStopsHoldingWindowsBackAfterTheIdleTimeout() throws Exception {
    EventTimeWindowMeta w = tumbling("1 SECOND", new WindowAggregate(null, "count", "n"));
    w.setPartitionField("p");
    w.setPartitions("2");
    w.setIdleTimeout("300 MILLISECONDS");
    IRowMeta in = layout(new ValueMetaInteger("p"), new ValueMetaInteger("event_time"));
    LocalRun.Started run = new LocalRun(new PipelineBuilder("idle-partition").injector("in", in).transform("window", w)
        .dummy("out").hop("in", "window").hop("window", "out").build()).inject("in", in, List.of()).start("out");
    run.put(0L, T0 + 100L).put(0L, T0 + 1_500L);
    // partition 0 goes quiet too, a few milliseconds after partition 1, and then closes the second window: the
    // same tick of the idle watch may emit both, so the first window is awaited, not a moment with it alone
    run.await("the window closed once partition 1 was idle", Duration.ofSeconds(20),
        () -> !run.result().rows("out").isEmpty());
    assertThat(Rows.text(run.result().rows("out"))).startsWith("2026-03-01 00:00:00|2026-03-01 00:00:01|1");
    LocalRun.Result r = run.finish();
    assertThat(Rows.text(r.rows("out"))).containsExactly("2026-03-01 00:00:00|2026-03-01 00:00:01|1",
        "2026-03-01 00:00:01|2026-03-01 00:00:02|1");
  }

  @Test
  void withoutAnIdleTimeoutWindowsWaitForRows() throws Exception {
    EventTimeWindowMeta w = tumbling("1 SECOND", new WindowAggregate(null, "count", "n"));
    IRowMeta in = layout(new ValueMetaInteger("event_time"));
    LocalRun.Started run = new LocalRun(new PipelineBuilder("no-idle").injector("in", in).transform("window", w)
        .dummy("out").hop("in", "window").hop("window", "out").build()).inject("in", in, List.of()).start("out");
    run.put(T0 + 100L);
    Thread.sleep(1_500);
    assertThat(run.result().rows("out")).isEmpty();
    assertThat(run.finish().rows("out")).hasSize(1);
  }

  @Test
  void settingsComeFromTheDefaults() {
    EventTimeWindowMeta w = new EventTimeWindowMeta();
    w.setDefault();
    List<String> problems = new ArrayList<>();
    WindowSettings s = w.resolve(null, layout(new ValueMetaString("event_time")), problems);
    assertThat(problems).isEmpty();
    assertThat(s.query().toString()).contains("Tumbling[sizeMillis=60000, offsetMillis=0]", "delayMillis=0",
        "latePolicy=WINDOW");
    assertThat(s.idleTimeoutMillis()).isZero();
  }
}
