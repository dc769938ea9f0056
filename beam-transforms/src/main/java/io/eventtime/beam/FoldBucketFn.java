package io.eventtime.beam;

import io.eventtime.core.OpenState;
import io.eventtime.core.PartitionedWindowProcessor;
import io.eventtime.core.WindowResult;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.coders.ListCoder;
import org.apache.beam.sdk.coders.NullableCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Distribution;
import org.apache.beam.sdk.state.BagState;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.StateSpecs;
import org.apache.beam.sdk.state.TimeDomain;
import org.apache.beam.sdk.state.Timer;
import org.apache.beam.sdk.state.TimerSpec;
import org.apache.beam.sdk.state.TimerSpecs;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.windowing.GlobalWindow;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TupleTag;
import org.joda.time.Instant;

/**
 * The live path's folding step, keyed by key bucket: the core's {@link PartitionedWindowProcessor}
 * over the bucket's keys and every partition, held between bundles in Beam state as the core's
 * {@link OpenState} ({@link PartitionedWindowProcessor#hold} and {@link PartitionedWindowProcessor#resume}:
 * each partition's latest event time and next arrival, each partition's part of the open windows,
 * the sessions waiting to be joined across partitions). The releases of {@link OrderPartitionFn}
 * are put back in sequence order per partition (a runner may reorder them between the steps);
 * each row is folded after its partition's watermark in the processor is moved to the row's own
 * (the partition's over all keys), so that lateness is the contract's, and after each release to
 * the partition's watermark after it. Every bucket hears of every step of every partition's
 * watermark, so the processor's stream watermark (the least over the partitions) is the stream's,
 * and each window leaves once it closes it, with the rows of every partition, merged in partition
 * order. The window rows and late rows of a release carry its timestamp; what the bucket emitted
 * and how far it can still emit goes to {@link LiveWindowsClosed} (with close order, the window rows
 * too, instead of to the windows output). At the end of the input (a
 * timer at the end of the global window, which fires when the input is finished or drained) every
 * open window is emitted; with a state ({@link LiveState}) each bucket starts from its keys' part
 * of the stored state instead (a start marker per bucket, {@link LiveBatch#start}, so that every
 * bucket holds its part and hands it on even without a release), and at the end hands its
 * processor's {@code hold()} on to {@link LiveHandOffFn} instead of emitting. The gauge
 * {@value EventTimeMetrics#OPEN_WINDOWS} follows the windows the buckets hold (those handed on at the
 * end stay counted: they are still open, in the state), the distributions
 * {@value EventTimeMetrics#BUCKET_OPEN_WINDOWS} and {@value EventTimeMetrics#BUCKET_STATE_BYTES} what one
 * bucket holds after each fold, and {@value EventTimeMetrics#WINDOW_CLOSE_LATENCY_MS} the wall time from
 * a release to its window rows. A release marked idle moves
 * its partition's watermark as the idle timeout's ({@link PartitionedWindowProcessor#advanceIdleTo}),
 * so that a late row's reason names the timeout; the held state keeps it, and the processor
 * resumed from it is told again.
 */
final class FoldBucketFn extends DoFn<KV<Integer, LiveBatch>, Row> {
  private final WindowPlan plan;
  private final LivePartitions partitions;
  private final TupleTag<Row> windows;
  private final TupleTag<Row> late;
  private final TupleTag<KV<Integer, LiveWindowsClosed.Report>> closed;
  /** The idle timeout in milliseconds, 0 for none: what a late row's reason names. */
  private final long idleTimeoutMillis;
  /** The stored state the buckets start from and hand on to, null when the run keeps none. */
  private final LiveState state;
  private final TupleTag<KV<Integer, HeldBucket>> handedOn;
  /** Whether the window rows go in the reports, to be ranked in close order, rather than out. */
  private final boolean closeOrder;
  private final OpenStateCoder stateCoder;
  private final Counter openWindows = EventTimeMetrics.counter(EventTimeMetrics.OPEN_WINDOWS);
  private final Distribution bucketOpenWindows = EventTimeMetrics.distribution(EventTimeMetrics.BUCKET_OPEN_WINDOWS);
  private final Distribution bucketStateBytes = EventTimeMetrics.distribution(EventTimeMetrics.BUCKET_STATE_BYTES);
  /**
   * Per bucket, the most open windows this instance has seen it hold: its state is encoded for
   * {@code bucket_state_bytes} only when that count reaches a new high (encoding it after every fold
   * cost a tenth of the live path's CPU on Flink). Not state: a new instance just measures again.
   */
  private transient Map<Integer, Integer> mostOpenSeen;
  private final Distribution closeLatency = EventTimeMetrics.distribution(EventTimeMetrics.WINDOW_CLOSE_LATENCY_MS);
  private final Counter rowsOut = EventTimeMetrics.counter(EventTimeMetrics.ROWS_OUT);
  private final Counter rowsFolded = EventTimeMetrics.counter(EventTimeMetrics.ROWS_FOLDED);
  private final Counter lateDropped = EventTimeMetrics.counter(EventTimeMetrics.LATE_DROPPED);

  /** The sequence number of each partition's next release to fold, null before the first release. */
  @StateId("next")
  private final StateSpec<ValueState<List<Long>>> nextSpec = StateSpecs.value(ListCoder.of(VarLongCoder.of()));

  /** Releases that came before one sent ahead of them by their partition. */
  @StateId("early")
  private final StateSpec<BagState<LiveBatch>> earlySpec;

  /** The processor's state, null before the first release. */
  @StateId("held")
  private final StateSpec<ValueState<OpenState>> heldSpec;

  /**
   * How many reports the bucket has sent to the count of closed windows, and the floor of the
   * last: a fold that emitted nothing and left the floor where it was sends none.
   */
  @StateId("reported")
  private final StateSpec<ValueState<List<Long>>> reportedSpec = StateSpecs.value(ListCoder.of(VarLongCoder.of()));

  /** With a state: the last position of each partition that this bucket took in, {@link Long#MIN_VALUE} for none. */
  @StateId("lastPositions")
  private final StateSpec<ValueState<List<Long>>> lastPositionsSpec = StateSpecs.value(ListCoder.of(VarLongCoder.of()));

  @TimerId("end")
  private final TimerSpec endSpec = TimerSpecs.timer(TimeDomain.EVENT_TIME);

  FoldBucketFn(WindowPlan plan, LivePartitions partitions, TupleTag<Row> windows, TupleTag<Row> late,
      TupleTag<KV<Integer, LiveWindowsClosed.Report>> closed, long idleTimeoutMillis, LiveState state,
      TupleTag<KV<Integer, HeldBucket>> handedOn, boolean closeOrder) {
    this.plan = plan;
    this.closeOrder = closeOrder;
    this.state = state;
    this.handedOn = handedOn;
    this.idleTimeoutMillis = idleTimeoutMillis;
    this.partitions = partitions;
    this.windows = windows;
    this.late = late;
    this.closed = closed;
    this.earlySpec = StateSpecs.bag(LiveBatch.coder(plan.input));
    this.stateCoder = OpenStateCoder.of(plan.query.aggregates());
    this.heldSpec = StateSpecs.value(NullableCoder.of(stateCoder));
  }

  @ProcessElement
  public void process(@Element KV<Integer, LiveBatch> element, MultiOutputReceiver out,
      @StateId("next") ValueState<List<Long>> next, @StateId("early") BagState<LiveBatch> early,
      @StateId("held") ValueState<OpenState> held, @StateId("reported") ValueState<List<Long>> reported,
      @StateId("lastPositions") ValueState<List<Long>> lastPositions, @TimerId("end") Timer end) {
    end.set(GlobalWindow.INSTANCE.maxTimestamp());
    if (element.getValue().isStart()) {
      if (held.read() == null) {
        OpenState part = state.bucketPart(element.getKey(), stateCoder);
        held.write(part);
        openWindows.inc(part.windows().size() + part.waiting().size());
      }
      return;
    }
    List<Long> read = next.read();
    List<Long> expected = read == null ? new ArrayList<>(Collections.nCopies(partitions.count(), 0L))
        : new ArrayList<>(read);
    LiveBatch batch = element.getValue();
    long due = expected.get(batch.partition);
    if (batch.sequence != due) {
      if (batch.sequence < due) {
        throw new IllegalStateException("bucket " + element.getKey() + " got release " + batch.sequence
            + " of partition " + partitions.id(batch.partition) + " twice: the runner delivered an element twice to"
            + " one key");
      }
      early.add(batch);
      return;
    }
    Fold fold = new Fold(element.getKey(), held.read(), lastPositions);
    InSequence.take(batch, early, expected, b -> b.partition, b -> b.sequence, b -> fold.fold(b, out));
    next.write(expected);
    fold.hold(held, reported, lastPositions, out);
  }

  /** One processor from the bucket's state, for the releases folded from one element. */
  private final class Fold {
    private final int bucket;
    private final List<WindowResult> emitted = new ArrayList<>();
    private final PartitionedWindowProcessor processor;
    private final List<KV<Long, Long>> intervals = new ArrayList<>();
    /** With close order: the window rows emitted, for the report. */
    private final List<Row> windowRows = new ArrayList<>();
    /** How many windows the bucket held before this fold, as the gauge counts them. */
    private final int openBefore;
    /** With a state: the last position of each partition taken in, else null. */
    private final long[] lastPositions;
    private long latestStamp = Long.MIN_VALUE;

    /**
     * A processor from {@code held}, the bucket's state; before its first release, from its part
     * of the stored state, or afresh when the run keeps none.
     */
    Fold(int bucket, OpenState held, ValueState<List<Long>> positions) {
      this.bucket = bucket;
      OpenState from = held != null || state == null ? held : state.bucketPart(bucket, stateCoder);
      processor = from == null
          ? new PartitionedWindowProcessor(plan.query, partitions.names(), emitted::add)
          : PartitionedWindowProcessor.resume(plan.query, emitted::add, from);
      for (int p = 0; from != null && p < from.partitions().size(); p++) {
        Long idle = from.partitions().get(p).idleWatermark();
        // a run without the timeout keeps the stored advance as its watermark, not as the timeout's
        if (idle != null && idleTimeoutMillis > 0) {
          processor.advanceIdleTo(p, idle, idleTimeoutMillis);
        }
      }
      openBefore = held == null ? 0 : processor.openWindowCount();
      if (state == null) {
        lastPositions = null;
      } else {
        List<Long> read = positions.read();
        lastPositions = new long[partitions.count()];
        for (int p = 0; p < lastPositions.length; p++) {
          lastPositions[p] = read == null ? Long.MIN_VALUE : read.get(p);
        }
      }
    }

    /** Folds one release of one partition: each row at the watermark before it, then the watermark after. */
    void fold(LiveBatch batch, MultiOutputReceiver out) {
      Instant stamp = new Instant(batch.stamp);
      latestStamp = Math.max(latestStamp, batch.stamp);
      int p = batch.partition;
      long folded = 0;
      long dropped = 0;
      for (ArrivedRow r : batch.rows) {
        if (lastPositions != null) {
          lastPositions[p] = Math.max(lastPositions[p], r.position);
        }
        if (r.watermark != ArrivedRow.NO_WATERMARK) {
          processor.advanceWatermarkTo(p, r.watermark);
        }
        if (processor.process(p, plan.key(r.row), r.eventTime, plan.inputs(r.row))) {
          folded++;
        } else {
          dropped++;
          out.get(late).outputWithTimestamp(ProblemRows.of(plan.problems, r.row, plan.timeField,
              ProblemRows.lateReasonAt(partitions.where(p) + plan.where(r.position), processor.lateReason(p, r.eventTime))),
              stamp);
        }
      }
      if (batch.idle) {
        processor.advanceIdleTo(p, batch.watermarkAfter, idleTimeoutMillis);
      } else if (batch.watermarkAfter != ArrivedRow.NO_WATERMARK) {
        processor.advanceWatermarkTo(p, batch.watermarkAfter);
      }
      rowsFolded.inc(folded);
      lateDropped.inc(dropped);
      if (!emitted.isEmpty()) {
        long latency = System.currentTimeMillis() - batch.stamp;
        emitted.forEach(w -> closeLatency.update(latency));
      }
      emit(stamp, out);
    }

    /** The end of the input without a state: every window still open leaves. */
    void finish(Instant stamp, MultiOutputReceiver out) {
      latestStamp = stamp.getMillis();
      processor.finish();
      emit(stamp, out);
      openWindows.dec(openBefore);
    }

    /** The end of the input with a state: the bucket's windows and watermarks go on to the hand-off, not out. */
    void handOn(Instant stamp, MultiOutputReceiver out) {
      latestStamp = stamp.getMillis();
      List<Long> positions = new ArrayList<>();
      for (long last : lastPositions) {
        positions.add(last);
      }
      out.get(handedOn).outputWithTimestamp(KV.of(LiveHandOffFn.KEY, new HeldBucket(bucket, processor.hold(), positions)),
          stamp);
    }

    private void emit(Instant stamp, MultiOutputReceiver out) {
      for (WindowResult w : emitted) {
        Row row = plan.windowRow(w.key(), w.start(), w.end(), w.values());
        if (closeOrder) {
          windowRows.add(row);
        } else {
          out.get(windows).outputWithTimestamp(row, stamp);
        }
        intervals.add(KV.of(w.start(), w.end()));
      }
      rowsOut.inc(emitted.size());
      emitted.clear();
    }

    /**
     * Keeps the processor's state and tells the count of closed windows what this bucket emitted
     * and below which end it can emit no more: the stream's watermark, and below the end of every
     * session still waiting to be joined.
     */
    void hold(ValueState<OpenState> held, ValueState<List<Long>> reported, ValueState<List<Long>> positions,
        MultiOutputReceiver out) {
      Long watermark = processor.watermark();
      int open = processor.openWindowCount();
      OpenState state = processor.hold();
      held.write(state);
      openWindows.inc(open - openBefore);
      bucketOpenWindows.update(open);
      if (mostOpenSeen == null) {
        mostOpenSeen = new HashMap<>();
      }
      Integer most = mostOpenSeen.get(bucket);
      if (most == null || open > most) {
        mostOpenSeen.put(bucket, open);
        bucketStateBytes.update(EventTimeMetrics.encodedSize(stateCoder, state));
      }
      if (lastPositions != null) {
        List<Long> last = new ArrayList<>();
        for (long l : lastPositions) {
          last.add(l);
        }
        positions.write(last);
      }
      long floor = watermark == null ? Long.MIN_VALUE : watermark;
      for (OpenState.OpenWindow w : state.waiting()) {
        floor = Math.min(floor, w.end() - 1);
      }
      report(floor, reported, out);
    }

    void report(long floor, ValueState<List<Long>> reported, MultiOutputReceiver out) {
      List<Long> sent = reported.read();
      if (sent != null && intervals.isEmpty() && sent.get(1) == floor) {
        return;
      }
      long sequence = sent == null ? 0 : sent.get(0);
      reported.write(List.of(sequence + 1, floor));
      out.get(closed).outputWithTimestamp(
          KV.of(LiveWindowsClosed.KEY, new LiveWindowsClosed.Report(bucket, sequence, floor, intervals, windowRows)),
          new Instant(latestStamp));
    }
  }

  /**
   * The end of the input (finished or drained): every window still open leaves, or, with a
   * state, the bucket's part of the state is handed on.
   */
  @OnTimer("end")
  public void onEnd(OnTimerContext c, @Key Integer bucket, MultiOutputReceiver out,
      @StateId("next") ValueState<List<Long>> next, @StateId("early") BagState<LiveBatch> early,
      @StateId("held") ValueState<OpenState> held, @StateId("reported") ValueState<List<Long>> reported,
      @StateId("lastPositions") ValueState<List<Long>> lastPositions) {
    if (early.read().iterator().hasNext()) {
      throw new IllegalStateException("bucket " + bucket + " ended with releases still waiting for releases "
          + next.read() + " (by partition), which never came");
    }
    OpenState bucketState = held.read();
    if (bucketState == null && state == null) {
      return;
    }
    Fold fold = new Fold(bucket, bucketState, lastPositions);
    if (state == null) {
      fold.finish(c.timestamp(), out);
    } else {
      fold.handOn(c.timestamp(), out);
    }
    fold.report(Long.MAX_VALUE, reported, out);
    held.clear();
    next.clear();
    lastPositions.clear();
  }
}
