package io.eventtime.beam;

import java.util.List;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.display.DisplayData;
import org.apache.beam.sdk.transforms.windowing.FixedWindows;
import org.apache.beam.sdk.transforms.windowing.GlobalWindows;
import org.apache.beam.sdk.transforms.windowing.Sessions;
import org.apache.beam.sdk.transforms.windowing.SlidingWindows;
import org.apache.beam.sdk.transforms.windowing.WindowFn;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.TupleTagList;

/**
 * The first part of {@link EventTimeWindow}: each row's arrival position and event time, read
 * where the row is ({@link ReadEventTimesFn}). Its outputs, by these tags: the {@link #ROWS} with
 * their positions and times, in batches; the {@link #REJECTED} rows, those without a usable
 * position or time, with the reason; and the {@link #ARRIVALS}, the positions and times per block,
 * which is all the {@link WatermarkIndex} and the exact watermarks need.
 */
final class ReadEventTimes extends PTransform<PCollection<Row>, PCollectionTuple> {
  // Static: Spark stores each element of a step with several outputs beside its tag, and an
  // anonymous tag made in an instance would carry the transform with it (which Kryo cannot write)
  static final TupleTag<List<ArrivedRow>> ROWS = new TupleTag<>("rows") {};
  static final TupleTag<Row> REJECTED = new TupleTag<>("rejected") {};
  static final TupleTag<KV<Long, ArrivalTimes>> ARRIVALS = new TupleTag<>("arrivals") {};
  private final WindowPlan plan;
  private final int blockBits;

  ReadEventTimes(WindowPlan plan, int blockBits) {
    this.plan = plan;
    this.blockBits = blockBits;
  }

  /** Refuses an input that is not in the global window: the transform windows the rows by event time itself. */
  static void requireGlobalWindow(PCollection<Row> input) {
    if (!(input.getWindowingStrategy().getWindowFn() instanceof GlobalWindows)) {
      throw new IllegalArgumentException("EventTimeWindow windows the rows by event time itself, so its input must be"
          + " in the global window, not in " + describe(input.getWindowingStrategy().getWindowFn())
          + ": apply it before any Window.into, or Window.into(new GlobalWindows()) first");
    }
  }

  /** A Beam window function in words: {@code FixedWindows of PT1M}, not its object identity. */
  private static String describe(WindowFn<?, ?> fn) {
    if (fn instanceof FixedWindows f) {
      return "FixedWindows of " + f.getSize() + (f.getOffset().getMillis() == 0 ? "" : " offset " + f.getOffset());
    }
    if (fn instanceof SlidingWindows w) {
      return "SlidingWindows of " + w.getSize() + " every " + w.getPeriod();
    }
    if (fn instanceof Sessions w) {
      return "Sessions with gap " + w.getGapDuration();
    }
    return fn.getClass().getSimpleName();
  }

  @Override
  public void populateDisplayData(DisplayData.Builder builder) {
    super.populateDisplayData(builder);
    builder.add(DisplayData.item("timeField", plan.timeField).withLabel("Event time field"));
    builder.add(DisplayData.item("blockBits", blockBits).withLabel("Arrival positions per block (bits)"));
  }

  @Override
  public PCollectionTuple expand(PCollection<Row> input) {
    PCollectionTuple read = input.apply("ReadEventTimes",
        ParDo.of(new ReadEventTimesFn(plan, blockBits, ROWS, REJECTED, ARRIVALS))
            .withOutputTags(ROWS, TupleTagList.of(REJECTED).and(ARRIVALS)));
    ArrivedRow.ArrivedRowCoder rowCoder = new ArrivedRow.ArrivedRowCoder(plan.input);
    return PCollectionTuple
        .of(ROWS, read.get(ROWS).setCoder(new ArrivedRowBatch.BatchCoder(rowCoder)).apply("EarliestTimestamps", RowTimestamps.earliest()))
        .and(REJECTED, read.get(REJECTED).setRowSchema(plan.problems))
        .and(ARRIVALS, read.get(ARRIVALS).setCoder(KvCoder.of(VarLongCoder.of(), ArrivalTimes.ArrivalTimesCoder.of()))
            .apply("EarliestArrivalTimestamps", RowTimestamps.earliest()));
  }
}
