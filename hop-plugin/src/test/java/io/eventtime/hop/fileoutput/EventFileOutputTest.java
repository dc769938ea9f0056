package io.eventtime.hop.fileoutput;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.hop.HopTestEnvironment;
import io.eventtime.hop.LocalRun;
import io.eventtime.hop.PipelineBuilder;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import org.apache.hop.core.ICheckResult;
import org.apache.hop.core.row.IRowMeta;
import org.apache.hop.core.row.RowMeta;
import org.apache.hop.core.row.value.ValueMetaBigNumber;
import org.apache.hop.core.row.value.ValueMetaBoolean;
import org.apache.hop.core.row.value.ValueMetaDate;
import org.apache.hop.core.row.value.ValueMetaInteger;
import org.apache.hop.core.row.value.ValueMetaNumber;
import org.apache.hop.core.row.value.ValueMetaString;
import org.apache.hop.core.row.value.ValueMetaTimestamp;
import org.apache.hop.core.variables.Variables;
import org.apache.hop.pipeline.PipelineMeta;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EventFileOutputTest {
  private static final long T = 1_784_368_803_250L; // 2026-07-18 10:00:03.250 UTC

  @TempDir
  Path dir;

  @BeforeAll
  static void hop() {
    HopTestEnvironment.init();
  }

  private static IRowMeta layout() {
    IRowMeta m = new RowMeta();
    m.addValueMeta(new ValueMetaString("name"));
    m.addValueMeta(new ValueMetaInteger("n"));
    m.addValueMeta(new ValueMetaNumber("x"));
    m.addValueMeta(new ValueMetaBigNumber("exact"));
    m.addValueMeta(new ValueMetaBoolean("ok"));
    m.addValueMeta(new ValueMetaTimestamp("at"));
    m.addValueMeta(new ValueMetaDate("day"));
    return m;
  }

  private static final List<Object[]> ROWS = List.of(
      new Object[] {"a \"quoted\", name", 1L, 2.5, new BigDecimal("10.125"), true, new Timestamp(T), new Date(T - 3_250L)},
      new Object[] {null, null, null, null, null, null, null});

  private LocalRun.Result write(EventFileOutputMeta out) throws Exception {
    IRowMeta in = layout();
    return new LocalRun(new PipelineBuilder("write").injector("in", in).transform("write", out).dummy("after")
        .hop("in", "write").hop("write", "after").build()).variable("DIR", dir.toString())
        .inject("in", in, ROWS).run("after");
  }

  @Test
  void ndjsonLinesKeepTheTypesAndRowsPassOn() throws Exception {
    EventFileOutputMeta out = new EventFileOutputMeta();
    out.setDefault();
    out.setFilename("${DIR}/sub/folder/rows.ndjson");
    LocalRun.Result r = write(out);
    assertThat(r.errors()).isZero();
    assertThat(Files.readAllLines(dir.resolve("sub/folder/rows.ndjson"))).containsExactly(
        "{\"name\":\"a \\\"quoted\\\", name\",\"n\":1,\"x\":2.5,\"exact\":10.125,\"ok\":true,"
            + "\"at\":\"2026-07-18 10:00:03.250\",\"day\":\"2026-07-18 10:00:00\"}",
        "{\"name\":null,\"n\":null,\"x\":null,\"exact\":null,\"ok\":null,\"at\":null,\"day\":null}");
    assertThat(r.rows("after")).hasSize(2);
    assertThat(r.metric("write", LocalRun.OUTPUT)).isEqualTo(2);
  }

  @Test
  void csvWithAHeaderTheChosenFieldsAndAppending() throws Exception {
    EventFileOutputMeta out = new EventFileOutputMeta();
    out.setDefault();
    out.setFilename("${DIR}/rows.csv");
    out.setFormat("csv");
    out.setCsvDelimiter(";");
    out.setFields(List.of(new OutputField("at"), new OutputField("name"), new OutputField("exact")));
    write(out);
    assertThat(Files.readAllLines(dir.resolve("rows.csv"))).containsExactly(
        "at;name;exact",
        "2026-07-18 10:00:03.250;\"a \"\"quoted\"\", name\";10.125",
        ";;");
    out.setAppend(true);
    write(out);
    assertThat(Files.readAllLines(dir.resolve("rows.csv"))).hasSize(5).last().isEqualTo(";;");
  }

  @Test
  void aRunWithoutRowsStillWritesTheFile() throws Exception {
    EventFileOutputMeta out = new EventFileOutputMeta();
    out.setDefault();
    out.setFilename("${DIR}/empty.csv");
    out.setFormat("csv");
    IRowMeta in = layout();
    new LocalRun(new PipelineBuilder("empty").injector("in", in).transform("write", out).hop("in", "write").build())
        .variable("DIR", dir.toString()).inject("in", in, List.of()).run();
    assertThat(Files.readAllLines(dir.resolve("empty.csv"))).containsExactly("name,n,x,exact,ok,at,day");
  }

  @Test
  void checkReportsBadSettings() {
    EventFileOutputMeta out = new EventFileOutputMeta();
    out.setDefault();
    out.setFormat("parquet");
    out.setFields(List.of(new OutputField("nope")));
    PipelineMeta p = new PipelineBuilder("check").transform("write", out).build();
    List<ICheckResult> remarks = new ArrayList<>();
    out.check(remarks, p, p.findTransform("write"), layout(), new String[] {"in"}, new String[0], null,
        new Variables(), null);
    assertThat(remarks.stream().filter(c -> c.getType() == ICheckResult.TYPE_RESULT_ERROR).map(ICheckResult::getText))
        .containsExactlyInAnyOrder(
            "File name: missing: give the file to write, e.g. ${java.io.tmpdir}/windows.ndjson",
            "Format: 'parquet' is unknown: choose ndjson or csv",
            "Field 1: the field 'nope' is not in the input: pick one of name, n, x, exact, ok, at, day");
  }

  @Test
  void checkReportsAnOutputWithoutInputAndABadDelimiter() {
    EventFileOutputMeta out = new EventFileOutputMeta();
    out.setDefault();
    out.setFilename("/tmp/windows.csv");
    out.setFormat("csv");
    out.setCsvDelimiter("::");
    PipelineMeta p = new PipelineBuilder("check").transform("write", out).build();
    List<ICheckResult> remarks = new ArrayList<>();
    out.check(remarks, p, p.findTransform("write"), null, new String[0], new String[0], null, new Variables(), null);
    assertThat(remarks.stream().filter(c -> c.getType() == ICheckResult.TYPE_RESULT_ERROR).map(ICheckResult::getText))
        .containsExactlyInAnyOrder(
            "No input: connect the transform whose rows to write",
            "CSV delimiter: '::' is not one character: give one, e.g. , or ; or \\t");
  }
}
