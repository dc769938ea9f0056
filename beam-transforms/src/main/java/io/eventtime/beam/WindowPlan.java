package io.eventtime.beam;

import io.eventtime.core.AggregateSpec;
import io.eventtime.core.Aggregates;
import io.eventtime.core.EventTimeException;
import io.eventtime.core.EventTimeParser;
import io.eventtime.core.Key;
import io.eventtime.core.ValueType;
import io.eventtime.core.WindowQuery;
import java.io.Serializable;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.schemas.Schema.FieldType;
import org.apache.beam.sdk.values.Row;

/**
 * A window query resolved against the schema of its input rows: where each field is, and the
 * schema of the window rows. Built, and so checked, when the pipeline is constructed; a field
 * that is missing or of a type that cannot serve is refused there, before any work.
 */
final class WindowPlan implements Serializable {
  final WindowQuery query;
  final Schema input;
  final Schema output;
  final Schema problems;
  final String timeField;
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
    this.parser = parser;
    this.timeIndex = BeamValues.requireField(input, timeField, "time");
    FieldType timeType = input.getField(timeIndex).getType();
    ValueType timeCore = BeamValues.coreType(timeType);
    if (timeCore != ValueType.TIMESTAMP && timeCore != ValueType.INT64 && timeCore != ValueType.STRING) {
      throw new IllegalArgumentException("the time field '" + timeField + "' is of type " + timeType
          + ": give " + BeamValues.TIME_TYPES);
    }
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
    Schema.Builder out = Schema.builder();
    Set<String> names = new HashSet<>();
    List<String> keys = query.keyFields();
    keyIndexes = new int[keys.size()];
    for (int i = 0; i < keys.size(); i++) {
      keyIndexes[i] = BeamValues.requireField(input, keys.get(i), "group-by");
      ValueType t = BeamValues.coreType(input.getField(keyIndexes[i]).getType());
      if (t == null) {
        throw new IllegalArgumentException("the group-by field '" + keys.get(i) + "' is of type "
            + input.getField(keyIndexes[i]).getType() + ", which cannot be grouped: group by a number, string,"
            + " boolean or timestamp field");
      }
      out.addNullableField(keys.get(i), BeamValues.beamType(t));
      requireUnique(names, keys.get(i));
    }
    out.addDateTimeField(requireUnique(names, startName));
    out.addDateTimeField(requireUnique(names, endName));
    List<AggregateSpec> aggs = query.aggregates();
    inputIndexes = new int[aggs.size()];
    for (int i = 0; i < aggs.size(); i++) {
      AggregateSpec a = aggs.get(i);
      ValueType inType = ValueType.INT64;
      if (a.kind().needsInput()) {
        inputIndexes[i] = BeamValues.requireField(input, a.inputField(), a.kind().label());
        inType = BeamValues.coreType(input.getField(inputIndexes[i]).getType());
        if (inType == null) {
          throw new IllegalArgumentException(a + ": the field '" + a.inputField() + "' is of type "
              + input.getField(inputIndexes[i]).getType() + ", which cannot be aggregated");
        }
      } else {
        inputIndexes[i] = -1;
      }
      ValueType result;
      try {
        result = a.kind().resultType(inType);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("the field '" + a.inputField() + "' of " + a + ": " + e.getMessage(), e);
      }
      out.addNullableField(requireUnique(names, a.outputName()), BeamValues.beamType(result));
    }
    this.output = out.build();
    this.problems = ProblemRows.schema(input);
    List<String> named = ArrivalPositions.files(input);
    this.files = named == null ? null : List.copyOf(named);
  }

  private static String requireUnique(Set<String> names, String name) {
    if (!names.add(name)) {
      throw new IllegalArgumentException("two output columns are named '" + name
          + "': give the window bounds and the aggregates distinct names");
    }
    return name;
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
