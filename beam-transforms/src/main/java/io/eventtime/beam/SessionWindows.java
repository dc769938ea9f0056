package io.eventtime.beam;

import io.eventtime.core.Key;
import io.eventtime.core.OpenState;
import io.eventtime.core.WindowSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.FlatMapElements;
import org.apache.beam.sdk.transforms.Flatten;
import org.apache.beam.sdk.transforms.GroupByKey;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.display.DisplayData;
import org.apache.beam.sdk.transforms.join.RawUnionValue;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionList;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.PCollectionView;
import org.apache.beam.sdk.values.TupleTagList;
import org.apache.beam.sdk.values.TypeDescriptor;
import org.apache.beam.sdk.values.TypeDescriptors;

/**
 * Session windows: each row gets its exact watermark within its group of blocks
 * ({@link SessionWatermarksFn}), then each key's rows, with the sessions carried over from the
 * previous run in the same grouping ({@link SessionParts}), are folded in arrival order
 * ({@link FoldSessionsFn}).
 */
final class SessionWindows extends PTransform<PCollection<List<ArrivedRow>>, FoldedWindows> {
  private final WindowPlan plan;
  private final WindowSpec.Session session;
  private final int blockBits;
  private final Carry carry;
  private final PCollectionView<WatermarkIndex> index;
  private final transient List<OpenState.OpenWindow> carried;

  /** {@code carried}: the sessions the previous run left open. */
  SessionWindows(WindowPlan plan, WindowSpec.Session session, int blockBits, Carry carry,
      PCollectionView<WatermarkIndex> index, List<OpenState.OpenWindow> carried) {
    this.plan = plan;
    this.session = session;
    this.blockBits = blockBits;
    this.carry = carry;
    this.index = index;
    this.carried = carried;
  }

  @Override
  public void populateDisplayData(DisplayData.Builder builder) {
    super.populateDisplayData(builder);
    DisplayItems.window(builder, session);
  }

  @Override
  public FoldedWindows expand(PCollection<List<ArrivedRow>> timed) {
    FoldedWindows.Tags out = FoldedWindows.Tags.create();
    Coder<List<ArrivedRow>> batchCoder = new ArrivedRowBatch.BatchCoder(new ArrivedRow.ArrivedRowCoder(plan.input));
    Coder<KV<Key, RawUnionValue>> partsCoder = KvCoder.of(KeyCoder.of(), SessionParts.coder(plan));
    int bits = blockBits;
    PCollection<KV<Key, RawUnionValue>> keyed = timed
        .apply("ByGroup", FlatMapElements
            .into(TypeDescriptors.kvs(TypeDescriptors.longs(), new TypeDescriptor<List<ArrivedRow>>() {}))
            .via((List<ArrivedRow> batch) -> byGroup(batch, bits)))
        .setCoder(KvCoder.of(VarLongCoder.of(), batchCoder))
        .apply("GroupRows", GroupByKey.create())
        .apply("Watermarks", ParDo.of(new SessionWatermarksFn(plan, index)).withSideInputs(index))
        .setCoder(partsCoder);
    List<KV<Key, RawUnionValue>> carriedByKey = new ArrayList<>();
    carried.forEach(w -> carriedByKey.add(KV.of(w.key(), SessionParts.carried(w))));
    PCollection<KV<Key, RawUnionValue>> carriedSessions = timed.getPipeline()
        .apply("CarriedSessions", Create.of(carriedByKey).withCoder(partsCoder))
        .apply("EarliestCarriedTimestamps", RowTimestamps.earliest());
    PCollectionTuple folded = PCollectionList.of(keyed).and(carriedSessions)
        .apply("RowsAndCarried", Flatten.pCollections())
        .apply("GroupKeys", GroupByKey.create())
        .apply("FoldSessions", ParDo.of(new FoldSessionsFn(plan, session, carry, index, out)).withSideInputs(index)
            .withOutputTags(out.windows(), TupleTagList.of(out.late()).and(out.held())));
    return FoldedWindows.of(plan, folded.get(out.windows()), folded.get(out.late()), folded.get(out.held()));
  }

  /**
   * A batch's rows split by group of blocks, in their order. The rows go on in batches, not one
   * by one: a runner's grouping then handles a few elements per group and key rather than every
   * row, and the batches stay encoded while they wait there ({@link ArrivedRowBatch}).
   */
  static List<KV<Long, List<ArrivedRow>>> byGroup(List<ArrivedRow> batch, int blockBits) {
    Map<Long, List<ArrivedRow>> groups = new LinkedHashMap<>();
    for (ArrivedRow r : batch) {
      groups.computeIfAbsent(ArrivalWatermarks.groupOfBlock(r.position >> blockBits), g -> new ArrayList<>()).add(r);
    }
    List<KV<Long, List<ArrivedRow>>> out = new ArrayList<>(groups.size());
    groups.forEach((group, rows) -> out.add(KV.of(group, rows)));
    return out;
  }
}
