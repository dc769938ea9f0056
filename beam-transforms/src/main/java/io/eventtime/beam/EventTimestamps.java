package io.eventtime.beam;

import io.eventtime.core.EventTimeException;
import io.eventtime.core.EventTimeParser;
import io.eventtime.core.bind.QueryBinder;
import java.util.Map;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.schemas.Schema.FieldType;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.display.DisplayData;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.PInput;
import org.apache.beam.sdk.values.POutput;
import org.apache.beam.sdk.values.PValue;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.TupleTagList;
import org.joda.time.Duration;
import org.joda.time.Instant;

/**
 * Reads each row's event time from a field and makes it the row's Beam timestamp, with the
 * field itself turned into a DATETIME. The field may be a DATETIME, whole epoch milliseconds or
 * seconds (INT64), or a date-time string in ISO-8601 or a given pattern, read in a given zone
 * (UTC unless set). Rows whose time is null or cannot be read go to the rejected output with
 * the field and the reason ({@link ProblemRows}).
 *
 * <pre>{@code
 * EventTimestamps.Result stamped = rows.apply(EventTimestamps.fromField("event_time")
 *     .withParser(EventTimeParser.defaults().withPattern("dd/MM/yyyy HH:mm").withZone(ZoneId.of("Europe/Paris"))));
 * stamped.rows();      // same fields, event_time as DATETIME, Beam timestamps set
 * stamped.rejected();  // row, field, reason
 * }</pre>
 *
 * <p>{@link EventTimeWindow} reads the same field types itself, so this step is optional before
 * it; it serves pipelines that go on with Beam's own windowing or need the normalised field.
 * Rejected rows count in the {@value EventTimeMetrics#NAMESPACE} counters {@code rows_in} and
 * {@code rows_rejected}, so that the run's stats still add up.
 */
public final class EventTimestamps extends PTransform<PCollection<Row>, EventTimestamps.Result> {
  // static, as every step's tags are: an anonymous tag made in an instance holds that instance (see ReadEventTimes)
  private static final TupleTag<Row> ROWS = new TupleTag<>("rows") {};
  private static final TupleTag<Row> REJECTED = new TupleTag<>("rejected") {};
  private final String field;
  private final EventTimeParser parser;

  private EventTimestamps(String field, EventTimeParser parser) {
    this.field = field;
    this.parser = parser;
  }

  public static EventTimestamps fromField(String field) {
    return new EventTimestamps(field, EventTimeParser.defaults());
  }

  /** How strings and numbers are read (pattern, zone, epoch unit). */
  public EventTimestamps withParser(EventTimeParser p) {
    return new EventTimestamps(field, p);
  }

  /** The settings a runner's UI shows for this step: the time field and how it is read. */
  @Override
  public void populateDisplayData(DisplayData.Builder builder) {
    super.populateDisplayData(builder);
    builder.add(DisplayData.item("timeField", field).withLabel("Event time field"));
    DisplayItems.parser(builder, parser);
  }

  @Override
  public Result expand(PCollection<Row> input) {
    Schema in = input.getSchema();
    int index = QueryBinder.bindTimeField(field, BeamValues.inputFields(in)).orElseThrow().timeIndex();
    Schema.Builder b = Schema.builder();
    for (int i = 0; i < in.getFieldCount(); i++) {
      Schema.Field f = in.getField(i);
      b.addField(i == index ? Schema.Field.of(f.getName(), FieldType.DATETIME) : f);
    }
    Schema out = b.build();
    Schema problems = ProblemRows.schema(in);
    PCollectionTuple t = input.apply("Stamp", ParDo.of(new StampFn(field, index, parser, out, problems, ROWS, REJECTED))
        .withOutputTags(ROWS, TupleTagList.of(REJECTED)));
    return new Result(t.get(ROWS).setRowSchema(out), t.get(REJECTED).setRowSchema(problems));
  }

  /** The stamped rows and the rejected ones. */
  public static final class Result implements POutput {
    private final PCollection<Row> rows;
    private final PCollection<Row> rejected;

    Result(PCollection<Row> rows, PCollection<Row> rejected) {
      this.rows = rows;
      this.rejected = rejected;
    }

    public PCollection<Row> rows() {
      return rows;
    }

    public PCollection<Row> rejected() {
      return rejected;
    }

    @Override
    public Pipeline getPipeline() {
      return rows.getPipeline();
    }

    @Override
    public Map<TupleTag<?>, PValue> expand() {
      return Map.of(ROWS, rows, REJECTED, rejected);
    }

    @Override
    public void finishSpecifyingOutput(String name, PInput input, PTransform<?, ?> transform) {}
  }

  private static final class StampFn extends DoFn<Row, Row> {
    private final String field;
    private final int index;
    private final EventTimeParser parser;
    private final Schema out;
    private final Schema problems;
    private final TupleTag<Row> rows;
    private final TupleTag<Row> rejected;
    private final Counter rowsIn = EventTimeMetrics.counter(EventTimeMetrics.ROWS_IN);
    private final Counter rowsRejected = EventTimeMetrics.counter(EventTimeMetrics.ROWS_REJECTED);

    StampFn(String field, int index, EventTimeParser parser, Schema out, Schema problems, TupleTag<Row> rows,
        TupleTag<Row> rejected) {
      this.field = field;
      this.index = index;
      this.parser = parser;
      this.out = out;
      this.problems = problems;
      this.rows = rows;
      this.rejected = rejected;
    }

    @ProcessElement
    public void process(@Element Row row, MultiOutputReceiver receiver) {
      long ts;
      try {
        ts = BeamValues.eventTime(parser, row.getValue(index));
      } catch (EventTimeException e) {
        rowsIn.inc();
        rowsRejected.inc();
        receiver.get(rejected).output(ProblemRows.of(problems, row, field, "field " + field + ": " + e.getMessage()));
        return;
      }
      Instant time = new Instant(ts);
      Row.Builder b = Row.withSchema(out);
      for (int i = 0; i < out.getFieldCount(); i++) {
        b.addValue(i == index ? time : row.getValue(i));
      }
      receiver.get(rows).outputWithTimestamp(b.build(), time);
    }

    @Override
    @SuppressWarnings("deprecation") // rows may carry later timestamps than their event time
    public Duration getAllowedTimestampSkew() {
      return Duration.millis(Long.MAX_VALUE);
    }
  }
}
