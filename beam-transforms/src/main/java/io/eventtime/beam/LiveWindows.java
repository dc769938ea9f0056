package io.eventtime.beam;

import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.NullableCoder;
import org.apache.beam.sdk.coders.RowCoder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.state.Timer;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.Flatten;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.Values;
import org.apache.beam.sdk.transforms.display.DisplayData;
import org.apache.beam.sdk.transforms.windowing.GlobalWindow;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionList;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.TupleTagList;
import org.joda.time.Instant;

/**
 * {@link EventTimeWindow} on an unbounded input of one or more partitions
 * (docs/design/live-streams.md, section 3): each row's partition and event time are read where it
 * is, rows without them rejected at once ({@link ReadLiveRowsFn}); each partition's rows are put
 * back in position order with the partition's watermark before each ({@link OrderPartitionFn});
 * each key bucket folds its rows with the core's {@code PartitionedWindowProcessor}, learning every
 * partition's watermark, and emits each window as soon as the stream's watermark closes it
 * ({@link FoldBucketFn}); the distinct intervals emitted are counted, and with close order the
 * window rows ranked in the order one processor would emit them ({@link LiveWindowsClosed}). Only
 * portable Beam: state, event-time timers and standard coders, and with an idle timeout a
 * processing-time timer per partition, started by one marker per partition flattened into the rows.
 *
 * <p>With a state ({@link EventTimeWindow#withState}, {@link LiveState}) the run goes on from the
 * stored watermarks and windows: one start marker per key bucket flattened into the releases
 * gives each bucket its part; rows at positions the state has taken in already are rejected with
 * the reason; at the end of the input the buckets' held states meet in {@link LiveHandOffFn},
 * which writes the hand-off, and no window still open is emitted.
 */
final class LiveWindows extends PTransform<PCollection<Row>, EventTimeWindowResult> {
  /** The package of Beam's Spark runners (SparkRunner, SparkStructuredStreamingRunner, their test runners). */
  private static final String SPARK_RUNNERS = "org.apache.beam.runners.spark.";
  /** The rows of one partition are folded in this many groups of keys, so that the fold spreads over workers. */
  static final int KEY_BUCKETS = 16;
  // static, as every step's tags are: an anonymous tag made in an instance holds that instance (see ReadEventTimes)
  private static final TupleTag<KV<Integer, ArrivedRow>> ROWS = new TupleTag<>("rows") {};
  private static final TupleTag<Row> REJECTED = new TupleTag<>("rejected") {};
  private static final TupleTag<KV<Integer, LiveWindowsClosed.Report>> CLOSED = new TupleTag<>("closed") {};
  private static final TupleTag<KV<Integer, HeldBucket>> HANDED_ON = new TupleTag<>("handedOn") {};
  private final WindowPlan plan;
  private final LivePartitions partitions;
  /** The idle timeout in milliseconds, 0 for none. */
  private final long idleTimeoutMillis;
  /** The stored state the run goes on from and hands on to, null when it keeps none. */
  private final LiveState state;
  /** Whether the window rows are ranked in close order ({@link EventTimeWindow#withCloseOrder}). */
  private final boolean closeOrder;

  LiveWindows(WindowPlan plan, LivePartitions partitions, long idleTimeoutMillis, LiveState state, boolean closeOrder) {
    this.plan = plan;
    this.closeOrder = closeOrder;
    this.partitions = partitions;
    this.idleTimeoutMillis = idleTimeoutMillis;
    this.state = state;
  }

  /** Refuses, before the run, a runner that cannot run the live path: Beam's Spark runner. */
  static void requireEventTimeTimers(PipelineOptions options) {
    if (options.getRunner().getName().startsWith(SPARK_RUNNERS)) {
      throw new IllegalArgumentException(EventTimeWindow.SPARK_REFUSAL);
    }
  }

  @Override
  public void populateDisplayData(DisplayData.Builder builder) {
    super.populateDisplayData(builder);
    builder.add(DisplayData.item("keyBuckets", KEY_BUCKETS).withLabel("Key groups folded apart"));
    builder.add(DisplayData.item("livePartitions", partitions.describe()).withLabel("Partitions"));
    if (idleTimeoutMillis > 0) {
      builder.add(DisplayData.item("idleTimeout", org.joda.time.Duration.millis(idleTimeoutMillis))
          .withLabel("Idle timeout (wall clock)"));
    }
    if (state != null) {
      builder.add(DisplayData.item("stateHandoff", state.handoff()).withLabel("State hand-off file"));
    }
  }

  @Override
  public EventTimeWindowResult expand(PCollection<Row> input) {
    PCollectionTuple read = input.apply("ReadEventTimes",
        ParDo.of(new ReadLiveRowsFn(plan, partitions, state, ROWS, REJECTED)).withOutputTags(ROWS, TupleTagList.of(REJECTED)));
    FoldedWindows.Tags out = FoldedWindows.Tags.create();
    PCollection<KV<Integer, ArrivedRow>> arrived = read.get(ROWS)
        .setCoder(KvCoder.of(VarIntCoder.of(), new ArrivedRow.ArrivedRowCoder(plan.input)));
    if (idleTimeoutMillis > 0) {
      arrived = withStartMarkers(arrived);
    }
    KvCoder<Integer, LiveBatch> batchCoder = KvCoder.of(VarIntCoder.of(), LiveBatch.coder(plan.input));
    PCollection<KV<Integer, LiveBatch>> releases = arrived
        .apply("OrderPartition", ParDo.of(new OrderPartitionFn(plan, partitions, KEY_BUCKETS, idleTimeoutMillis, state)))
        .setCoder(batchCoder);
    if (state != null) {
      releases = withBucketStarts(releases, batchCoder);
    }
    PCollectionTuple folded = releases
        .apply("FoldBuckets", ParDo.of(new FoldBucketFn(plan, partitions, out.windows(), out.late(), CLOSED,
                idleTimeoutMillis, state, HANDED_ON, closeOrder))
            .withOutputTags(out.windows(), TupleTagList.of(out.late()).and(CLOSED).and(HANDED_ON)));
    PCollection<KV<Integer, HeldBucket>> held = folded.get(HANDED_ON)
        .setCoder(KvCoder.of(VarIntCoder.of(), HeldBucket.coder(plan.query.aggregates())));
    if (state != null) {
      held.apply("HandOffState", ParDo.of(new LiveHandOffFn(plan, state, KEY_BUCKETS)));
    }
    PCollection<KV<Long, Row>> ranked = folded.get(CLOSED)
        .setCoder(KvCoder.of(VarIntCoder.of(), LiveWindowsClosed.Report.coder(plan.output)))
        .apply("WindowsClosed", ParDo.of(new LiveWindowsClosed(KEY_BUCKETS, plan, closeOrder)))
        .setCoder(KvCoder.of(VarLongCoder.of(), RowCoder.of(plan.output)));
    PCollection<Row> unranked = folded.get(out.windows()).setRowSchema(plan.output); // empty with close order
    PCollection<Row> windows = closeOrder
        ? ranked.apply("RankedWindows", Values.create()).setRowSchema(plan.output) : unranked;
    return new EventTimeWindowResult(input.getPipeline(), windows, closeOrder ? ranked : null,
        folded.get(out.late()).setRowSchema(plan.problems), read.get(REJECTED).setRowSchema(plan.problems));
  }

  /**
   * The rows with one start marker (a null row) per partition, so that every partition's idle
   * timer starts with the run, also for a partition that never has a row.
   */
  private PCollection<KV<Integer, ArrivedRow>> withStartMarkers(PCollection<KV<Integer, ArrivedRow>> rows) {
    List<KV<Integer, ArrivedRow>> markers = new ArrayList<>();
    for (int p = 0; p < partitions.count(); p++) {
      markers.add(KV.of(p, null));
    }
    KvCoder<Integer, ArrivedRow> coder =
        KvCoder.of(VarIntCoder.of(), NullableCoder.of(new ArrivedRow.ArrivedRowCoder(plan.input)));
    PCollection<KV<Integer, ArrivedRow>> started =
        rows.getPipeline().apply("StartIdleTimers", Create.of(markers).withCoder(coder));
    return PCollectionList.of(rows.setCoder(coder)).and(started)
        .apply("WithStartMarkers", Flatten.pCollections()).setCoder(coder);
  }

  /** The releases with one start marker per key bucket, so that every bucket takes up its part of the stored state. */
  private PCollection<KV<Integer, LiveBatch>> withBucketStarts(PCollection<KV<Integer, LiveBatch>> releases,
      KvCoder<Integer, LiveBatch> coder) {
    List<KV<Integer, LiveBatch>> starts = new ArrayList<>();
    for (int b = 0; b < KEY_BUCKETS; b++) {
      starts.add(KV.of(b, LiveBatch.start()));
    }
    PCollection<KV<Integer, LiveBatch>> started =
        releases.getPipeline().apply("StartBuckets", Create.of(starts).withCoder(coder));
    return PCollectionList.of(releases).and(started).apply("WithBucketStarts", Flatten.pCollections()).setCoder(coder);
  }

  /**
   * Sets {@code timer} to fire once Beam's watermark has passed {@code stamp} (so that every
   * element stamped at or before it has come), unless it is set to fire sooner; {@code at} keeps
   * when it is set.
   */
  static void armAfter(long stamp, ValueState<Long> at, Timer timer) {
    long when = Math.min(stamp + 1, GlobalWindow.INSTANCE.maxTimestamp().getMillis());
    Long set = at.read();
    if (set == null || when < set) {
      timer.set(new Instant(when));
      at.write(when);
    }
  }

  /**
   * Reads each row's partition, position and event time where it is, or rejects it with the
   * reason at once (it keeps its timestamp), as it rejects a row at a position the stored state
   * has taken in already; the rows go on keyed by their partition's place in partition order.
   */
  static final class ReadLiveRowsFn extends DoFn<Row, KV<Integer, ArrivedRow>> {
    private final WindowPlan plan;
    private final LivePartitions partitions;
    private final LiveState state;
    private final TupleTag<KV<Integer, ArrivedRow>> rows;
    private final TupleTag<Row> rejected;
    private final Counter rowsIn = EventTimeMetrics.counter(EventTimeMetrics.ROWS_IN);
    private final Counter rowsRejected = EventTimeMetrics.counter(EventTimeMetrics.ROWS_REJECTED);

    ReadLiveRowsFn(WindowPlan plan, LivePartitions partitions, LiveState state, TupleTag<KV<Integer, ArrivedRow>> rows,
        TupleTag<Row> rejected) {
      this.plan = plan;
      this.partitions = partitions;
      this.state = state;
      this.rows = rows;
      this.rejected = rejected;
    }

    @ProcessElement
    public void process(@Element Row row, MultiOutputReceiver out) {
      rowsIn.inc();
      int partition = partitions.indexOf(row);
      if (partition < 0) {
        rowsRejected.inc();
        Long position = plan.position(row);
        String where = position == null ? "" : plan.where(position) + ", ";
        out.get(rejected).output(
            ProblemRows.of(plan.problems, row, partitions.field(), where + partitions.unknownReason(row)));
        return;
      }
      Long position = state == null ? null : plan.position(row);
      String inState = position == null ? null : state.takenInAlready(partition, position);
      if (inState != null) {
        rowsRejected.inc();
        out.get(rejected).output(ProblemRows.of(plan.problems, row, plan.arrivalField,
            partitions.where(partition) + plan.where(position) + ": " + inState));
        return;
      }
      ArrivedRow arrived = ReadEventTimesFn.read(plan, row, out.get(rejected)::output);
      if (arrived == null) {
        rowsRejected.inc();
        return;
      }
      out.get(rows).output(KV.of(partition, arrived));
    }
  }
}
