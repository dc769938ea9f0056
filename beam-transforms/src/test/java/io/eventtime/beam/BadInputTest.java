package io.eventtime.beam;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.eventtime.core.AggregateKind;
import io.eventtime.core.AggregateSpec;
import io.eventtime.core.EventTimeParser;
import io.eventtime.core.Stats;
import io.eventtime.core.WindowSpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.List;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.schemas.Schema.FieldType;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.windowing.FixedWindows;
import org.apache.beam.sdk.transforms.windowing.SlidingWindows;
import org.apache.beam.sdk.transforms.windowing.Window;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.joda.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Rows and files that are wrong, and configurations that are refused before the run. */
class BadInputTest {
  @TempDir
  Path dir;

  private static Pipeline pipeline() {
    return Pipeline.create(PipelineOptionsFactory.fromArgs("--runner=DirectRunner").create());
  }

  private static final Schema TEXT_TIMES = Schema.builder()
      .addNullableField("t", FieldType.STRING).addInt64Field("_arrival").build();

  private static Row textRow(String t, long arrival) {
    return Row.withSchema(TEXT_TIMES).addValues(t, arrival).build();
  }

  @Test
  void nullAndUnparseableTimesAreRejectedWithFieldAndReason_andCounted() {
    Pipeline p = pipeline();
    PCollection<Row> rows = p.apply(Create.of(textRow("2026-03-01 00:01:00", 1), textRow(null, 2),
        textRow("yesterday", 3), textRow("2026-03-01T00:02:00Z", 4), textRow("", 5)).withRowSchema(TEXT_TIMES));
    EventTimeWindowResult r = rows.apply("W", EventTimeWindow.of(WindowSpec.tumbling(60_000)).withTimeField("t")
        .withAggregates(AggregateSpec.countAll("n")));
    PAssert.that(ConformanceSuite.format("Rejected", r.rejected())).containsInAnyOrder(
        "null|2|t|arrival 2, field t: the time is null",
        "yesterday|3|t|arrival 3, field t: 'yesterday' is not a time in ISO-8601 form"
            + " (e.g. 2026-07-18 10:00:03 or 2026-07-18T10:00:03Z)",
        "|5|t|arrival 5, field t: the time is an empty string");
    PAssert.that(ConformanceSuite.format("Windows", r.windows())).containsInAnyOrder(
        "2026-03-01 00:01:00|2026-03-01 00:02:00|1", "2026-03-01 00:02:00|2026-03-01 00:03:00|1");
    PipelineResult result = p.run();
    result.waitUntilFinish();
    assertThat(EventTimeMetrics.stats(result)).isEqualTo(new Stats(5, 2, 0, 2, 2, 3));
  }

  @Test
  void malformedLinesAreRejectedWithLineNumbers_blankLinesSkipped_typeMismatchesRejected() throws IOException {
    Path file = dir.resolve("bad.ndjson");
    Files.write(file, List.of(
        "{\"k\":\"a\",\"n\":1,\"t\":\"2026-03-01 00:00:10\"}",
        "{\"k\":\"a\",\"n\":2,\"t\":\"2026-03-01 00:00:20\"",
        "",
        "[1,2,3]",
        "{\"k\":\"b\",\"n\":\"three\",\"t\":\"2026-03-01 00:00:30\"}",
        "{\"k\":\"b\",\"n\":4,\"t\":\"not a time\"}",
        "{\"k\":\"b\",\"n\":5,\"t\":\"2026-03-01 00:00:50\"} trailing"));
    String name = file.toString();
    Pipeline p = pipeline();
    NdjsonIO.Result in = p.apply(NdjsonIO.read(name).withSampleSize(1));
    PAssert.that(in.rejected().apply(MapElements.into(TypeDescriptors.strings())
        .via((Row r) -> r.getInt64("line") + "|" + r.getString("field") + "|"
            + r.getString("reason").replace(name, "FILE")))).containsInAnyOrder(
        "2|null|line 2 of FILE: malformed JSON: Unexpected end-of-input: expected close marker for Object (start marker at [Source: (String)\"{\"k\":\"a\",\"n\":2,\"t\":\"2026-03-01 00:00:20\"\"; line: 1, column: 1])",
        "4|null|line 4 of FILE: the line is not a JSON object (it starts with '[')",
        "5|n|line 5 of FILE: field n: 'three' is not a number (the column is INT64)",
        "6|t|line 6 of FILE: field t: 'not a time' is not a time in ISO-8601 form (e.g. 2026-07-18 10:00:03 or 2026-07-18T10:00:03Z)",
        "7|null|line 7 of FILE: there is more after the JSON object ('trailing')");
    EventTimeWindowResult w = in.rows().apply("W", EventTimeWindow.of(WindowSpec.tumbling(60_000)).withTimeField("t")
        .withKeys("k").withAggregate(AggregateKind.SUM, "n", "total"));
    PAssert.that(ConformanceSuite.format("Windows", w.windows()))
        .containsInAnyOrder("a|2026-03-01 00:00:00|2026-03-01 00:01:00|1");
    PipelineResult result = p.run();
    result.waitUntilFinish();
    assertThat(EventTimeMetrics.stats(result)).isEqualTo(new Stats(6, 1, 0, 1, 1, 5));
  }

  /** NdjsonIO reads values by the core's rule, as the command line does: the same rows are rejected for the same reasons. */
  @Test
  void valuesThatFitNoColumnAreRejectedByTheCoresRule() throws IOException {
    Path file = dir.resolve("values.ndjson");
    Files.write(file, List.of(
        "{\"k\":\"a\",\"n\":1,\"t\":\"2026-03-01 00:00:10\"}",
        "{\"k\":\"a\",\"n\":0.5,\"t\":\"2026-03-01 00:00:20\"}",
        "{\"k\":\"a\",\"n\":2.0,\"t\":\"2026-03-01 00:00:30\"}",
        "{\"k\":{\"x\":1},\"n\":3,\"t\":\"2026-03-01 00:00:40\"}",
        "{\"k\":\"a\",\"n\":1e400,\"t\":\"2026-03-01 00:00:50\"}",
        "{\"k\":\"a\",\"n\":4,\"n\":5,\"t\":\"2026-03-01 00:00:55\"}"));
    String name = file.toString();
    Pipeline p = pipeline();
    NdjsonIO.Result in = p.apply(NdjsonIO.read(name).withSampleSize(1));
    PAssert.that(in.rejected().apply(MapElements.into(TypeDescriptors.strings())
        .via((Row r) -> r.getInt64("line") + "|" + r.getString("field") + "|"
            + r.getString("reason").replace(name, "FILE")))).containsInAnyOrder(
        "2|n|line 2 of FILE: field n: 0.5 is not a whole number (the column is INT64)",
        "4|k|line 4 of FILE: field k: an object {\"x\":1} is not a column's value (a column holds a number, a string,"
            + " a boolean or null)",
        "5|n|line 5 of FILE: field n: the number 1e400 is beyond the range of a double (at most about 1.8e308 in size)",
        "6|n|line 6 of FILE: field n: the field n appears twice in the object: keep one");
    EventTimeWindowResult w = in.rows().apply("W", EventTimeWindow.of(WindowSpec.tumbling(60_000)).withTimeField("t")
        .withKeys("k").withAggregate(AggregateKind.SUM, "n", "total"));
    PAssert.that(ConformanceSuite.format("Windows", w.windows()))
        .containsInAnyOrder("a|2026-03-01 00:00:00|2026-03-01 00:01:00|3");
    PipelineResult result = p.run();
    result.waitUntilFinish();
    assertThat(EventTimeMetrics.stats(result)).isEqualTo(new Stats(6, 1, 0, 1, 2, 4));
  }

  /** A line whose bytes are not UTF-8 is rejected with the byte and where it is (never read with U+FFFD as a key); the file goes on. */
  @Test
  void aLineWithBytesThatAreNotUtf8IsRejectedAndTheFileGoesOn() throws IOException {
    Path file = dir.resolve("bytes.ndjson");
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    bytes.writeBytes("{\"k\":\"é\",\"n\":1,\"t\":\"2026-03-01 00:00:10\"}\n{\"k\":\"a".getBytes(StandardCharsets.UTF_8));
    bytes.write(0xFF);
    bytes.write(0xFE);
    bytes.writeBytes(("b\",\"n\":2,\"t\":\"2026-03-01 00:00:20\"}\n{\"k\":\"c\",\"n\":3,\"t\":\"2026-03-01 00:00:30\"}\n")
        .getBytes(StandardCharsets.UTF_8));
    Files.write(file, bytes.toByteArray());
    String name = file.toString();
    Pipeline p = pipeline();
    NdjsonIO.Result in = p.apply(NdjsonIO.read(name));
    PAssert.that(in.rejected().apply(MapElements.into(TypeDescriptors.strings())
        .via((Row r) -> r.getString("source").replace(name, "FILE") + "|" + r.getInt64("line") + "|" + r.getString("field")
            + "|" + r.getString("text") + "|" + r.getString("reason").replace(name, "FILE")))).containsInAnyOrder(
        "FILE|2|null|{\"k\":\"a\uFFFD\uFFFDb\",\"n\":2,\"t\":\"2026-03-01 00:00:20\"}|line 2 of FILE: the line is not"
            + " UTF-8 text (0xff at byte 8 of the line)");
    EventTimeWindowResult w = in.rows().apply("W", EventTimeWindow.of(WindowSpec.tumbling(60_000)).withTimeField("t")
        .withKeys("k").withAggregate(AggregateKind.SUM, "n", "total"));
    PAssert.that(ConformanceSuite.format("Windows", w.windows())).containsInAnyOrder(
        "c|2026-03-01 00:00:00|2026-03-01 00:01:00|3", "é|2026-03-01 00:00:00|2026-03-01 00:01:00|1");
    PipelineResult result = p.run();
    result.waitUntilFinish();
    assertThat(EventTimeMetrics.stats(result)).isEqualTo(new Stats(3, 2, 0, 1, 2, 1));
  }

  /** A field the given schema says is not nullable, missing or null on a line, rejects that line (not the run). */
  @Test
  void aMissingOrNullFieldThatIsNotNullableRejectsTheLine() throws IOException {
    Path file = dir.resolve("required.ndjson");
    Files.write(file, List.of(
        "{\"k\":\"a\",\"n\":1,\"t\":\"2026-03-01 00:00:10\"}",
        "{\"n\":2,\"t\":\"2026-03-01 00:00:20\"}",
        "{\"k\":null,\"n\":3,\"t\":\"2026-03-01 00:00:30\"}",
        "{\"k\":\"a\",\"t\":\"2026-03-01 00:00:40\"}"));
    Schema schema = Schema.builder().addStringField("k").addNullableField("n", FieldType.INT64)
        .addNullableField("t", FieldType.STRING).build();
    String name = file.toString();
    Pipeline p = pipeline();
    NdjsonIO.Result in = p.apply(NdjsonIO.read(name).withSchema(schema));
    PAssert.that(in.rejected().apply(MapElements.into(TypeDescriptors.strings())
        .via((Row r) -> r.getInt64("line") + "|" + r.getString("field") + "|"
            + r.getString("reason").replace(name, "FILE")))).containsInAnyOrder(
        "2|k|line 2 of FILE: field k: the field is missing, and the schema requires it",
        "3|k|line 3 of FILE: field k: the value is null, and the schema requires it");
    EventTimeWindowResult w = in.rows().apply("W", EventTimeWindow.of(WindowSpec.tumbling(60_000)).withTimeField("t")
        .withKeys("k").withAggregates(AggregateSpec.countAll("rows")).withAggregate(AggregateKind.SUM, "n", "total"));
    PAssert.that(ConformanceSuite.format("Windows", w.windows()))
        .containsInAnyOrder("a|2026-03-01 00:00:00|2026-03-01 00:01:00|2|1");
    PipelineResult result = p.run();
    result.waitUntilFinish();
    assertThat(EventTimeMetrics.stats(result)).isEqualTo(new Stats(4, 1, 0, 1, 2, 2));
  }

  @Test
  void aUtf16FileIsRefusedAsAWhole() throws IOException {
    Path file = dir.resolve("utf16.ndjson");
    Files.writeString(file, "\uFEFF{\"t\":\"2026-03-01 00:00:10\"}\n", java.nio.charset.StandardCharsets.UTF_16LE);
    assertThatThrownBy(() -> pipeline().apply(NdjsonIO.read(file.toString())))
        .hasMessage("cannot read " + file + ": it is UTF-16LE text (it starts with a UTF-16LE byte order mark), not"
            + " UTF-8: convert it first, e.g. iconv -f UTF-16LE -t UTF-8");
  }

  /** A gzip file of one line, as {@code gzip} writes it. */
  private Path gzipped(String name) throws IOException {
    Path file = dir.resolve(name);
    try (java.util.zip.GZIPOutputStream out = new java.util.zip.GZIPOutputStream(Files.newOutputStream(file))) {
      out.write("{\"t\":\"2026-03-01 00:00:10\"}\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
    return file;
  }

  @Test
  void aCompressedFileIsRefusedAsAWhole() throws IOException {
    Path file = gzipped("events.ndjson.gz");
    assertThatThrownBy(() -> pipeline().apply(NdjsonIO.read(file.toString())))
        .hasMessage("cannot read " + file + ": it is gzip-compressed (it starts with gzip's magic bytes), not UTF-8"
            + " text: decompress it first, e.g. with gzip -dc");
  }

  /** With a schema given, no file is sampled when the pipeline is built: the worker that reads it names it. */
  @Test
  void aCompressedFileReadWithAGivenSchemaFailsTheRunNamingIt() throws IOException {
    Path file = gzipped("events.ndjson.gz");
    Pipeline p = pipeline();
    p.apply(NdjsonIO.read(file.toString()).withSchema(Schema.builder().addNullableField("t", FieldType.STRING).build()));
    assertThatThrownBy(p::run).hasMessageContaining("cannot read " + file + ": it is gzip-compressed (it starts"
        + " with gzip's magic bytes), not UTF-8 text");
  }

  @Test
  void anEmptyFileYieldsNoWindowsAndNoError() throws IOException {
    Path file = dir.resolve("empty.ndjson");
    Files.write(file, List.of());
    Schema schema = Schema.builder().addNullableField("t", FieldType.DATETIME).build();
    Pipeline p = pipeline();
    EventTimeWindowResult w = p.apply(NdjsonIO.read(file.toString()).withSchema(schema)).rows()
        .apply(EventTimeWindow.of(WindowSpec.session(1000)).withTimeField("t").withAggregates(AggregateSpec.countAll("n")));
    PAssert.that(w.windows()).empty();
    PipelineResult result = p.run();
    result.waitUntilFinish();
    assertThat(EventTimeMetrics.stats(result)).isEqualTo(new Stats(0, 0, 0, 0, 0, 0));
  }

  @Test
  void badConfigurationsAreRefusedWhenThePipelineIsBuilt() {
    Schema schema = Schema.builder().addBooleanField("flag").addStringField("name").addNullableField("t", FieldType.STRING)
        .addInt64Field("_arrival").build();
    Pipeline p = pipeline();
    PCollection<Row> rows = p.apply(Create.empty(schema));
    assertThatThrownBy(() -> rows.apply("A", EventTimeWindow.of(WindowSpec.tumbling(1000)).withTimeField("flag")))
        .hasMessageContaining("the time field 'flag' is of type BOOLEAN")
        .hasMessage("the time field 'flag' is of type BOOLEAN NOT NULL, which holds no time: give a timestamp field,"
            + " whole epoch numbers (INT64) or date-time strings");
    assertThatThrownBy(() -> rows.apply("B", EventTimeWindow.of(WindowSpec.tumbling(1000)).withTimeField("when")))
        .hasMessage("the time field 'when' is not in the input: pick one of flag, name, t, _arrival");
    assertThatThrownBy(() -> rows.apply("C", EventTimeWindow.of(WindowSpec.tumbling(1000)).withTimeField("t")
        .withKeys("merchant"))).hasMessage("the group-by field 'merchant' is not in the input: pick one of flag, name, t,"
            + " _arrival");
    assertThatThrownBy(() -> rows.apply("D", EventTimeWindow.of(WindowSpec.tumbling(1000)).withTimeField("t")
        .withAggregate(AggregateKind.SUM, "name", "total")))
        .hasMessage("the field 'name' of sum(name) is of type STRING NOT NULL, which is not a number: sum"
            + " takes a numeric field; use count, min or max for that field, or sum a numeric one");
    assertThatThrownBy(() -> rows.apply("E", EventTimeWindow.of(WindowSpec.tumbling(1000)).withTimeField("t")
        .withAggregates(AggregateSpec.countAll("window_start"))))
        .hasMessage("the output name 'window_start' is used twice: give each output column its own name");
    assertThatThrownBy(() -> rows.apply("E2", EventTimeWindow.of(WindowSpec.tumbling(1000)).withTimeField("flag")
        .withKeys("merchant").withAggregates(AggregateSpec.countAll("Window_End"))))
        .hasMessage("the time field 'flag' is of type BOOLEAN NOT NULL, which holds no time: give a timestamp field,"
            + " whole epoch numbers (INT64) or date-time strings\n"
            + "the group-by field 'merchant' is not in the input: pick one of flag, name, t, _arrival\n"
            + "the output name 'Window_End' is used twice (as 'window_end' and 'Window_End': names are compared"
            + " ignoring case): give each output column its own name");
    assertThatThrownBy(() -> rows.apply("F", EventTimeWindow.of(WindowSpec.tumbling(1000)).withTimeField("t")
        .withArrivalField("name"))).hasMessageContaining("the arrival position field 'name' must hold whole numbers");
    assertThatThrownBy(() -> rows.apply("G", EventTimeWindow.of(WindowSpec.tumbling(1000))))
        .hasMessageContaining("no time field");
    assertThatThrownBy(() -> p.apply("H", NdjsonIO.read(dir.resolve("missing-*.ndjson").toString())))
        .hasMessageContaining("no file matches");
    assertThatThrownBy(() -> rows.apply("Fixed", Window.into(FixedWindows.of(Duration.standardMinutes(1))))
        .apply("I", EventTimeWindow.of(WindowSpec.tumbling(1000)).withTimeField("t")))
        .hasMessage("EventTimeWindow windows the rows by event time itself, so its input must be in the global window,"
            + " not in FixedWindows of PT60S: apply it before any Window.into, or Window.into(new GlobalWindows()) first");
    assertThatThrownBy(() -> rows.apply("Sliding", Window.into(SlidingWindows.of(Duration.standardMinutes(10))
            .every(Duration.standardMinutes(5))))
        .apply("J", EventTimeWindow.of(WindowSpec.tumbling(1000)).withTimeField("t")))
        .hasMessageContaining("not in SlidingWindows of PT600S every PT300S:");
  }

  @Test
  void durationsAndHopsBeyondTheCoreLimitsAreRefusedWhenThePipelineIsBuilt() {
    assertThatThrownBy(() -> EventTimeWindow.of(WindowSpec.hopping(1000, 86_400_000)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the hopping window size (86400000 ms) is 86400 times its slide (1000 ms), so each row would land in"
            + " 86400 windows; at most 10000 are supported: make the slide at least the size / 10000 (8640 ms), or the"
            + " size smaller");
    assertThatThrownBy(() -> EventTimeWindow.of(WindowSpec.tumbling(1000)).withWatermarkDelay(
        java.time.Duration.ofDays(3_652_426))).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the watermark delay (315569606400000 ms) is longer than the longest supported duration,"
            + " 3652425 DAYS (10,000 years): give a shorter one");
    assertThatThrownBy(() -> EventTimeWindow.of(WindowSpec.session(Long.MAX_VALUE)))
        .hasMessage("the session gap (9223372036854775807 ms) is longer than the longest supported duration,"
            + " 3652425 DAYS (10,000 years): give a shorter one");
  }

  @Test
  void aWholeNumberSumThatOverflowsFailsTheRunWithWhatToDo_ratherThanTruncating() {
    Schema schema = Schema.builder().addStringField("k").addInt64Field("amount").addNullableField("t", FieldType.STRING)
        .addInt64Field("_arrival").build();
    Pipeline p = pipeline();
    p.apply(Create.of(
            Row.withSchema(schema).addValues("a", Long.MAX_VALUE, "2026-03-01 00:00:10", 1L).build(),
            Row.withSchema(schema).addValues("a", Long.MAX_VALUE, "2026-03-01 00:00:20", 2L).build())
        .withRowSchema(schema))
        .apply(EventTimeWindow.of(WindowSpec.tumbling(60_000)).withTimeField("t").withKeys("k")
            .withAggregates(AggregateSpec.of(AggregateKind.SUM, "amount", "total")));
    assertThatThrownBy(() -> p.run().waitUntilFinish())
        .hasRootCauseInstanceOf(ArithmeticException.class)
        .hasRootCauseMessage("the sum 'total' of window [2026-03-01 00:00:00, 2026-03-01 00:01:00) of key [a]"
            + " overflows a 64-bit whole number (about 1.8446744073709552E19): sum a DOUBLE (floating-point) field"
            + " instead");
  }

  @Test
  void eventTimestampsReadsEveryKindOfTimeField_andRejectsWhatItCannotRead() {
    Schema schema = Schema.builder().addNullableField("t", FieldType.STRING).addInt64Field("id").build();
    Pipeline p = pipeline();
    PCollection<Row> rows = p.apply(Create.of(
        Row.withSchema(schema).addValues("01/03/2026 01:30", 1L).build(),
        Row.withSchema(schema).addValues("2026-03-01 00:30", 2L).build(),
        Row.withSchema(schema).addValues(null, 3L).build()).withRowSchema(schema));
    EventTimestamps.Result stamped = rows.apply(EventTimestamps.fromField("t")
        .withParser(EventTimeParser.defaults().withPattern("dd/MM/yyyy HH:mm").withZone(ZoneId.of("Europe/Paris"))));
    PAssert.that(stamped.rows().apply("Stamped", MapElements.into(TypeDescriptors.strings())
        .via((Row r) -> r.getInt64("id") + "|" + ConformanceSuite.formatValue(r.getDateTime("t")))))
        .containsInAnyOrder("1|2026-03-01 00:30:00");
    PAssert.that(stamped.rows().apply("Timestamps", ParDo.of(new ElementTimestampFn())))
        .containsInAnyOrder("2026-03-01 00:30:00");
    PAssert.that(ConformanceSuite.format("Rejected", stamped.rejected())).containsInAnyOrder(
        "2026-03-01 00:30|2|t|field t: '2026-03-01 00:30' is not a time in the pattern dd/MM/yyyy HH:mm",
        "null|3|t|field t: the time is null");

    Schema epoch = Schema.builder().addInt64Field("secs").build();
    EventTimestamps.Result seconds = p.apply("Epoch", Create.of(Row.withSchema(epoch).addValues(1_772_323_200L).build())
        .withRowSchema(epoch)).apply("Seconds", EventTimestamps.fromField("secs")
        .withParser(EventTimeParser.defaults().withEpochUnit(EventTimeParser.EpochUnit.SECONDS)));
    PAssert.that(ConformanceSuite.format("EpochRows", seconds.rows())).containsInAnyOrder("2026-03-01 00:00:00");
    p.run().waitUntilFinish();
  }

  /** The Beam timestamp each element carries. */
  static final class ElementTimestampFn extends DoFn<Row, String> {
    @ProcessElement
    public void process(ProcessContext c) {
      c.output(ConformanceSuite.formatValue(c.timestamp()));
    }
  }
}
