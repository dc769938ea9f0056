package io.eventtime.hop.stamp;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.hop.HopTestEnvironment;
import io.eventtime.hop.LocalRun;
import io.eventtime.hop.PipelineBuilder;
import io.eventtime.hop.Rows;
import io.eventtime.hop.window.EventTimeWindowMeta;
import io.eventtime.hop.window.WindowAggregate;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;
import org.apache.hop.core.ICheckResult;
import org.apache.hop.core.row.IRowMeta;
import org.apache.hop.core.row.RowMeta;
import org.apache.hop.core.row.value.ValueMetaString;
import org.apache.hop.core.variables.Variables;
import org.apache.hop.pipeline.PipelineMeta;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class EventTimeStampTest {

  @BeforeAll
  static void hop() {
    HopTestEnvironment.init();
  }

  private static IRowMeta input() {
    IRowMeta m = new RowMeta();
    m.addValueMeta(new ValueMetaString("id"));
    m.addValueMeta(new ValueMetaString("when"));
    return m;
  }

  private static final List<Object[]> ROWS = List.of(
      new Object[] {"a", "18/07/2026 12:00:03"},
      new Object[] {"b", "18.07.2026"},
      new Object[] {"c", null},
      new Object[] {"d", "18/07/2026 12:01:00"});

  @Test
  void replacesTheFieldWithATimestampAndSendsUnreadableRowsToErrorHandling() throws Exception {
    EventTimeStampMeta stamp = new EventTimeStampMeta();
    stamp.setDefault();
    stamp.setTimeField("when");
    stamp.setTimeFormat("dd/MM/yyyy HH:mm:ss");
    stamp.setTimeZone("Europe/Paris");
    IRowMeta in = input();
    LocalRun.Result r = new LocalRun(new PipelineBuilder("stamp").injector("in", in).transform("stamp", stamp)
        .dummy("out").dummy("errors").hop("in", "stamp").hop("stamp", "out").errorHop("stamp", "errors").build())
        .inject("in", in, ROWS).run("out", "errors");
    assertThat(r.errors()).isZero();
    assertThat(r.layout("out").getFieldNames()).containsExactly("id", "when");
    assertThat(r.layout("out").getValueMeta(1).getTypeDesc()).isEqualTo("Timestamp");
    assertThat(r.rows("out").get(0)[1]).isInstanceOf(Timestamp.class);
    // Paris is UTC+2 in July
    assertThat(Rows.text(r.rows("out"))).containsExactly("a|2026-07-18 10:00:03", "d|2026-07-18 10:01:00");
    assertThat(Rows.text(r.rows("errors"))).containsExactly(
        "b|18.07.2026|1|field 'when': '18.07.2026' is not a time in the pattern dd/MM/yyyy HH:mm:ss|when|EVENTTIME-REJECTED",
        "c|null|1|field 'when': the time is null|when|EVENTTIME-REJECTED");
    assertThat(r.metric("stamp", LocalRun.REJECTED)).isEqualTo(2);
  }

  @Test
  void writesANewFieldAndFeedsTheWindow() throws Exception {
    EventTimeStampMeta stamp = new EventTimeStampMeta();
    stamp.setDefault();
    stamp.setTimeField("when");
    stamp.setTimeFormat("dd/MM/yyyy HH:mm:ss");
    stamp.setOutputField("event_time");
    EventTimeWindowMeta w = new EventTimeWindowMeta();
    w.setDefault();
    w.setAggregates(List.of(new WindowAggregate(null, "count", "n"), new WindowAggregate("id", "last", "last_id")));
    IRowMeta in = input();
    LocalRun.Result r = new LocalRun(new PipelineBuilder("stamp-window").injector("in", in).transform("stamp", stamp)
        .transform("window", w).dummy("stamped").dummy("out")
        .hop("in", "stamp").hop("stamp", "stamped").hop("stamped", "window").hop("window", "out").build())
        .inject("in", in, ROWS).run("stamped", "out");
    assertThat(r.layout("stamped").getFieldNames()).containsExactly("id", "when", "event_time");
    assertThat(Rows.text(r.rows("stamped"))).containsExactly("a|18/07/2026 12:00:03|2026-07-18 12:00:03",
        "d|18/07/2026 12:01:00|2026-07-18 12:01:00");
    assertThat(Rows.text(r.rows("out"))).containsExactly("2026-07-18 12:00:00|2026-07-18 12:01:00|1|a",
        "2026-07-18 12:01:00|2026-07-18 12:02:00|1|d");
    assertThat(r.metric("stamp", LocalRun.REJECTED)).isEqualTo(2);
  }

  @Test
  void checkReportsBadSettings() {
    EventTimeStampMeta stamp = new EventTimeStampMeta();
    stamp.setDefault();
    stamp.setTimeField("ts");
    stamp.setTimeFormat("yyyy-MM-dd bb");
    stamp.setEpochUnit("minutes");
    stamp.setOutputField("id");
    PipelineMeta p = new PipelineBuilder("check").transform("stamp", stamp).build();
    List<ICheckResult> remarks = new ArrayList<>();
    stamp.check(remarks, p, p.findTransform("stamp"), input(), new String[] {"in"}, new String[0], null,
        new Variables(), null);
    assertThat(remarks.stream().filter(c -> c.getType() == ICheckResult.TYPE_RESULT_ERROR).map(ICheckResult::getText))
        .containsExactlyInAnyOrder(
            "Time field: the field 'ts' is not in the input: pick one of id, when",
            "Time format: the time pattern 'yyyy-MM-dd bb' is not valid (Unknown pattern letter: b):"
                + " write it as java.time.format.DateTimeFormatter does, e.g. yyyy-MM-dd HH:mm:ss",
            "Epoch unit: unknown epoch unit 'minutes': use milliseconds or seconds",
            "Output field: 'id' is already an input field: leave it blank to replace the time field, or give a new name");
  }

  @Test
  void checkReportsAStampWithoutInput() {
    EventTimeStampMeta stamp = new EventTimeStampMeta();
    stamp.setDefault();
    PipelineMeta p = new PipelineBuilder("check").transform("stamp", stamp).build();
    List<ICheckResult> remarks = new ArrayList<>();
    stamp.check(remarks, p, p.findTransform("stamp"), null, new String[0], new String[0], null, new Variables(), null);
    assertThat(remarks.stream().filter(c -> c.getType() == ICheckResult.TYPE_RESULT_ERROR).map(ICheckResult::getText))
        .containsExactly("No input: connect a transform that sends the rows to stamp");
  }
}
