package io.eventtime.cli.plan;

import io.eventtime.core.EventTimeException;
import io.eventtime.core.EventTimeParser;
import io.eventtime.core.Key;
import io.eventtime.core.ValueType;
import io.eventtime.core.ndjson.FieldReader;
import java.time.Instant;
import java.util.List;

/**
 * Turns the raw JSON values of a row's input columns into the plan's types, in place: the time
 * column into epoch milliseconds (and an {@link Instant} in its slot), other TIMESTAMP columns
 * into instants; numbers, booleans and strings checked against their column's type. A value
 * that does not fit is a {@link Rejection} naming the field and why; the runner counts the row
 * as rejected. Not thread-safe: one converter per stream.
 */
public final class RowConverter {

  /** Why a row was rejected: the field (null when the line itself is malformed) and the reason. */
  public record Rejection(String field, String reason) {}

  private final EventTimeParser times = EventTimeParser.defaults();
  private final String[] names;
  private final ValueType[] types;
  private final int timeInput;
  private final int[] keyInputs;
  private final int[] aggregateInputs;
  private final Object[] keyValues;
  private long eventTime;

  public RowConverter(QueryPlan plan) {
    List<InputColumn> inputs = plan.inputs();
    names = inputs.stream().map(InputColumn::name).toArray(String[]::new);
    types = inputs.stream().map(InputColumn::type).toArray(ValueType[]::new);
    timeInput = plan.timeInput();
    keyInputs = plan.keyInputs().stream().mapToInt(Integer::intValue).toArray();
    aggregateInputs = plan.aggregateInputs().stream().mapToInt(Integer::intValue).toArray();
    keyValues = new Object[keyInputs.length];
  }

  /**
   * Converts {@code row} (as {@link FieldReader} filled it) in place; returns null when every
   * value fits, else why the row is rejected. The event time is then {@link #eventTime()}.
   */
  public Rejection convert(Object[] row) {
    Object time = row[timeInput];
    if (time == FieldReader.MISSING) {
      return new Rejection(names[timeInput], "the row has no field " + names[timeInput]);
    }
    if (time == null) {
      return new Rejection(names[timeInput], "the time is null");
    }
    if (!(time instanceof String text)) {
      return new Rejection(names[timeInput], describe(time) + " is not a date-time string");
    }
    try {
      eventTime = times.parse(text);
    } catch (EventTimeException e) {
      return new Rejection(names[timeInput], e.getMessage());
    }
    row[timeInput] = Instant.ofEpochMilli(eventTime);
    for (int i = 0; i < row.length; i++) {
      if (i == timeInput) {
        continue;
      }
      Object v = row[i];
      if (v == FieldReader.MISSING || v == null) {
        row[i] = null;
        continue;
      }
      ValueType type = types[i];
      if (type == null || type == ValueType.STRING) {
        continue;
      }
      switch (type) {
        case INT64:
        case DOUBLE:
          if (!(v instanceof Number)) {
            return new Rejection(names[i], describe(v) + " is not a number (the column is " + SqlTypes.name(type) + ")");
          }
          break;
        case BOOLEAN:
          if (!(v instanceof Boolean)) {
            return new Rejection(names[i], describe(v) + " is not a boolean (the column is BOOLEAN)");
          }
          break;
        case TIMESTAMP:
          if (!(v instanceof String s)) {
            return new Rejection(names[i], describe(v) + " is not a date-time string (the column is TIMESTAMP)");
          }
          try {
            row[i] = Instant.ofEpochMilli(times.parse(s));
          } catch (EventTimeException e) {
            return new Rejection(names[i], e.getMessage());
          }
          break;
        default:
          break;
      }
    }
    return null;
  }

  /** The event time of the row {@link #convert} last accepted, in epoch milliseconds. */
  public long eventTime() {
    return eventTime;
  }

  /** The group key of a converted row. */
  public Key key(Object[] row) {
    if (keyInputs.length == 0) {
      return Key.GLOBAL;
    }
    for (int i = 0; i < keyInputs.length; i++) {
      keyValues[i] = row[keyInputs[i]];
    }
    return Key.of(keyValues);
  }

  /** Writes into {@code inputs} the value each aggregate takes from a converted row. */
  public void aggregateInputs(Object[] row, Object[] inputs) {
    for (int i = 0; i < aggregateInputs.length; i++) {
      inputs[i] = aggregateInputs[i] < 0 ? null : row[aggregateInputs[i]];
    }
  }

  private static String describe(Object v) {
    if (v instanceof String s) {
      return "'" + (s.length() <= 60 ? s : s.substring(0, 57) + "...") + "'";
    }
    return String.valueOf(v);
  }
}
