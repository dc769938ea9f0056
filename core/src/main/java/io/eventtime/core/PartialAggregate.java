package io.eventtime.core;

import java.util.Objects;
import java.util.Set;

/**
 * The running state of one {@link Accumulator}, as plain values: what a state store keeps of an
 * aggregate in an open window so that the next run goes on exactly where this one stopped.
 * {@link #of} takes an accumulator apart; {@link #toAccumulator} builds one holding the same
 * state, so that {@code of(p.toAccumulator(kind)).equals(p)}.
 */
public sealed interface PartialAggregate {

  /** An accumulator of {@code kind} in this state; refused when {@code kind} keeps another state. */
  Accumulator toAccumulator(AggregateKind kind);

  /** count(*) or count(field): the rows counted so far. */
  record Count(long count) implements PartialAggregate {
    @Override
    public Accumulator toAccumulator(AggregateKind kind) {
      Accumulator acc = newAccumulator(kind, this);
      if (acc instanceof Accumulator.CountAll all) {
        all.count = count;
      } else {
        ((Accumulator.Count) acc).count = count;
      }
      return acc;
    }
  }

  /** count(distinct field): the distinct non-null values seen so far. */
  record Distinct(Set<Object> values) implements PartialAggregate {
    public Distinct {
      values = Set.copyOf(values);
    }

    @Override
    public Accumulator toAccumulator(AggregateKind kind) {
      Accumulator.CountDistinct acc = (Accumulator.CountDistinct) newAccumulator(kind, this);
      acc.seen.addAll(values);
      return acc;
    }
  }

  /**
   * sum: whether any value was seen, whether the sum has turned floating, its whole-number part
   * and its floating part (the result is their sum once floating).
   */
  record Sum(boolean any, boolean floating, long longSum, double doubleSum) implements PartialAggregate {
    @Override
    public Accumulator toAccumulator(AggregateKind kind) {
      Accumulator.Sum acc = (Accumulator.Sum) newAccumulator(kind, this);
      acc.any = any;
      acc.floating = floating;
      acc.longSum = longSum;
      acc.doubleSum = doubleSum;
      return acc;
    }
  }

  /** min or max: the best value so far, null when no value was seen. */
  record Extreme(Object value) implements PartialAggregate {
    @Override
    public Accumulator toAccumulator(AggregateKind kind) {
      Accumulator.Extreme acc = (Accumulator.Extreme) newAccumulator(kind, this);
      acc.best = value;
      return acc;
    }
  }

  /** avg: how many values were seen and their sum. */
  record Avg(long count, double sum) implements PartialAggregate {
    @Override
    public Accumulator toAccumulator(AggregateKind kind) {
      Accumulator.Avg acc = (Accumulator.Avg) newAccumulator(kind, this);
      acc.count = count;
      acc.sum = sum;
      return acc;
    }
  }

  /**
   * first or last: whether a row was seen, and the arrival position and value (null or not) of
   * the first or last one.
   */
  record ByArrival(boolean any, long arrival, Object value) implements PartialAggregate {
    @Override
    public Accumulator toAccumulator(AggregateKind kind) {
      Accumulator.ByArrival acc = (Accumulator.ByArrival) newAccumulator(kind, this);
      acc.any = any;
      acc.arrival = arrival;
      acc.value = value;
      return acc;
    }
  }

  /** The state of {@code acc}. */
  static PartialAggregate of(Accumulator acc) {
    Objects.requireNonNull(acc, "accumulator");
    if (acc instanceof Accumulator.CountAll a) {
      return new Count(a.count);
    }
    if (acc instanceof Accumulator.Count c) {
      return new Count(c.count);
    }
    if (acc instanceof Accumulator.CountDistinct d) {
      return new Distinct(d.seen);
    }
    if (acc instanceof Accumulator.Sum s) {
      return new Sum(s.any, s.floating, s.longSum, s.doubleSum);
    }
    if (acc instanceof Accumulator.Extreme e) {
      return new Extreme(e.best);
    }
    if (acc instanceof Accumulator.Avg a) {
      return new Avg(a.count, a.sum);
    }
    Accumulator.ByArrival b = (Accumulator.ByArrival) acc;
    return new ByArrival(b.any, b.arrival, b.value);
  }

  /** The kind of state each aggregate keeps. */
  static Class<? extends PartialAggregate> stateOf(AggregateKind kind) {
    switch (kind) {
      case COUNT_ALL:
      case COUNT:
        return Count.class;
      case COUNT_DISTINCT:
        return Distinct.class;
      case SUM:
        return Sum.class;
      case MIN:
      case MAX:
        return Extreme.class;
      case AVG:
        return Avg.class;
      case FIRST:
      case LAST:
        return ByArrival.class;
      default:
        throw new AssertionError(kind);
    }
  }

  private static Accumulator newAccumulator(AggregateKind kind, PartialAggregate state) {
    if (stateOf(kind) != state.getClass()) {
      throw new IllegalArgumentException("a " + kind.label() + " aggregate keeps a "
          + stateOf(kind).getSimpleName() + " state, not " + state);
    }
    return kind.newAccumulator();
  }
}
