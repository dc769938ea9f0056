package io.eventtime.core;

import java.io.Serializable;
import java.util.HashSet;
import java.util.Set;

/**
 * The running state of one aggregate in one window. Accumulators merge, so that session
 * windows can be joined and partial results combined across workers. Null inputs are skipped
 * by every aggregate but count(*), first and last. Accumulators are serializable so that
 * engines can move partial aggregates between workers.
 */
public abstract sealed class Accumulator implements Serializable
    permits Accumulator.CountAll, Accumulator.Count, Accumulator.CountDistinct, Accumulator.Sum,
        Accumulator.Extreme, Accumulator.Avg, Accumulator.ByArrival {

  /** Adds the value of a row that arrived at position {@code arrival}. */
  public abstract void add(Object value, long arrival);

  /**
   * Adds the value of a row of event time {@code eventTime} that arrived at position
   * {@code arrival} in its partition: what {@link #mergeAcrossPartitions} needs of first and last.
   */
  public void add(Object value, long arrival, long eventTime) {
    add(value, arrival);
  }

  /** Folds {@code other}, an accumulator of the same aggregate and the same partition, into this one. */
  public abstract void merge(Accumulator other);

  /**
   * Folds {@code other}, the same aggregate's partial of a partition after this one's in partition
   * order, into this one. Arrival positions of two partitions do not compare, so first and last
   * take the row of the earliest (latest) event time, ties going to the earlier (later)
   * partition; every other aggregate merges as {@link #merge} does.
   */
  public void mergeAcrossPartitions(Accumulator other) {
    merge(other);
  }

  /** The aggregate's value; null where no value was seen (a sum, min, max or avg of no values). */
  public abstract Object result();

  /** count(*). */
  public static final class CountAll extends Accumulator {
    long count;

    @Override
    public void add(Object value, long arrival) {
      count++;
    }

    @Override
    public void merge(Accumulator other) {
      count += ((CountAll) other).count;
    }

    @Override
    public Object result() {
      return count;
    }
  }

  /** count(field): the non-null values. */
  public static final class Count extends Accumulator {
    long count;

    @Override
    public void add(Object value, long arrival) {
      if (value != null) {
        count++;
      }
    }

    @Override
    public void merge(Accumulator other) {
      count += ((Count) other).count;
    }

    @Override
    public Object result() {
      return count;
    }
  }

  /** count(distinct field). */
  public static final class CountDistinct extends Accumulator {
    final Set<Object> seen = new HashSet<>();

    @Override
    public void add(Object value, long arrival) {
      if (value != null) {
        seen.add(value);
      }
    }

    @Override
    public void merge(Accumulator other) {
      seen.addAll(((CountDistinct) other).seen);
    }

    @Override
    public Object result() {
      return (long) seen.size();
    }

    public Set<Object> values() {
      return seen;
    }
  }

  /**
   * sum: exact over whole numbers; a double as soon as one value is a double or the whole
   * numbers overflow 64 bits.
   */
  public static final class Sum extends Accumulator {
    boolean any;
    boolean floating;
    long longSum;
    double doubleSum;

    @Override
    public void add(Object value, long arrival) {
      if (value == null) {
        return;
      }
      any = true;
      if (value instanceof Long l && !floating) {
        try {
          longSum = Math.addExact(longSum, l);
        } catch (ArithmeticException overflow) {
          floating = true;
          doubleSum += l;
        }
      } else {
        floating = true;
        doubleSum += ((Number) value).doubleValue();
      }
    }

    @Override
    public void merge(Accumulator other) {
      Sum o = (Sum) other;
      any |= o.any;
      if (o.floating) {
        floating = true;
        doubleSum += o.doubleSum;
      }
      try {
        longSum = Math.addExact(longSum, o.longSum);
      } catch (ArithmeticException overflow) {
        floating = true;
        doubleSum += o.longSum;
      }
    }

    @Override
    public Object result() {
      return resultOf(any, floating, longSum, doubleSum);
    }

    /** A sum's result from its parts, wherever they are kept ({@link GridPartials} keeps them in slots). */
    static Object resultOf(boolean any, boolean floating, long longSum, double doubleSum) {
      if (!any) {
        return null;
      }
      return floating ? (Double) (doubleSum + longSum) : (Object) longSum;
    }
  }

  /** min or max. */
  public static final class Extreme extends Accumulator {
    final boolean max;
    Object best;

    Extreme(boolean max) {
      this.max = max;
    }

    @Override
    public void add(Object value, long arrival) {
      if (value == null) {
        return;
      }
      if (best == null) {
        best = value;
      } else {
        int c = Values.compare(value, best);
        if (max ? c > 0 : c < 0) {
          best = value;
        }
      }
    }

    @Override
    public void merge(Accumulator other) {
      add(((Extreme) other).best, 0);
    }

    @Override
    public Object result() {
      return best;
    }
  }

  /** avg, as a double. */
  public static final class Avg extends Accumulator {
    long count;
    double sum;

    @Override
    public void add(Object value, long arrival) {
      if (value != null) {
        count++;
        sum += ((Number) value).doubleValue();
      }
    }

    @Override
    public void merge(Accumulator other) {
      Avg o = (Avg) other;
      count += o.count;
      sum += o.sum;
    }

    @Override
    public Object result() {
      return count == 0 ? null : sum / count;
    }
  }

  /**
   * first or last, by arrival position within a partition; across partitions by the event time
   * of each partition's first (last) row ({@link #mergeAcrossPartitions}).
   */
  public static final class ByArrival extends Accumulator {
    final boolean last;
    boolean any;
    long arrival;
    Object value;
    /** The event time of the row taken, null when it was added without one. */
    Long eventTime;

    ByArrival(boolean last) {
      this.last = last;
    }

    @Override
    public void add(Object v, long at) {
      take(v, at, null);
    }

    @Override
    public void add(Object v, long at, long ts) {
      take(v, at, ts);
    }

    private void take(Object v, long at, Long ts) {
      if (!any || (last ? at > arrival : at < arrival)) {
        any = true;
        arrival = at;
        value = v;
        eventTime = ts;
      }
    }

    @Override
    public void merge(Accumulator other) {
      ByArrival o = (ByArrival) other;
      if (o.any) {
        take(o.value, o.arrival, o.eventTime);
      }
    }

    @Override
    public void mergeAcrossPartitions(Accumulator other) {
      ByArrival o = (ByArrival) other;
      if (!o.any) {
        return;
      }
      if (any && (eventTime == null || o.eventTime == null)) {
        throw new IllegalStateException("a " + (last ? "last" : "first") + " partial without the event time of its "
            + "row cannot be merged with another partition's");
      }
      // ties: first keeps the earlier partition's row (this one), last takes the later one's
      if (!any || (last ? o.eventTime >= eventTime : o.eventTime < eventTime)) {
        any = true;
        arrival = o.arrival;
        value = o.value;
        eventTime = o.eventTime;
      }
    }

    /**
     * The event time of the row taken, or null when none was taken or it was added without one:
     * what a store of several partitions' partials keeps beside {@link PartialAggregate.ByArrival}.
     */
    public Long eventTime() {
      return any ? eventTime : null;
    }

    /** Puts back the event time of the row taken, for a partial restored from a store. */
    public void restoreEventTime(long ts) {
      eventTime = ts;
    }

    @Override
    public Object result() {
      return value;
    }
  }
}
