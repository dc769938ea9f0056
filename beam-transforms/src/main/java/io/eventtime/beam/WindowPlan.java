package io.eventtime.beam;

import io.eventtime.core.Aggregates;
import io.eventtime.core.EventTimeException;
import io.eventtime.core.EventTimeParser;
import io.eventtime.core.Key;
import io.eventtime.core.ValueType;
import io.eventtime.core.WindowQuery;
import io.eventtime.core.bind.BoundColumn;
import io.eventtime.core.bind.BoundQuery;
import io.eventtime.core.bind.QueryBinder;
import java.io.Serializable;
import java.util.List;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.schemas.Schema.FieldType;
import org.apache.beam.sdk.values.Row;

/**
 * A window query bound to the schema of its input rows by the core's {@link QueryBinder}: where
 * each field is, and the schema of the window rows. Built, and so checked, when the pipeline is
 * constructed; every binding problem is refused there at once, before any work, and the rows'
 * arrival position field is checked here (it is Beam's own).
 */
final class WindowPlan implements Serializable {
  final WindowQuery query;
  final Schema input;
  final Schema output;
  final Schema problems;
  final String timeField;
  /** The field of each row's arrival position. */
  final String arrivalField;
  private final EventTimeParser parser;
  private final int timeIndex;
  private final int arrivalIndex;
  private final int[] keyIndexes;
  private final int[] inputIndexes;
  /** The files the arrival positions number, when the input's schema names them; else null. */
  private final List<String> files;
  private transient Aggregates aggregates;

  WindowPlan(WindowQuery query, Schema input, String timeField, EventTimeParser parser, String arrivalField,
      String startName, String endName) {
    this.query = query;
    this.input = input;
    this.timeField = timeField;
    this.arrivalField = arrivalField;
    this.parser = parser;
    BoundQuery bound = QueryBinder.bind(query, timeField, startName, endName, BeamValues.inputFields(input))
        .orElseThrow();
    if (arrivalField == null || !input.hasField(arrivalField)) {
      throw new IllegalArgumentException("the arrival position field '" + arrivalField + "' is not in the input rows"
          + " (the fields are " + input.getFieldNames() + "): each row needs a whole number (INT64) that gives the"
          + " order in which the rows arrived, which lateness is decided by. NdjsonIO.read and"
          + " ArrivalPositions.ofLines write it to '" + EventTimeWindow.DEFAULT_ARRIVAL_FIELD + "'; for rows"
          + " that have it in another field, name that field with withArrivalField(...)");
    }
    this.arrivalIndex = input.indexOf(arrivalField);
    if (BeamValues.coreType(input.getField(arrivalIndex).getType()) != ValueType.INT64) {
      throw new IllegalArgumentException("the arrival position field '" + arrivalField
          + "' must hold whole numbers (INT64), not " + input.getField(arrivalIndex).getType());
    }
    this.timeIndex = bound.timeIndex();
    this.keyIndexes = bound.keyIndexes();
    this.inputIndexes = bound.aggregateInputIndexes();
    Schema.Builder out = Schema.builder();
    for (BoundColumn c : bound.columns()) {
      FieldType type = BeamValues.beamType(c.type());
      if (c.role() == BoundColumn.Role.WINDOW_START || c.role() == BoundColumn.Role.WINDOW_END) {
        out.addField(c.name(), type);
      } else {
        out.addNullableField(c.name(), type);
      }
    }
    this.output = out.build();
    this.problems = ProblemRows.schema(input);
    List<String> named = ArrivalPositions.files(input);
    this.files = named == null ? null : List.copyOf(named);
  }

  Aggregates aggregates() {
    if (aggregates == null) {
      aggregates = new Aggregates(query.aggregates());
    }
    return aggregates;
  }

  /** The arrival position of a row, or null when it has none. */
  Long position(Row row) {
    Object v = row.getValue(arrivalIndex);
    return v == null ? null : ((Number) v).longValue();
  }

  /** The event time of a row; {@link EventTimeException} says why there is none. */
  long eventTime(Row row) {
    return BeamValues.eventTime(parser, row.getValue(timeIndex));
  }

  /** Where a row arrived, in words: its file and line when the positions number files, else its position. */
  String where(long position) {
    return ArrivalPositions.describe(position, files);
  }

  Key key(Row row) {
    if (keyIndexes.length == 0) {
      return Key.GLOBAL;
    }
    Object[] values = new Object[keyIndexes.length];
    for (int i = 0; i < values.length; i++) {
      values[i] = BeamValues.toCore(row.getValue(keyIndexes[i]));
    }
    return Key.of(values);
  }

  Object[] inputs(Row row) {
    Object[] values = new Object[inputIndexes.length];
    for (int i = 0; i < values.length; i++) {
      values[i] = inputIndexes[i] < 0 ? null : BeamValues.toCore(row.getValue(inputIndexes[i]));
    }
    return values;
  }

  /** A window row: the key values, the bounds, the aggregate results. */
  Row windowRow(Key key, long start, long end, Object[] results) {
    Row.Builder b = Row.withSchema(output);
    int f = 0;
    for (int i = 0; i < key.size(); i++) {
      b.addValue(BeamValues.toBeam(key.get(i), output.getField(f++).getType()));
    }
    b.addValue(new org.joda.time.Instant(start));
    b.addValue(new org.joda.time.Instant(end));
    f += 2;
    for (Object r : results) {
      Schema.Field field = output.getField(f++);
      if (r instanceof Double d && field.getType().getTypeName() == Schema.TypeName.INT64) {
        throw new ArithmeticException(Aggregates.sumOverflow(field.getName(), key, start, end, d));
      }
      b.addValue(BeamValues.toBeam(r, field.getType()));
    }
    return b.build();
  }
}
