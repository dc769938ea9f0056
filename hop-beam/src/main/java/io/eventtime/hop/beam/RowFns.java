package io.eventtime.hop.beam;

import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.values.Row;

/** Small row steps of the translation: counting, re-labelling, numbering. */
final class RowFns {
  private RowFns() {}

  /**
   * Passes rows on with the values as they are under {@code schema} (the same fields; a Beam
   * transform may have made them non-nullable), counting them for a Hop transform.
   */
  static final class CountFn extends DoFn<Row, Row> {
    private final Schema schema;
    private final Counter[] counters;

    CountFn(Schema schema, String transform, HopMetrics.Kind... kinds) {
      this.schema = schema;
      this.counters = new Counter[kinds.length];
      for (int i = 0; i < kinds.length; i++) {
        counters[i] = HopMetrics.counter(transform, kinds[i]);
      }
    }

    @ProcessElement
    public void process(@Element Row row, OutputReceiver<Row> out) {
      for (Counter c : counters) {
        c.inc();
      }
      out.output(row.getSchema().equals(schema) ? row : Row.withSchema(schema).attachValues(row.getValues()));
    }
  }

  /** Adds a copy of one field before the arrival position (the field an Event Time Stamp writes anew). */
  static final class CopyFieldFn extends DoFn<Row, Row> {
    private final Schema schema;
    private final int from;
    private final Counter read;

    CopyFieldFn(Schema schema, int from, String transform) {
      this.schema = schema;
      this.from = from;
      this.read = HopMetrics.counter(transform, HopMetrics.Kind.READ);
    }

    @ProcessElement
    public void process(@Element Row row, OutputReceiver<Row> out) {
      read.inc();
      List<Object> values = new ArrayList<>(row.getValues());
      values.add(values.size() - 1, row.getValue(from));
      out.output(Row.withSchema(schema).attachValues(values));
    }
  }

  /** Gives the rows of the {@code input}-th of several flattened inputs positions above the others'. */
  static final class FlattenedPositionFn extends DoFn<Row, Row> {
    private final Schema schema;
    private final int input;
    private final int widthBits;

    FlattenedPositionFn(Schema schema, int input, int widthBits) {
      this.schema = schema;
      this.input = input;
      this.widthBits = widthBits;
    }

    @ProcessElement
    public void process(@Element Row row, OutputReceiver<Row> out) {
      List<Object> values = new ArrayList<>(row.getValues());
      values.set(values.size() - 1, Arrivals.flattened(input, widthBits, RowLayout.arrival(row)));
      out.output(Row.withSchema(schema).attachValues(values));
    }
  }
}
