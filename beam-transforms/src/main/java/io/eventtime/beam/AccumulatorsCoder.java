package io.eventtime.beam;

import io.eventtime.core.Accumulator;
import io.eventtime.core.AggregateKind;
import io.eventtime.core.AggregateSpec;
import io.eventtime.core.PartialAggregate;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.beam.sdk.coders.CoderException;
import org.apache.beam.sdk.coders.CustomCoder;
import org.apache.beam.sdk.util.VarInt;

/**
 * Encodes the accumulators of one window, one per aggregate of the query, as the plain state each
 * keeps ({@link PartialAggregate}): a count is one number, not a serialised Java object.
 */
final class AccumulatorsCoder extends CustomCoder<Accumulator[]> {
  /** The flag of a first or last partial that keeps the event time of its row. */
  private static final int BY_ARRIVAL_EVENT_TIME = 2;

  private final AggregateKind[] kinds;

  private AccumulatorsCoder(AggregateKind[] kinds) {
    this.kinds = kinds;
  }

  static AccumulatorsCoder of(List<AggregateSpec> aggregates) {
    return new AccumulatorsCoder(aggregates.stream().map(AggregateSpec::kind).toArray(AggregateKind[]::new));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof AccumulatorsCoder c && Arrays.equals(c.kinds, kinds);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(kinds);
  }

  @Override
  public void encode(Accumulator[] accs, OutputStream out) throws IOException {
    if (accs.length != kinds.length) {
      throw new CoderException("expected " + kinds.length + " accumulators, got " + accs.length);
    }
    for (Accumulator acc : accs) {
      PartialAggregate state = PartialAggregate.of(acc);
      if (state instanceof PartialAggregate.Count c) {
        VarInt.encode(c.count(), out);
      } else if (state instanceof PartialAggregate.Sum s) {
        out.write((s.any() ? 1 : 0) | (s.floating() ? 2 : 0));
        VarInt.encode(s.longSum(), out);
        ValuesCoder.writeDouble(s.doubleSum(), out);
      } else if (state instanceof PartialAggregate.Avg a) {
        VarInt.encode(a.count(), out);
        ValuesCoder.writeDouble(a.sum(), out);
      } else if (state instanceof PartialAggregate.Extreme e) {
        ValuesCoder.encodeValue(e.value(), out);
      } else if (state instanceof PartialAggregate.ByArrival b) {
        // the event time of the row taken, which merging the partials of several partitions needs
        Long eventTime = ((Accumulator.ByArrival) acc).eventTime();
        out.write((b.any() ? 1 : 0) | (eventTime != null ? BY_ARRIVAL_EVENT_TIME : 0));
        VarInt.encode(b.arrival(), out);
        ValuesCoder.encodeValue(b.value(), out);
        if (eventTime != null) {
          VarInt.encode(eventTime, out);
        }
      } else {
        Set<Object> values = ((PartialAggregate.Distinct) state).values();
        VarInt.encode(values.size(), out);
        for (Object v : values) {
          ValuesCoder.encodeValue(v, out);
        }
      }
    }
  }

  @Override
  public Accumulator[] decode(InputStream in) throws IOException {
    Accumulator[] accs = new Accumulator[kinds.length];
    for (int i = 0; i < kinds.length; i++) {
      if (kinds[i] == AggregateKind.FIRST || kinds[i] == AggregateKind.LAST) {
        accs[i] = readByArrival(kinds[i], in);
      } else {
        accs[i] = read(kinds[i], in).toAccumulator(kinds[i]);
      }
    }
    return accs;
  }

  private static Accumulator readByArrival(AggregateKind kind, InputStream in) throws IOException {
    int flags = in.read();
    Accumulator acc = new PartialAggregate.ByArrival((flags & 1) != 0, VarInt.decodeLong(in),
        ValuesCoder.decodeValue(in)).toAccumulator(kind);
    if ((flags & BY_ARRIVAL_EVENT_TIME) != 0) {
      ((Accumulator.ByArrival) acc).restoreEventTime(VarInt.decodeLong(in));
    }
    return acc;
  }

  private static PartialAggregate read(AggregateKind kind, InputStream in) throws IOException {
    switch (kind) {
      case COUNT_ALL:
      case COUNT:
        return new PartialAggregate.Count(VarInt.decodeLong(in));
      case SUM:
        int flags = in.read();
        return new PartialAggregate.Sum((flags & 1) != 0, (flags & 2) != 0, VarInt.decodeLong(in),
            ValuesCoder.readDouble(in));
      case AVG:
        return new PartialAggregate.Avg(VarInt.decodeLong(in), ValuesCoder.readDouble(in));
      case MIN:
      case MAX:
        return new PartialAggregate.Extreme(ValuesCoder.decodeValue(in));
      case COUNT_DISTINCT:
        int n = VarInt.decodeInt(in);
        Set<Object> values = new HashSet<>();
        for (int v = 0; v < n; v++) {
          values.add(ValuesCoder.decodeValue(in));
        }
        return new PartialAggregate.Distinct(values);
      default:
        throw new CoderException("unknown aggregate " + kind);
    }
  }
}
