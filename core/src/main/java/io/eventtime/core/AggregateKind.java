package io.eventtime.core;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** The aggregates a window computes over its rows. */
public enum AggregateKind {
  /** {@code count(*)}: every row. */
  COUNT_ALL("count(*)"),
  /** {@code count(field)}: rows whose value is not null. */
  COUNT("count"),
  /** {@code count(distinct field)}: distinct non-null values. */
  COUNT_DISTINCT("count_distinct"),
  SUM("sum"),
  MIN("min"),
  MAX("max"),
  AVG("avg"),
  /** The value of the row that arrived first, null or not. */
  FIRST("first"),
  /** The value of the row that arrived last, null or not. */
  LAST("last");

  private final String label;

  AggregateKind(String label) {
    this.label = label;
  }

  public String label() {
    return label;
  }

  /** Whether this aggregate reads a field ({@code count(*)} is the one that does not). */
  public boolean needsInput() {
    return this != COUNT_ALL;
  }

  /**
   * The type of the result for an input of {@code input}: counts are INT64, an average DOUBLE,
   * a sum of INT64 stays INT64; min, max, first and last keep the input's type. An aggregate that
   * cannot take the input type (a sum of strings) is refused with the types it takes.
   */
  public ValueType resultType(ValueType input) {
    switch (this) {
      case COUNT_ALL:
      case COUNT:
      case COUNT_DISTINCT:
        return ValueType.INT64;
      case SUM:
        requireNumeric(input);
        return input;
      case AVG:
        requireNumeric(input);
        return ValueType.DOUBLE;
      default:
        return input;
    }
  }

  private void requireNumeric(ValueType input) {
    if (input == null || !input.isNumeric()) {
      throw new IllegalArgumentException(label + " takes a numeric field (INT64 or DOUBLE), not " + input
          + ": use count, min or max for that field, or " + label + " a numeric one");
    }
  }

  /** A fresh, empty accumulator of this aggregate. */
  public Accumulator newAccumulator() {
    switch (this) {
      case COUNT_ALL:
        return new Accumulator.CountAll();
      case COUNT:
        return new Accumulator.Count();
      case COUNT_DISTINCT:
        return new Accumulator.CountDistinct();
      case SUM:
        return new Accumulator.Sum();
      case MIN:
        return new Accumulator.Extreme(false);
      case MAX:
        return new Accumulator.Extreme(true);
      case AVG:
        return new Accumulator.Avg();
      case FIRST:
        return new Accumulator.ByArrival(false);
      case LAST:
        return new Accumulator.ByArrival(true);
      default:
        throw new AssertionError(this);
    }
  }

  /**
   * Reads an aggregate by name, case-insensitively: {@code count}, {@code count_distinct} (or
   * {@code count distinct}), {@code sum}, {@code min}, {@code max}, {@code avg}, {@code first},
   * {@code last}, and {@code count(*)} (or {@code count_all}).
   */
  public static AggregateKind parse(String text) {
    String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT).replace(' ', '_');
    if (t.equals("count(*)") || t.equals("count_all") || t.equals("count_star")) {
      return COUNT_ALL;
    }
    for (AggregateKind k : values()) {
      if (k.label.equals(t) || k.name().toLowerCase(Locale.ROOT).equals(t)) {
        return k;
      }
    }
    throw new IllegalArgumentException("unknown aggregate '" + text + "': use one of "
        + Arrays.stream(values()).map(AggregateKind::label).collect(Collectors.joining(", ")));
  }
}
