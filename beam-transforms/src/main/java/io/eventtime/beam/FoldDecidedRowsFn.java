package io.eventtime.beam;

import io.eventtime.core.Accumulator;
import io.eventtime.core.Watermark;
import io.eventtime.core.WindowAssigner;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.windowing.GlobalWindow;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollectionView;
import org.apache.beam.sdk.values.TupleTag;

/**
 * Folds, per bundle, each row whose windows are the same at the lowest and at the highest
 * watermark its block allows: its exact watermark cannot change where it lands, so it needs
 * no other row. The rest (late rows and those near a window's close) go on keyed by group of
 * blocks, a batch per group of each batch taken in.
 */
final class FoldDecidedRowsFn extends DoFn<List<ArrivedRow>, KV<WindowKey, Accumulator[]>> {
  /** Partials held at most before they are handed on, so that a bundle of many keys takes bounded memory. */
  private static final int MAX_HELD_PARTIALS = 1 << 16;
  private final WindowPlan plan;
  private final int blockBits;
  private final Carry carry;
  private final PCollectionView<WatermarkIndex> index;
  private final TupleTag<KV<WindowKey, Accumulator[]>> partials;
  private final TupleTag<KV<Long, List<ArrivedRow>>> undecided;
  private final Counter rowsFolded = EventTimeMetrics.counter(EventTimeMetrics.ROWS_FOLDED);
  private transient WindowAssigner assigner;
  private transient long[] starts;
  private transient long[] startsAtHighest;
  private transient Partials bundle;

  FoldDecidedRowsFn(WindowPlan plan, int blockBits, Carry carry, PCollectionView<WatermarkIndex> index,
      TupleTag<KV<WindowKey, Accumulator[]>> partials, TupleTag<KV<Long, List<ArrivedRow>>> undecided) {
    this.plan = plan;
    this.blockBits = blockBits;
    this.carry = carry;
    this.index = index;
    this.partials = partials;
    this.undecided = undecided;
  }

  @Setup
  public void setup() {
    assigner = new WindowAssigner(plan.query.spec(), plan.query.latePolicy());
    starts = new long[assigner.maxWindowsPerRow()];
    startsAtHighest = new long[assigner.maxWindowsPerRow()];
  }

  @StartBundle
  public void startBundle() {
    bundle = new Partials(plan.aggregates(), assigner.sizeMillis());
  }

  @ProcessElement
  public void process(@Element List<ArrivedRow> batch, MultiOutputReceiver out, ProcessContext c) {
    WatermarkIndex wm = c.sideInput(index);
    long delay = plan.query.delayMillis();
    long folded = 0;
    Map<Long, List<ArrivedRow>> undecidedByGroup = new LinkedHashMap<>();
    for (ArrivedRow r : batch) {
      long block = r.position >> blockBits;
      int n = assigner.landing(r.eventTime, Watermark.after(wm.maxBefore(block), delay), starts);
      if (n == 0 || n != assigner.landing(r.eventTime, Watermark.after(wm.maxThrough(block), delay), startsAtHighest)) {
        undecidedByGroup.computeIfAbsent(ArrivalWatermarks.groupOfBlock(block), g -> new ArrayList<>()).add(r);
      } else {
        folded++;
        bundle.add(plan.key(r.row), starts, n, plan.inputs(r.row), carry.arrival(r));
      }
    }
    rowsFolded.inc(folded);
    undecidedByGroup.forEach((group, rows) -> out.get(undecided).output(KV.of(group, rows)));
    if (bundle.size() >= MAX_HELD_PARTIALS) {
      bundle.forEach((k, v) -> out.get(partials).outputWithTimestamp(KV.of(k, v), bundle.timestamp(k)));
      bundle = new Partials(plan.aggregates(), assigner.sizeMillis());
    }
  }

  @FinishBundle
  public void finishBundle(FinishBundleContext c) {
    bundle.forEach((k, v) -> c.output(partials, KV.of(k, v), bundle.timestamp(k), GlobalWindow.INSTANCE));
    bundle = null;
  }

  @Override
  @SuppressWarnings("deprecation") // rows stamped after their event time (at arrival) give earlier partials
  public org.joda.time.Duration getAllowedTimestampSkew() {
    return org.joda.time.Duration.millis(Long.MAX_VALUE);
  }
}

