package io.eventtime.beam;

import io.eventtime.core.Accumulator;
import io.eventtime.core.Aggregates;
import io.eventtime.core.OpenState;
import java.util.HashMap;
import java.util.Map;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollectionView;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TupleTag;

/**
 * Merges the partial aggregates of one grid window from every block, per key, and turns each
 * key's into its row; a run that holds its state keeps the windows its final watermark leaves
 * open instead. Grouping by window (and a few buckets of keys, to spread a window's keys over
 * workers) rather than by key and window keeps the groups few and large.
 */
final class MergeGridWindowFn extends DoFn<KV<KV<Long, Integer>, Iterable<KV<WindowKey, Accumulator[]>>>, Row> {
  private final WindowPlan plan;
  private final long size;
  private final Carry carry;
  private final PCollectionView<WatermarkIndex> index;
  private final TupleTag<Row> windows;
  private final TupleTag<OpenState.OpenWindow> held;
  private final Counter rowsOut = EventTimeMetrics.counter(EventTimeMetrics.ROWS_OUT);

  MergeGridWindowFn(WindowPlan plan, long size, Carry carry, PCollectionView<WatermarkIndex> index, TupleTag<Row> windows,
      TupleTag<OpenState.OpenWindow> held) {
    this.plan = plan;
    this.size = size;
    this.carry = carry;
    this.index = index;
    this.windows = windows;
    this.held = held;
  }

  @ProcessElement
  public void process(@Element KV<KV<Long, Integer>, Iterable<KV<WindowKey, Accumulator[]>>> group,
      MultiOutputReceiver out, ProcessContext c) {
    Aggregates aggregates = plan.aggregates();
    Map<io.eventtime.core.Key, Accumulator[]> byKey = new HashMap<>();
    for (KV<WindowKey, Accumulator[]> partial : group.getValue()) {
      aggregates.merge(byKey.computeIfAbsent(partial.getKey().key(), k -> aggregates.create()), partial.getValue());
    }
    long start = group.getKey().getKey();
    long end = Partials.windowEnd(start, size);
    if (carry.holding() && !plan.query.spec().isClosed(end, c.sideInput(index).watermarkAtEnd(plan.query.delayMillis()))) {
      byKey.forEach((key, accs) -> out.get(held).output(new OpenState.OpenWindow(key, start, end, accs)));
      return;
    }
    rowsOut.inc(byKey.size());
    byKey.forEach((key, accs) -> out.get(windows).outputWithTimestamp(
        plan.windowRow(key, start, end, aggregates.results(accs)), RowTimestamps.ofWindow(end)));
  }

  @Override
  @SuppressWarnings("deprecation") // on a runner whose grouping stamps at the end of the global window
  public org.joda.time.Duration getAllowedTimestampSkew() {
    return org.joda.time.Duration.millis(Long.MAX_VALUE);
  }
}

