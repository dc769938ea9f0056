package io.eventtime.beam;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.join.RawUnionValue;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollectionView;

/**
 * Gives each row of a group of blocks its exact watermark, and hands the group's rows on by key,
 * in arrival order, for the per-key session fold ({@link FoldSessionsFn}).
 */
final class SessionWatermarksFn
    extends DoFn<KV<Long, Iterable<List<ArrivedRow>>>, KV<io.eventtime.core.Key, RawUnionValue>> {
  private final WindowPlan plan;
  private final PCollectionView<WatermarkIndex> index;

  SessionWatermarksFn(WindowPlan plan, PCollectionView<WatermarkIndex> index) {
    this.plan = plan;
    this.index = index;
  }

  @ProcessElement
  public void process(@Element KV<Long, Iterable<List<ArrivedRow>>> group,
      OutputReceiver<KV<io.eventtime.core.Key, RawUnionValue>> out, ProcessContext c) {
    WatermarkIndex wm = c.sideInput(index);
    long maxBefore = wm.maxBefore(ArrivalWatermarks.firstBlock(group.getKey()));
    List<ArrivedRow> all = new ArrayList<>();
    group.getValue().forEach(all::addAll);
    List<ArrivedRow> rows = ArrivalWatermarks.inArrivalOrder(all, maxBefore, plan.query.delayMillis());
    ArrivalWatermarks.requireDistinctSorted(plan, rows);
    Map<io.eventtime.core.Key, List<ArrivedRow>> byKey = new LinkedHashMap<>();
    for (ArrivedRow r : rows) {
      byKey.computeIfAbsent(plan.key(r.row), k -> new ArrayList<>()).add(r);
    }
    byKey.forEach((key, keyRows) -> out.output(KV.of(key, SessionParts.rows(keyRows))));
  }
}

