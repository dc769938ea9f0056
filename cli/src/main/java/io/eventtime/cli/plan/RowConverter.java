package io.eventtime.cli.plan;

import io.eventtime.core.EventTimeException;
import io.eventtime.core.EventTimeParser;
import io.eventtime.core.Key;
import io.eventtime.core.RecentKeys;
import io.eventtime.core.ValueType;
import io.eventtime.core.Values;
import io.eventtime.core.ndjson.ColumnValues;
import io.eventtime.core.ndjson.FieldReader;
import java.time.Instant;
import java.util.List;

/**
 * Turns the raw JSON values of a row's input columns into the plan's types, in place: the time
 * column into epoch milliseconds (and an {@link Instant} in its slot when a key, an aggregate or
 * the WHERE reads it), every other value into
 * its column's type by the core's {@link ColumnValues} rule (so each runner holds the same
 * values: 5.0 in a BIGINT column is 5, 5 in a DOUBLE column is 5.0). A value that does not fit
 * is a {@link Rejection} naming the field and why; the runner counts the row as rejected. Not thread-safe: one converter per stream.
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
  /** Whether a key, an aggregate or the WHERE reads the time column's value: else its slot keeps the text. */
  private final boolean timeValueRead;
  /** Hands out one object per recent key, shared with the stream's other converters. */
  private final RecentKeys recentKeys;
  private long eventTime;

  /** A converter whose keys are shared with no other. */
  public RowConverter(QueryPlan plan) {
    this(plan, new RecentKeys());
  }

  /** A converter that takes its keys from {@code recentKeys}, shared by the converters of one stream. */
  public RowConverter(QueryPlan plan, RecentKeys recentKeys) {
    this.recentKeys = recentKeys;
    List<InputColumn> inputs = plan.inputs();
    names = inputs.stream().map(InputColumn::name).toArray(String[]::new);
    types = inputs.stream().map(InputColumn::type).toArray(ValueType[]::new);
    timeInput = plan.timeInput();
    keyInputs = plan.keyInputs().stream().mapToInt(Integer::intValue).toArray();
    aggregateInputs = plan.aggregateInputs().stream().mapToInt(Integer::intValue).toArray();
    keyValues = new Object[keyInputs.length];
    timeValueRead = plan.where() != null || plan.keyInputs().contains(timeInput)
        || plan.aggregateInputs().contains(timeInput);
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
      return new Rejection(names[timeInput], ColumnValues.describe(time) + " is not a date-time string");
    }
    try {
      eventTime = times.parse(text);
    } catch (EventTimeException e) {
      return new Rejection(names[timeInput], e.getMessage());
    }
    if (timeValueRead) {
      row[timeInput] = Instant.ofEpochMilli(eventTime);
    }
    for (int i = 0; i < row.length; i++) {
      if (i == timeInput) {
        continue;
      }
      Object v = row[i];
      if (v == FieldReader.MISSING) {
        row[i] = null;
        continue;
      }
      try {
        row[i] = ColumnValues.convert(v, types[i], SqlTypes.name(types[i]), times);
      } catch (ColumnValues.Mismatch e) {
        return new Rejection(names[i], e.getMessage());
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
      keyValues[i] = Values.canonical(row[keyInputs[i]]);
    }
    return recentKeys.of(keyValues);
  }

  /** Writes into {@code inputs} from {@code at} on the value each aggregate takes from a converted row. */
  public void aggregateInputs(Object[] row, Object[] inputs, int at) {
    for (int i = 0; i < aggregateInputs.length; i++) {
      inputs[at + i] = aggregateInputs[i] < 0 ? null : row[aggregateInputs[i]];
    }
  }
}
