package io.eventtime.beam;

import io.eventtime.core.Accumulator;
import io.eventtime.core.OpenState;
import io.eventtime.core.WindowAssigner;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.Flatten;
import org.apache.beam.sdk.transforms.GroupByKey;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.display.DisplayData;
import org.apache.beam.sdk.transforms.join.CoGroupByKey;
import org.apache.beam.sdk.transforms.join.KeyedPCollectionTuple;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionList;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.PCollectionView;
import org.apache.beam.sdk.values.TimestampedValue;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.TupleTagList;
import org.apache.beam.sdk.values.TypeDescriptor;
import org.apache.beam.sdk.values.TypeDescriptors;

/**
 * Tumbling and hopping windows: rows are folded into partial aggregates where they are when
 * their block's watermark bounds decide them ({@link FoldDecidedRowsFn}), else with their group of
 * blocks' arrival times ({@link FoldUndecidedRowsFn}); the partials of each window, with those of
 * the windows carried over from the previous run, are then merged ({@link MergeGridWindowFn}).
 */
final class GridWindows extends PTransform<PCollection<List<ArrivedRow>>, FoldedWindows> {
  /** Each grid window's keys are merged in this many groups, so one window spreads over workers. */
  private static final int KEY_BUCKETS = 16;
  // static, as every step's tags are: an anonymous tag made in an instance holds that instance (see ReadEventTimes)
  private static final TupleTag<KV<WindowKey, Accumulator[]>> PARTIALS = new TupleTag<>("partials") {};
  private static final TupleTag<KV<Long, List<ArrivedRow>>> UNDECIDED = new TupleTag<>("undecided") {};
  private static final TupleTag<ArrivalTimes> TIMES = new TupleTag<>("times") {};
  private static final TupleTag<List<ArrivedRow>> UNDECIDED_ROWS = new TupleTag<>("undecidedRows") {};
  private final WindowPlan plan;
  private final int blockBits;
  private final Carry carry;
  private final PCollectionView<WatermarkIndex> index;
  private final transient PCollection<KV<Long, ArrivalTimes>> arrivals;
  private final transient List<OpenState.OpenWindow> carried;

  /**
   * {@code arrivals}: the positions and times per block ({@link ReadEventTimes}); {@code carried}:
   * the windows the previous run left open.
   */
  GridWindows(WindowPlan plan, int blockBits, Carry carry, PCollectionView<WatermarkIndex> index,
      PCollection<KV<Long, ArrivalTimes>> arrivals, List<OpenState.OpenWindow> carried) {
    this.plan = plan;
    this.blockBits = blockBits;
    this.carry = carry;
    this.index = index;
    this.arrivals = arrivals;
    this.carried = carried;
  }

  @Override
  public void populateDisplayData(DisplayData.Builder builder) {
    super.populateDisplayData(builder);
    DisplayItems.window(builder, plan.query.spec());
    builder.add(DisplayData.item("keyBuckets", KEY_BUCKETS).withLabel("Key groups merged apart per window"));
  }

  @Override
  public FoldedWindows expand(PCollection<List<ArrivedRow>> timed) {
    FoldedWindows.Tags out = FoldedWindows.Tags.create();
    KvCoder<WindowKey, Accumulator[]> partialCoder =
        KvCoder.of(WindowKey.WindowKeyCoder.of(), AccumulatorsCoder.of(plan.query.aggregates()));
    KvCoder<Long, List<ArrivedRow>> rowsCoder =
        KvCoder.of(VarLongCoder.of(), new ArrivedRowBatch.BatchCoder(new ArrivedRow.ArrivedRowCoder(plan.input)));
    PCollectionTuple decided = timed.apply("FoldRows",
        ParDo.of(new FoldDecidedRowsFn(plan, blockBits, carry, index, PARTIALS, UNDECIDED)).withSideInputs(index)
            .withOutputTags(PARTIALS, TupleTagList.of(UNDECIDED)));
    PCollection<KV<Long, ArrivalTimes>> groupTimes = arrivals
        .apply("ByGroup", MapElements
            .into(TypeDescriptors.kvs(TypeDescriptors.longs(), TypeDescriptor.of(ArrivalTimes.class)))
            .via((KV<Long, ArrivalTimes> block) ->
                KV.of(ArrivalWatermarks.groupOfBlock(block.getKey()), block.getValue())))
        .setCoder(arrivals.getCoder());
    PCollectionTuple undecided = KeyedPCollectionTuple.of(TIMES, groupTimes)
        .and(UNDECIDED_ROWS, decided.get(UNDECIDED).setCoder(rowsCoder))
        .apply("GroupUndecided", CoGroupByKey.create())
        .apply("FoldUndecided", ParDo.of(new FoldUndecidedRowsFn(plan, carry, index, TIMES, UNDECIDED_ROWS,
                PARTIALS, out.late())).withSideInputs(index)
            .withOutputTags(PARTIALS, TupleTagList.of(out.late())));
    PCollection<KV<WindowKey, Accumulator[]>> carriedPartials = timed.getPipeline()
        .apply("CarriedWindows", Create.timestamped(carriedPartials()).withCoder(partialCoder))
        .apply("EarliestCarriedTimestamps", RowTimestamps.earliest());
    long size = new WindowAssigner(plan.query.spec(), plan.query.latePolicy()).sizeMillis();
    PCollectionTuple rows = PCollectionList.of(decided.get(PARTIALS).setCoder(partialCoder))
        .and(undecided.get(PARTIALS).setCoder(partialCoder))
        .and(carriedPartials)
        .apply("WithCarried", Flatten.pCollections())
        .apply("ByWindow", MapElements
            .into(TypeDescriptors.kvs(TypeDescriptors.kvs(TypeDescriptors.longs(), TypeDescriptors.integers()),
                new TypeDescriptor<KV<WindowKey, Accumulator[]>>() {}))
            .via((KV<WindowKey, Accumulator[]> p) -> KV.of(
                KV.of(p.getKey().start(), p.getKey().key().hashCode() & (KEY_BUCKETS - 1)), p)))
        .setCoder(KvCoder.of(KvCoder.of(VarLongCoder.of(), VarIntCoder.of()), partialCoder))
        .apply("GroupWindows", GroupByKey.create())
        .apply("WindowRows", ParDo.of(new MergeGridWindowFn(plan, size, carry, index, out.windows(), out.held()))
            .withSideInputs(index).withOutputTags(out.windows(), TupleTagList.of(out.held())));
    return FoldedWindows.of(plan, rows.get(out.windows()), undecided.get(out.late()), rows.get(out.held()));
  }

  /** The carried windows' partials, stamped as partials are (at their window's end). */
  private List<TimestampedValue<KV<WindowKey, Accumulator[]>>> carriedPartials() {
    List<TimestampedValue<KV<WindowKey, Accumulator[]>>> out = new ArrayList<>();
    for (OpenState.OpenWindow w : carried) {
      out.add(TimestampedValue.of(KV.of(new WindowKey(w.key(), w.start()), w.accumulators()),
          RowTimestamps.ofWindow(w.end())));
    }
    return out;
  }
}
