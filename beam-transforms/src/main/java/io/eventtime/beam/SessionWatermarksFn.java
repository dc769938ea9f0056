package io.eventtime.beam;

import java.util.List;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollectionView;

/**
 * Gives each row of a group of blocks its exact watermark, keyed for the per-key session fold
 * ({@link FoldSessionsFn}).
 */
final class SessionWatermarksFn extends DoFn<KV<Long, Iterable<ArrivedRow>>, KV<io.eventtime.core.Key, ArrivedRow>> {
  private final WindowPlan plan;
  private final PCollectionView<WatermarkIndex> index;

  SessionWatermarksFn(WindowPlan plan, PCollectionView<WatermarkIndex> index) {
    this.plan = plan;
    this.index = index;
  }

  @ProcessElement
  public void process(@Element KV<Long, Iterable<ArrivedRow>> group,
      OutputReceiver<KV<io.eventtime.core.Key, ArrivedRow>> out, ProcessContext c) {
    WatermarkIndex wm = c.sideInput(index);
    long maxBefore = wm.maxBefore(ArrivalWatermarks.firstBlock(group.getKey()));
    List<ArrivedRow> rows = ArrivalWatermarks.inArrivalOrder(group.getValue(), maxBefore, plan.query.delayMillis());
    ArrivalWatermarks.requireDistinctSorted(plan, rows);
    for (ArrivedRow r : rows) {
      out.output(KV.of(plan.key(r.row), r));
    }
  }
}

