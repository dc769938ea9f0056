package io.eventtime.beam;

import io.eventtime.core.Accumulator;
import io.eventtime.core.WindowAssigner;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.join.CoGbkResult;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollectionView;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TupleTag;

/**
 * Works out the exact watermark of the rows {@link FoldDecidedRowsFn} could not decide, from the
 * positions and times of every row of their group of blocks, and folds them or sends them to
 * the late output with the reason.
 */
final class FoldUndecidedRowsFn extends DoFn<KV<Long, CoGbkResult>, KV<WindowKey, Accumulator[]>> {
  private final WindowPlan plan;
  private final Carry carry;
  private final PCollectionView<WatermarkIndex> index;
  private final TupleTag<ArrivalTimes> timesTag;
  private final TupleTag<List<ArrivedRow>> rowsTag;
  private final TupleTag<KV<WindowKey, Accumulator[]>> partials;
  private final TupleTag<Row> late;
  private final Counter rowsFolded = EventTimeMetrics.counter(EventTimeMetrics.ROWS_FOLDED);
  private final Counter lateDropped = EventTimeMetrics.counter(EventTimeMetrics.LATE_DROPPED);

  FoldUndecidedRowsFn(WindowPlan plan, Carry carry, PCollectionView<WatermarkIndex> index,
      TupleTag<ArrivalTimes> timesTag, TupleTag<List<ArrivedRow>> rowsTag, TupleTag<KV<WindowKey, Accumulator[]>> partials,
      TupleTag<Row> late) {
    this.plan = plan;
    this.carry = carry;
    this.index = index;
    this.timesTag = timesTag;
    this.rowsTag = rowsTag;
    this.partials = partials;
    this.late = late;
  }

  @ProcessElement
  public void process(@Element KV<Long, CoGbkResult> group, MultiOutputReceiver out, ProcessContext c) {
    ArrivalWatermarks.requireDistinctPositions(plan, group.getValue().getAll(timesTag));
    List<ArrivedRow> rows = new ArrayList<>();
    group.getValue().getAll(rowsTag).forEach(rows::addAll);
    if (rows.isEmpty()) {
      return;
    }
    rows.sort(Comparator.comparingLong(r -> r.position));
    long[] watermarks = ArrivalWatermarks.exact(rows, group.getValue().getAll(timesTag),
        c.sideInput(index).maxBefore(ArrivalWatermarks.firstBlock(group.getKey())), plan.query.delayMillis());
    WindowAssigner assigner = new WindowAssigner(plan.query.spec(), plan.query.latePolicy());
    long[] starts = new long[assigner.maxWindowsPerRow()];
    Partials folded = new Partials(plan.aggregates(), assigner.sizeMillis());
    for (int i = 0; i < rows.size(); i++) {
      ArrivedRow r = rows.get(i);
      int n = assigner.landing(r.eventTime, watermarks[i], starts);
      if (n == 0) {
        lateDropped.inc();
        out.get(late).outputWithTimestamp(LateRows.of(plan, r, watermarks[i]), LateRows.timestamp(r));
      } else {
        rowsFolded.inc();
        folded.add(plan.key(r.row), starts, n, plan.inputs(r.row), carry.arrival(r));
      }
    }
    folded.forEach((k, v) -> out.get(partials).outputWithTimestamp(KV.of(k, v), folded.timestamp(k)));
  }

  @Override
  @SuppressWarnings("deprecation") // on a runner whose grouping stamps at the end of the global window
  public org.joda.time.Duration getAllowedTimestampSkew() {
    return org.joda.time.Duration.millis(Long.MAX_VALUE);
  }
}

