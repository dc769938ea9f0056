package io.eventtime.beam;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.eventtime.core.AggregateKind;
import io.eventtime.core.ArrivalPosition;
import io.eventtime.core.AggregateSpec;
import io.eventtime.core.Stats;
import io.eventtime.core.WindowSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.schemas.Schema.FieldType;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.Filter;
import org.apache.beam.sdk.transforms.Flatten;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionList;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Arrival positions: unique or the run fails, given to lines of any format, told by file and line. */
class ArrivalPositionsTest {
  @TempDir
  Path dir;

  private static Pipeline pipeline() {
    return Pipeline.create(PipelineOptionsFactory.fromArgs("--runner=DirectRunner").create());
  }

  private static EventTimeWindow perMinute() {
    return EventTimeWindow.of(WindowSpec.tumbling(60_000)).withTimeField("t").withAggregates(AggregateSpec.countAll("n"));
  }

  /** a.ndjson then b.ndjson: b's row at 10:00:30 arrives after a's 10:05:00, so it is late. */
  private Path[] twoFiles() throws IOException {
    Path a = dir.resolve("a.ndjson");
    Path b = dir.resolve("b.ndjson");
    Files.write(a, List.of("{\"t\":\"2026-07-18 10:00:10\"}", "{\"t\":\"2026-07-18 10:05:00\"}"));
    Files.write(b, List.of("{\"t\":\"2026-07-18 10:00:30\"}"));
    return new Path[] {a, b};
  }

  @Test
  void oneReadOfTwoFilesIsOneStream_andTheLateRowIsToldByFileAndLine() throws IOException {
    Path[] files = twoFiles();
    Pipeline p = pipeline();
    PCollection<Row> rows = p.apply(NdjsonIO.read(dir.resolve("*.ndjson").toString())).rows();
    PAssert.that(rows.apply("Positions", MapElements.into(TypeDescriptors.longs()).via((Row l) -> l.getInt64("_arrival"))))
        .containsInAnyOrder(ArrivalPosition.of(0, 1), ArrivalPosition.of(0, 2), ArrivalPosition.of(1, 1));
    EventTimeWindowResult r = rows.apply("W", perMinute());
    PAssert.that(ConformanceSuite.format("Windows", r.windows())).containsInAnyOrder(
        "2026-07-18 10:00:00|2026-07-18 10:01:00|1", "2026-07-18 10:05:00|2026-07-18 10:06:00|1");
    PAssert.that(r.late().apply(MapElements.into(TypeDescriptors.strings()).via((Row l) -> l.getString(ProblemRows.REASON))))
        .containsInAnyOrder("line 1 of " + files[1] + ": every window of event time 2026-07-18 10:00:30 had closed"
            + " at watermark 2026-07-18 10:05:00 (late policy window)");
    PAssert.that(r.late().apply("CoreReasons", MapElements.into(TypeDescriptors.strings())
            .via((Row l) -> ProblemRows.lateReason(l, l.getRow(ProblemRows.ROW).getInt64("_arrival")))))
        .containsInAnyOrder("every window of event time 2026-07-18 10:00:30 had closed at watermark 2026-07-18 10:05:00"
            + " (late policy window)");
    PipelineResult result = p.run();
    result.waitUntilFinish();
    assertThat(EventTimeMetrics.stats(result)).isEqualTo(new Stats(3, 2, 1, 2, 2, 0));
  }

  @Test
  void twoReadsFlattenedCollide_andTheRunFailsSayingHowToReadThemAsOneStream() throws IOException {
    Path[] files = twoFiles();
    for (WindowSpec spec : new WindowSpec[] {WindowSpec.tumbling(60_000), WindowSpec.session(60_000)}) {
      Pipeline p = pipeline();
      PCollection<Row> a = p.apply("A", NdjsonIO.read(files[0].toString())).rows();
      PCollection<Row> b = p.apply("B", NdjsonIO.read(files[1].toString())).rows();
      PCollectionList.of(a).and(b).apply(Flatten.pCollections())
          .apply("W", EventTimeWindow.of(spec).withTimeField("t").withAggregates(AggregateSpec.countAll("n")));
      assertThatThrownBy(() -> p.run().waitUntilFinish()).as(spec.kind())
          .hasRootCauseInstanceOf(IllegalArgumentException.class)
          .hasRootCauseMessage("two rows have the same arrival position (line 1 of " + files[0] + "), so the order in"
              + " which they arrived, which decides what is late, is not known: each row needs its own position. To"
              + " read several files as one stream, read them with one NdjsonIO.read of a pattern that matches them"
              + " all (a glob such as \"events-*.ndjson\", or more patterns added with .and(...)) or one"
              + " ArrivalPositions.ofLines, rather than flattening several reads; rows of another source need"
              + " positions that go on where the others end");
    }
  }

  @Test
  void everyRowAtPositionZeroFailsTheRun() {
    Schema schema = Schema.builder().addStringField("t").addInt64Field("_arrival").build();
    Pipeline p = pipeline();
    p.apply(Create.of(Row.withSchema(schema).addValues("2026-07-18 10:05:00", 0L).build(),
            Row.withSchema(schema).addValues("2026-07-18 10:00:30", 0L).build()).withRowSchema(schema))
        .apply(perMinute());
    assertThatThrownBy(() -> p.run().waitUntilFinish())
        .hasRootCauseMessage("two rows have the same arrival position (arrival 0), so the order in which they"
            + " arrived, which decides what is late, is not known: each row needs its own position. To read several"
            + " files as one stream, read them with one NdjsonIO.read of a pattern that matches them all (a glob such"
            + " as \"events-*.ndjson\", or more patterns added with .and(...)) or one ArrivalPositions.ofLines, rather"
            + " than flattening several reads; rows of another source need positions that go on where the others end");
  }

  private static final Schema ORDERS = Schema.builder().addStringField("merchant").addInt64Field("amount")
      .addStringField("t").addInt64Field(EventTimeWindow.DEFAULT_ARRIVAL_FIELD).build();

  /** Lines whose bytes are not UTF-8 fail the run, naming where: replacing the bytes would change the values silently. */
  @Test
  void aLineThatIsNotUtf8FailsTheRunNamingTheLine() throws IOException {
    Path file = dir.resolve("orders.csv");
    Files.write(file, "merchant,amount\nac\u00ffme,1\n".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
    Pipeline p = pipeline();
    p.apply(ArrivalPositions.ofLines(file.toString()));
    assertThatThrownBy(p::run).rootCause().hasMessage("line 2 of " + file + ": the line is not UTF-8 text (0xff at byte 3"
        + " of the line); ArrivalPositions.ofLines reads UTF-8 text only: convert the file, or read it with NdjsonIO,"
        + " which rejects such a line and goes on");
  }

  @Test
  void csvLinesGetPositionsInFileAndLineOrder_andWindowLikeNdjson() throws IOException {
    Path first = dir.resolve("orders-1.csv");
    Path second = dir.resolve("orders-2.csv");
    Files.write(first, List.of("merchant,amount,t", "acme,250,2026-07-18 10:00:03", "acme,90,2026-07-18 10:05:00"));
    Files.write(second, List.of("merchant,amount,t", "acme,7,2026-07-18 10:00:40", "acme,1,2026-07-18 10:05:30"));
    Pipeline p = pipeline();
    PCollection<Row> lines = p.apply(ArrivalPositions.ofLines(dir.resolve("orders-*.csv").toString()));
    PAssert.that(lines.apply("Positions", MapElements.into(TypeDescriptors.strings()).via((Row l) ->
            ArrivalPosition.file(l.getInt64("_arrival")) + ":" + ArrivalPosition.line(l.getInt64("_arrival"))
                + "=" + l.getString(ArrivalPositions.LINE_FIELD))))
        .containsInAnyOrder("0:1=merchant,amount,t", "0:2=acme,250,2026-07-18 10:00:03", "0:3=acme,90,2026-07-18 10:05:00",
            "1:1=merchant,amount,t", "1:2=acme,7,2026-07-18 10:00:40", "1:3=acme,1,2026-07-18 10:05:30");
    Schema withFiles = ArrivalPositions.withFiles(Schema.builder().addFields(ORDERS.getFields()),
        ArrivalPositions.files(lines.getSchema()));
    PCollection<Row> orders = lines
        .apply("SkipHeaders", Filter.by((Row l) -> ArrivalPosition.line(l.getInt64("_arrival")) > 1))
        .apply("Parse", MapElements.into(TypeDescriptors.rows()).via((Row l) -> {
          String[] f = l.getString(ArrivalPositions.LINE_FIELD).split(",");
          return Row.withSchema(withFiles).addValues(f[0], Long.parseLong(f[1]), f[2], l.getInt64("_arrival")).build();
        }))
        .setRowSchema(withFiles);
    EventTimeWindowResult r = orders.apply("W", EventTimeWindow.of(WindowSpec.tumbling(60_000)).withTimeField("t")
        .withKeys("merchant").withAggregates(AggregateSpec.of(AggregateKind.SUM, "amount", "total")));
    PAssert.that(ConformanceSuite.format("Windows", r.windows())).containsInAnyOrder(
        "acme|2026-07-18 10:00:00|2026-07-18 10:01:00|250", "acme|2026-07-18 10:05:00|2026-07-18 10:06:00|91");
    PAssert.that(r.late().apply("Reasons", MapElements.into(TypeDescriptors.strings())
            .via((Row l) -> l.getString(ProblemRows.REASON))))
        .containsInAnyOrder("line 2 of " + second + ": every window of event time 2026-07-18 10:00:40 had closed at"
            + " watermark 2026-07-18 10:05:00 (late policy window)");
    p.run().waitUntilFinish();
  }

  @Test
  void rowsWithoutTheArrivalFieldAreRefusedNamingWithArrivalFieldTheTypeAndTheMeaning() {
    Schema schema = Schema.builder().addStringField("t").addInt64Field("seq").build();
    Pipeline p = pipeline();
    PCollection<Row> rows = p.apply(Create.empty(schema));
    assertThatThrownBy(() -> rows.apply(perMinute()))
        .hasMessage("the arrival position field '_arrival' is not in the input rows (the fields are [t, seq]): each row"
            + " needs a whole number (INT64) that gives the order in which the rows arrived, which lateness is decided"
            + " by. NdjsonIO.read and ArrivalPositions.ofLines write it to '_arrival'; for rows that have it in another"
            + " field, name that field with withArrivalField(...)");
    rows.apply("Seq", perMinute().withArrivalField("seq"));
  }

  @Test
  void positionsAreToldByTheCoresFileAndLine() {
    assertThat(ArrivalPositions.describe(ArrivalPosition.of(1, 4), List.of("a.csv", "b.csv"))).isEqualTo("line 4 of b.csv");
    assertThat(ArrivalPositions.describe(ArrivalPosition.of(2, 4), List.of("a.csv", "b.csv")))
        .isEqualTo("arrival " + ArrivalPosition.of(2, 4));
    assertThat(ArrivalPositions.describe(9, null)).isEqualTo("arrival 9");
  }
}
