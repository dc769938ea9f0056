package io.eventtime.core;

import java.util.List;

/** The aggregates of a query, applied together to the accumulators of one window. */
public final class Aggregates {
  private final List<AggregateSpec> specs;
  private final AggregateKind[] kinds;

  public Aggregates(List<AggregateSpec> specs) {
    this.specs = List.copyOf(specs);
    this.kinds = this.specs.stream().map(AggregateSpec::kind).toArray(AggregateKind[]::new);
  }

  public List<AggregateSpec> specs() {
    return specs;
  }

  public int size() {
    return kinds.length;
  }

  /** Fresh accumulators for a new window. */
  public Accumulator[] create() {
    Accumulator[] accs = new Accumulator[kinds.length];
    for (int i = 0; i < kinds.length; i++) {
      accs[i] = kinds[i].newAccumulator();
    }
    return accs;
  }

  /** Adds one row: {@code inputs[i]} is the value of aggregate i's field (ignored by count(*)). */
  public void add(Accumulator[] accs, Object[] inputs, long arrival) {
    for (int i = 0; i < accs.length; i++) {
      accs[i].add(inputs[i], arrival);
    }
  }

  /** Folds {@code from} into {@code into}. */
  public void merge(Accumulator[] into, Accumulator[] from) {
    for (int i = 0; i < into.length; i++) {
      into[i].merge(from[i]);
    }
  }

  /** A deep copy, for engines that must not change the accumulators they were handed. */
  public Accumulator[] copy(Accumulator[] accs) {
    Accumulator[] out = new Accumulator[accs.length];
    for (int i = 0; i < accs.length; i++) {
      out[i] = PartialAggregate.of(accs[i]).toAccumulator(kinds[i]);
    }
    return out;
  }

  public Object[] results(Accumulator[] accs) {
    Object[] out = new Object[accs.length];
    for (int i = 0; i < accs.length; i++) {
      out[i] = accs[i].result();
    }
    return out;
  }
}
