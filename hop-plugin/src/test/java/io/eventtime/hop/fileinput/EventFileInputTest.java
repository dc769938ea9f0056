package io.eventtime.hop.fileinput;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.eventtime.hop.HopTestEnvironment;
import io.eventtime.hop.LocalRun;
import io.eventtime.hop.PipelineBuilder;
import io.eventtime.hop.Rows;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hop.core.ICheckResult;
import org.apache.hop.core.exception.HopException;
import org.apache.hop.core.variables.Variables;
import org.apache.hop.pipeline.PipelineMeta;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EventFileInputTest {
  @TempDir
  Path dir;

  @BeforeAll
  static void hop() {
    HopTestEnvironment.init();
  }

  private static EventFileInputMeta input(String format, InputFile file, InputField... fields) {
    EventFileInputMeta m = new EventFileInputMeta();
    m.setDefault();
    m.setFormat(format);
    m.setFiles(List.of(file));
    m.setFields(List.of(fields));
    return m;
  }

  private static LocalRun.Result run(EventFileInputMeta m) throws HopException {
    return new LocalRun(new PipelineBuilder("read").transform("read", m).dummy("out").dummy("errors")
        .hop("read", "out").errorHop("read", "errors").build()).run("out", "errors");
  }

  @Test
  void ndjsonRowsComeInLineOrderWithTheirTypesAndLineNumbers() throws Exception {
    Files.writeString(dir.resolve("events.ndjson"), String.join("\n",
        "{\"user\":\"ann\",\"amount\":250,\"price\":2.5,\"ok\":true,\"event_time\":\"2026-07-18 10:00:03\",\"extra\":[1,2]}",
        "",
        "{\"user\":\"bob\",\"amount\":\"42\",\"event_time\":\"2026-07-18T10:00:07Z\"}",
        "{\"user\":\"cat\",\"amount\":\"lots\",\"event_time\":\"2026-07-18 10:00:09\"}",
        "{\"user\":\"dan\", oops}",
        "[1,2,3]",
        "{\"user\":\"eve\",\"amount\":7.0,\"price\":3,\"ok\":false,\"event_time\":1784368812000}") + "\n");
    EventFileInputMeta m = input("ndjson", new InputFile("${DIR}/events.ndjson", null),
        new InputField("user", "String", null), new InputField("amount", "Integer", null),
        new InputField("price", "Number", null), new InputField("ok", "Boolean", null),
        new InputField("event_time", "Timestamp", null));
    m.getFiles().get(0).setName(dir.resolve("events.ndjson").toString());
    m.setLineNumberField("line");
    LocalRun.Result r = run(m);
    assertThat(r.errors()).isZero();
    assertThat(r.layout("out").getFieldNames()).containsExactly("user", "amount", "price", "ok", "event_time", "line");
    assertThat(Rows.text(r.rows("out"))).containsExactly(
        "ann|250|2.5|true|2026-07-18 10:00:03|1",
        "bob|42|null|null|2026-07-18 10:00:07|3",
        "eve|7|3.0|false|2026-07-18 10:00:12|7");
    String file = dir.resolve("events.ndjson").toString();
    assertThat(Rows.text(r.rows("errors"))).containsExactly(
        "cat|null|null|null|null|4|1|" + file + " line 4: field 'amount': 'lots' is not an Integer|amount|EVENTTIME-UNREADABLE",
        "null|null|null|null|null|5|1|" + file + " line 5: malformed JSON: Unexpected character ('o' (code 111)): was"
            + " expecting double-quote to start field name||EVENTTIME-UNREADABLE",
        "null|null|null|null|null|6|1|" + file + " line 6: the line is not a JSON object (it starts with '[')||EVENTTIME-UNREADABLE");
    assertThat(r.metric("read", LocalRun.INPUT)).isEqualTo(6);
    assertThat(r.metric("read", LocalRun.REJECTED)).isEqualTo(3);
  }

  @Test
  void aFolderIsReadFileAfterFileInNameOrder() throws Exception {
    Path folder = Files.createDirectories(dir.resolve("in"));
    Files.writeString(folder.resolve("b.ndjson"), "{\"n\":3}\n{\"n\":4}\n");
    Files.writeString(folder.resolve("a.ndjson"), "{\"n\":1}\n{\"n\":2}\n");
    Files.writeString(folder.resolve("c.txt"), "{\"n\":99}\n");
    Files.writeString(folder.resolve("10.ndjson"), "{\"n\":0}\n");
    EventFileInputMeta m = input("ndjson", new InputFile("${IN}", ".*\\.ndjson"), new InputField("n", "Integer", null));
    m.setFilenameField("file");
    m.setLineNumberField("line");
    LocalRun.Result r = new LocalRun(new PipelineBuilder("folder").transform("read", m).dummy("out")
        .hop("read", "out").build()).variable("IN", folder.toString()).run("out");
    assertThat(r.errors()).isZero();
    assertThat(Rows.text(r.rows("out"))).containsExactly(
        "0|" + uri(folder.resolve("10.ndjson")) + "|1",
        "1|" + uri(folder.resolve("a.ndjson")) + "|1",
        "2|" + uri(folder.resolve("a.ndjson")) + "|2",
        "3|" + uri(folder.resolve("b.ndjson")) + "|1",
        "4|" + uri(folder.resolve("b.ndjson")) + "|2");
  }

  private static String uri(Path p) {
    return p.toAbsolutePath().toString();
  }

  @Test
  void csvWithAHeaderQuotesAndEmptyValues() throws Exception {
    Files.writeString(dir.resolve("events.csv"), String.join("\n",
        "merchant;note;amount;event_time",
        "acme;\"hello; world\";250;18/07/2026 10:00",
        "globex;\"two",
        "lines\";;18/07/2026 10:01",
        "",
        "initech;x;12a;18/07/2026 10:02",
        "umbrella;y;5;18/07/2026 10:03") + "\n");
    EventFileInputMeta m = input("csv", new InputFile(dir.resolve("events.csv").toString(), null),
        new InputField("event_time", "Timestamp", "dd/MM/yyyy HH:mm"), new InputField("merchant", "String", null),
        new InputField("amount", "Integer", null), new InputField("note", "String", null));
    m.setCsvDelimiter(";");
    m.setLineNumberField("line");
    LocalRun.Result r = run(m);
    assertThat(r.errors()).isZero();
    assertThat(Rows.text(r.rows("out"))).containsExactly(
        "2026-07-18 10:00:00|acme|250|hello; world|2",
        "2026-07-18 10:01:00|globex|null|two\nlines|3",
        "2026-07-18 10:03:00|umbrella|5|y|7");
    assertThat(r.rows("errors")).singleElement().satisfies(e ->
        assertThat(e[6].toString()).endsWith("events.csv line 6: field 'amount': '12a' is not an Integer"));
  }

  @Test
  void csvWithoutAHeaderIsReadByPosition() throws Exception {
    Files.writeString(dir.resolve("plain.csv"), "acme,1\nglobex,2\n");
    EventFileInputMeta m = input("csv", new InputFile(dir.resolve("plain.csv").toString(), null),
        new InputField("merchant", "String", null), new InputField("n", "Integer", null));
    m.setCsvHeader(false);
    assertThat(Rows.text(run(m).rows("out"))).containsExactly("acme|1", "globex|2");
    m.setLineNumberField("line"); // the first line is line 1 (Jackson gives it as line 0)
    assertThat(Rows.text(run(m).rows("out"))).containsExactly("acme|1|1", "globex|2|2");
  }

  @Test
  void aMissingFileOrColumnStopsTheRunWithTheReason() throws Exception {
    EventFileInputMeta missing = input("ndjson", new InputFile(dir.resolve("nope.ndjson").toString(), null),
        new InputField("n", "Integer", null));
    assertThatThrownBy(() -> run(missing)).isInstanceOf(HopException.class).hasMessageContaining("failed to initialize");

    Files.writeString(dir.resolve("h.csv"), "a,b\n1,2\n");
    EventFileInputMeta column = input("csv", new InputFile(dir.resolve("h.csv").toString(), null),
        new InputField("c", "Integer", null));
    assertThat(run(column).errors()).isPositive();
  }

  /** Writes the parts to the file: a string as its UTF-8 bytes, a number as one raw byte (which may not be UTF-8). */
  private static void write(Path file, Object... parts) throws java.io.IOException {
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    for (Object part : parts) {
      if (part instanceof String text) {
        bytes.writeBytes(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
      } else {
        bytes.write((Integer) part);
      }
    }
    Files.write(file, bytes.toByteArray());
  }

  @Test
  void aNdjsonLineWithBytesThatAreNotUtf8IsRejectedAndTheFileGoesOn() throws Exception {
    Path file = dir.resolve("bad-bytes.ndjson");
    write(file, "{\"merchant\":\"é\",\"n\":1}\n{\"merchant\":\"a", 0xFF, 0xFE, "b\",\"n\":2}\n{\"merchant\":\"c\",\"n\":3}\n");
    EventFileInputMeta m = input("ndjson", new InputFile(file.toString(), null),
        new InputField("merchant", "String", null), new InputField("n", "Integer", null));
    m.setLineNumberField("line");
    LocalRun.Result r = run(m);
    assertThat(r.errors()).isZero();
    assertThat(Rows.text(r.rows("out"))).containsExactly("é|1|1", "c|3|3");
    assertThat(Rows.text(r.rows("errors"))).containsExactly("null|null|2|1|" + file
        + " line 2: the line is not UTF-8 text (0xff at byte 15 of the line)||EVENTTIME-UNREADABLE");
    assertThat(r.metric("read", LocalRun.INPUT)).isEqualTo(3);
    assertThat(r.metric("read", LocalRun.REJECTED)).isEqualTo(1);
  }

  @Test
  void aCsvRecordWithALineThatIsNotUtf8IsRejectedAndTheFileGoesOn() throws Exception {
    Path file = dir.resolve("bad-bytes.csv");
    write(file, "merchant,amount\nacme,1\n\"a", 0xFF, "b\",2\n\"multi\nli", 0xFE, "ne\",3\nglobex,4\n");
    EventFileInputMeta m = input("csv", new InputFile(file.toString(), null),
        new InputField("merchant", "String", null), new InputField("amount", "Integer", null));
    m.setLineNumberField("line");
    LocalRun.Result r = run(m);
    assertThat(r.errors()).isZero();
    assertThat(Rows.text(r.rows("out"))).containsExactly("acme|1|2", "globex|4|6");
    // the second rejected record starts on line 4; the bytes that are not UTF-8 are on its line 5
    assertThat(Rows.text(r.rows("errors"))).containsExactly(
        "null|null|3|1|" + file + " line 3: the line is not UTF-8 text (0xff at byte 3 of the line)||EVENTTIME-UNREADABLE",
        "null|null|4|1|" + file + " line 5: the line is not UTF-8 text (0xfe at byte 3 of the line)||EVENTTIME-UNREADABLE");
    assertThat(r.metric("read", LocalRun.INPUT)).isEqualTo(4);
    assertThat(r.metric("read", LocalRun.REJECTED)).isEqualTo(2);
  }

  @Test
  void aCsvHeaderThatIsNotUtf8StopsTheRunSayingSo() throws Exception {
    Path file = dir.resolve("bad-header.csv");
    write(file, "merchant,am", 0xFF, "ount\nacme,1\n");
    LocalRun.Result r = run(input("csv", new InputFile(file.toString(), null), new InputField("merchant", "String", null)));
    assertThat(r.errors()).isPositive();
    assertThat(r.rows("out")).isEmpty();
    assertThat(org.apache.hop.core.logging.HopLogStore.getAppender().getBuffer(r.pipeline().getLogChannelId(), true)
        .toString()).contains("cannot read the header of " + file + ": " + file
            + " line 1: the line is not UTF-8 text (0xff at byte 12 of the line)");
  }

  @Test
  void aUtf16FileStopsTheRunSayingSoOnce() throws Exception {
    Path file = dir.resolve("utf16.ndjson");
    Files.writeString(file, "\uFEFF{\"n\":1}\n{\"n\":2}\n", java.nio.charset.StandardCharsets.UTF_16LE);
    LocalRun.Result r = run(input("ndjson", new InputFile(file.toString(), null), new InputField("n", "Integer", null)));
    assertThat(r.errors()).isPositive();
    assertThat(r.rows("out")).isEmpty();
    assertThat(r.rows("errors")).isEmpty();
    assertThat(org.apache.hop.core.logging.HopLogStore.getAppender().getBuffer(r.pipeline().getLogChannelId(), true)
        .toString()).contains("cannot read " + file + ": it is UTF-16LE text (it starts with a UTF-16LE byte order"
            + " mark), not UTF-8: convert it first, e.g. iconv -f UTF-16LE -t UTF-8");
  }

  @Test
  void checkReportsBadSettings() throws Exception {
    EventFileInputMeta m = input("xml", new InputFile(dir.resolve("nope.ndjson").toString(), null),
        new InputField("n", "Decimal", null), new InputField(null, "String", null),
        new InputField("t", "Timestamp", "yyyy-bb"));
    m.setCsvDelimiter(";;");
    m.setTimeZone("Nowhere/Town");
    m.setLineNumberField("n");
    PipelineMeta p = new PipelineBuilder("check").transform("read", m).build();
    List<ICheckResult> remarks = new ArrayList<>();
    m.check(remarks, p, p.findTransform("read"), null, new String[0], new String[0], null, new Variables(), null);
    assertThat(remarks.stream().filter(c -> c.getType() == ICheckResult.TYPE_RESULT_ERROR).map(ICheckResult::getText))
        .containsExactlyInAnyOrder(
            "Format: 'xml' is unknown: choose ndjson or csv",
            "Time zone: 'Nowhere/Town' is not a time zone: give a zone id such as UTC or Europe/Paris",
            "Field 1 'n': the type 'Decimal' is not one this transform reads: choose one of String, Integer, Number,"
                + " BigNumber, Boolean, Timestamp, Date",
            "Field 2: no name: give the JSON key or CSV column to read",
            "Field 3 't': the time pattern 'yyyy-bb' is not valid (Unknown pattern letter: b): write it as"
                + " java.time.format.DateTimeFormatter does, e.g. yyyy-MM-dd HH:mm:ss",
            "Output fields: the output name 'n' is used twice: give each output column its own name");

    EventFileInputMeta ok = input("ndjson", new InputFile(dir.resolve("nope.ndjson").toString(), null),
        new InputField("n", "Integer", null));
    remarks.clear();
    ok.check(remarks, p, p.findTransform("read"), null, new String[0], new String[0], null, new Variables(), null);
    assertThat(remarks.stream().filter(c -> c.getType() == ICheckResult.TYPE_RESULT_ERROR).map(ICheckResult::getText))
        .singleElement().asString().startsWith("Files: cannot read file:///").endsWith("nope.ndjson: check the path,"
            + " the mask and the permissions");
  }

  @Test
  void checkReportsRowsComingInABadDelimiterAndAFieldWithoutType() throws Exception {
    EventFileInputMeta m = input("csv", new InputFile(dir.resolve("nope.csv").toString(), null),
        new InputField("n", null, null));
    m.setCsvDelimiter(";;");
    PipelineMeta p = new PipelineBuilder("check").transform("read", m).build();
    List<ICheckResult> remarks = new ArrayList<>();
    m.check(remarks, p, p.findTransform("read"), null, new String[] {"in"}, new String[0], null, new Variables(),
        null);
    assertThat(remarks.stream().filter(c -> c.getType() == ICheckResult.TYPE_RESULT_ERROR).map(ICheckResult::getText))
        .containsExactlyInAnyOrder(
            "Input: this transform reads files and takes no rows: remove the hops into it",
            "CSV delimiter: ';;' is not one character: give one, e.g. , or ; or \\t",
            "Field 1 'n': no type: choose one of String, Integer, Number, BigNumber, Boolean, Timestamp, Date");
  }
}
