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

  /**
   * Adds one row of event time {@code eventTime}, as {@link #add(Accumulator[], Object[], long)};
   * first and last also keep the event time, to be merged across partitions.
   */
  public void add(Accumulator[] accs, Object[] inputs, long arrival, long eventTime) {
    for (int i = 0; i < accs.length; i++) {
      accs[i].add(inputs[i], arrival, eventTime);
    }
  }

  /** Folds {@code from} into {@code into}, two partials of one partition. */
  public void merge(Accumulator[] into, Accumulator[] from) {
    for (int i = 0; i < into.length; i++) {
      into[i].merge(from[i]);
    }
  }

  /**
   * Folds {@code from}, the partials of a partition after {@code into}'s in partition order, into
   * {@code into} ({@link Accumulator#mergeAcrossPartitions}).
   */
  public void mergeAcrossPartitions(Accumulator[] into, Accumulator[] from) {
    for (int i = 0; i < into.length; i++) {
      into[i].mergeAcrossPartitions(from[i]);
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

  /**
   * Why a sum of whole numbers cannot be given in a 64-bit whole-number column: it overflowed
   * (its accumulator went on in floating point, to about {@code value}). Said the same by every
   * surface that types its columns.
   */
  public static String sumOverflow(String outputName, Key key, long start, long end, double value) {
    return "the sum '" + outputName + "' of window [" + TimeText.format(start) + ", " + TimeText.format(end) + ")"
        + (key.size() == 0 ? "" : " of key " + key.values()) + " overflows a 64-bit whole number (about " + value
        + "): sum a DOUBLE (floating-point) field instead";
  }

  public Object[] results(Accumulator[] accs) {
    Object[] out = new Object[accs.length];
    for (int i = 0; i < accs.length; i++) {
      out[i] = accs[i].result();
    }
    return out;
  }
}
