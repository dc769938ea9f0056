package io.eventtime.hop.beam;

import io.eventtime.core.ArrivalPosition;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.GlobalWindow;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.hop.core.exception.HopException;
import org.apache.hop.core.exception.HopTransformException;
import org.joda.time.Instant;

/**
 * Runs a chain of Hop transforms (any transform plugin the registry has) row by row on a Beam
 * worker, in a {@link MiniPipeline}. The rows a transform gives for one input row get that row's
 * arrival position fanned out ({@link ArrivalPosition#fanOut}: shifted by
 * {@value ArrivalPosition#FAN_OUT_BITS} bits plus their index), so they keep
 * the order Hop would pass them in. Each worker runs its own copy of the chain, so the
 * transforms must handle each row by itself (filters, calculators, lookups...); transforms that
 * need all rows at once are refused by the translation.
 */
final class HopTransformsFn extends DoFn<Row, Row> {
  private final HopContext context;
  private final List<String> chain;
  private final RowLayout input;
  private final List<String> targets;
  private final List<RowLayout> layouts;
  private final List<TupleTag<Row>> tags;
  private final List<Counter[]> counters = new ArrayList<>();
  private transient MiniPipeline mini;
  private transient long lastPosition;
  /** The Beam timestamp (arrival stamp) of the last input row, which the rows held to a bundle's end keep. */
  private transient Instant lastStamp;
  private transient int[] nextIndex;

  HopTransformsFn(HopContext context, List<String> chain, RowLayout input, List<String> targets,
      List<RowLayout> layouts, List<TupleTag<Row>> tags) {
    this.context = context;
    this.chain = chain;
    this.input = input;
    this.targets = targets;
    this.layouts = layouts;
    this.tags = tags;
    chain.forEach(name -> counters.add(MiniPipeline.countersFor(name)));
  }

  @Setup
  public void setup() throws HopException {
    mini = new MiniPipeline(context, chain, input.rowMeta(), targets);
    nextIndex = new int[targets.size()];
    lastStamp = BoundedWindow.TIMESTAMP_MIN_VALUE; // rows sent before any input row go before every row
  }

  @StartBundle
  public void startBundle() throws HopException {
    mini.startBundle();
  }

  @ProcessElement
  public void process(@Element Row row, @Timestamp Instant stamp, MultiOutputReceiver out) throws HopException {
    lastPosition = RowLayout.arrival(row);
    lastStamp = stamp;
    java.util.Arrays.fill(nextIndex, 0);
    mini.put(input.toHop(row));
    for (int i = 0; i < targets.size(); i++) {
      for (Object[] r : mini.take(i)) {
        out.get(tags.get(i)).output(layouts.get(i).toBeam(mini.layoutOf(i), r, position(i)));
      }
    }
    mini.report(counters);
  }

  /**
   * Sends the rows transforms held to the bundle's end (such as one that writes in batches) with
   * the position and the arrival stamp of the last input row, as if that row had given them: a
   * live partition's stamps must not go back as its positions go on, and the wall clock's time
   * would be ahead of the stamps of the rows that come next.
   */
  @FinishBundle
  public void finishBundle(FinishBundleContext c) throws HopException {
    mini.finishBundle();
    for (int i = 0; i < targets.size(); i++) {
      for (Object[] r : mini.take(i)) {
        c.output(tags.get(i), layouts.get(i).toBeam(mini.layoutOf(i), r, position(i)), lastStamp,
            GlobalWindow.INSTANCE);
      }
    }
    mini.report(counters);
  }

  /** The next position for a row sent to target {@code i} because of the last input row. */
  private long position(int i) throws HopTransformException {
    if (nextIndex[i] >= ArrivalPosition.MAX_FAN_OUT) {
      throw new HopTransformException("the transforms " + chain + " sent more than " + ArrivalPosition.MAX_FAN_OUT
          + " rows to '" + targets.get(i) + "' for one input row, more than the Beam translation can keep in order:"
          + " split the work so that each row gives fewer rows");
    }
    return ArrivalPosition.fanOut(lastPosition, nextIndex[i]++);
  }

  @Teardown
  public void teardown() {
    if (mini != null) {
      mini.close();
    }
  }
}
