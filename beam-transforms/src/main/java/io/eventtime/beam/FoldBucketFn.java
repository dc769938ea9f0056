package io.eventtime.beam;

import io.eventtime.core.OpenState;
import io.eventtime.core.WindowProcessor;
import io.eventtime.core.WindowResult;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.beam.sdk.coders.ListCoder;
import org.apache.beam.sdk.coders.NullableCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.metrics.Counter;
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
 * The live path's folding step, keyed by key bucket: the core's {@link WindowProcessor} over the
 * bucket's keys, held between bundles in Beam state as the core's {@link OpenState} (the
 * partition's latest event time, the bucket's next arrival number and its open windows). The
 * releases of {@link OrderPartitionFn} are put back in sequence order (a runner may reorder them
 * between the steps); each row is folded after the processor's watermark is moved to the row's
 * own (the partition's over all keys), so that lateness is the contract's, and after each release
 * to the partition's watermark after it, so that every window it closes leaves at once. The
 * window rows, late rows and closed intervals of a release carry its timestamp; at the end of the
 * input (a timer at the end of the global window) every open window is emitted.
 */
final class FoldBucketFn extends DoFn<KV<Integer, LiveBatch>, Row> {
  private final WindowPlan plan;
  private final TupleTag<Row> windows;
  private final TupleTag<Row> late;
  private final TupleTag<KV<Integer, KV<Long, Long>>> closed;
  private final Counter rowsOut = EventTimeMetrics.counter(EventTimeMetrics.ROWS_OUT);
  private final Counter rowsFolded = EventTimeMetrics.counter(EventTimeMetrics.ROWS_FOLDED);
  private final Counter lateDropped = EventTimeMetrics.counter(EventTimeMetrics.LATE_DROPPED);

  /** The sequence number of the next release to fold, null before the first. */
  @StateId("next")
  private final StateSpec<ValueState<Long>> nextSpec = StateSpecs.value(NullableCoder.of(VarLongCoder.of()));

  /** Releases that came before one sent ahead of them. */
  @StateId("early")
  private final StateSpec<BagState<LiveBatch>> earlySpec;

  @StateId("maxEventTime")
  private final StateSpec<ValueState<Long>> maxEventTimeSpec = StateSpecs.value(NullableCoder.of(VarLongCoder.of()));

  @StateId("nextArrival")
  private final StateSpec<ValueState<Long>> nextArrivalSpec = StateSpecs.value(NullableCoder.of(VarLongCoder.of()));

  @StateId("open")
  private final StateSpec<ValueState<List<OpenState.OpenWindow>>> openSpec;

  @TimerId("end")
  private final TimerSpec endSpec = TimerSpecs.timer(TimeDomain.EVENT_TIME);

  FoldBucketFn(WindowPlan plan, TupleTag<Row> windows, TupleTag<Row> late, TupleTag<KV<Integer, KV<Long, Long>>> closed) {
    this.plan = plan;
    this.windows = windows;
    this.late = late;
    this.closed = closed;
    this.earlySpec = StateSpecs.bag(LiveBatch.coder(plan.input));
    this.openSpec = StateSpecs.value(ListCoder.of(OpenWindowCoder.of(plan.query.aggregates())));
  }

  /** The bucket's processor state in Beam state. */
  private record Held(ValueState<Long> maxEventTime, ValueState<Long> nextArrival,
      ValueState<List<OpenState.OpenWindow>> open) {
    OpenState read() {
      Long arrival = nextArrival.read();
      List<OpenState.OpenWindow> windows = open.read();
      return new OpenState(maxEventTime.read(), arrival == null ? 0 : arrival, windows == null ? List.of() : windows);
    }

    void write(OpenState state) {
      if (state.maxEventTime() == null) {
        maxEventTime.clear();
      } else {
        maxEventTime.write(state.maxEventTime());
      }
      nextArrival.write(state.nextArrival());
      open.write(state.windows());
    }
  }

  @ProcessElement
  public void process(@Element KV<Integer, LiveBatch> element, MultiOutputReceiver out,
      @StateId("next") ValueState<Long> next, @StateId("early") BagState<LiveBatch> early,
      @StateId("maxEventTime") ValueState<Long> maxEventTime, @StateId("nextArrival") ValueState<Long> nextArrival,
      @StateId("open") ValueState<List<OpenState.OpenWindow>> open, @TimerId("end") Timer end) {
    end.set(GlobalWindow.INSTANCE.maxTimestamp());
    Long expectedOrNull = next.read();
    long expected = expectedOrNull == null ? 0 : expectedOrNull;
    LiveBatch batch = element.getValue();
    if (batch.sequence != expected) {
      if (batch.sequence < expected) {
        throw new IllegalStateException("bucket " + element.getKey() + " got release " + batch.sequence
            + " twice: the runner delivered an element twice to one key");
      }
      early.add(batch);
      return;
    }
    Held held = new Held(maxEventTime, nextArrival, open);
    List<LiveBatch> waiting = new ArrayList<>();
    early.read().forEach(waiting::add);
    waiting.sort(Comparator.comparingLong(b -> b.sequence));
    fold(batch, held, out);
    expected++;
    int used = 0;
    while (used < waiting.size() && waiting.get(used).sequence == expected) {
      fold(waiting.get(used++), held, out);
      expected++;
    }
    next.write(expected);
    if (used > 0) {
      early.clear();
      waiting.subList(used, waiting.size()).forEach(early::add);
    }
  }

  /** Folds one release with the core's processor, from the state and back. */
  private void fold(LiveBatch batch, Held held, MultiOutputReceiver out) {
    List<WindowResult> emitted = new ArrayList<>();
    WindowProcessor processor = new WindowProcessor(plan.query, emitted::add, held.read());
    Instant stamp = new Instant(batch.stamp);
    long folded = 0;
    long dropped = 0;
    for (ArrivedRow r : batch.rows) {
      if (r.watermark != ArrivedRow.NO_WATERMARK) {
        processor.advanceWatermarkTo(r.watermark);
      }
      if (processor.process(plan.key(r.row), r.eventTime, plan.inputs(r.row))) {
        folded++;
      } else {
        dropped++;
        out.get(late).outputWithTimestamp(ProblemRows.of(plan.problems, r.row, plan.timeField,
            ProblemRows.lateReasonAt(plan.where(r.position), processor.lateReason(r.eventTime))), stamp);
      }
    }
    if (batch.watermarkAfter != ArrivedRow.NO_WATERMARK) {
      processor.advanceWatermarkTo(batch.watermarkAfter);
    }
    rowsFolded.inc(folded);
    lateDropped.inc(dropped);
    held.write(processor.hold());
    emit(emitted, stamp, out);
  }

  private void emit(List<WindowResult> emitted, Instant stamp, MultiOutputReceiver out) {
    for (WindowResult w : emitted) {
      out.get(windows).outputWithTimestamp(plan.windowRow(w.key(), w.start(), w.end(), w.values()), stamp);
      out.get(closed).outputWithTimestamp(KV.of(0, KV.of(w.start(), w.end())), stamp);
    }
    rowsOut.inc(emitted.size());
  }

  /** The end of the input: every window still open leaves. */
  @OnTimer("end")
  public void onEnd(OnTimerContext c, @Key Integer bucket, MultiOutputReceiver out,
      @StateId("next") ValueState<Long> next, @StateId("early") BagState<LiveBatch> early,
      @StateId("maxEventTime") ValueState<Long> maxEventTime, @StateId("nextArrival") ValueState<Long> nextArrival,
      @StateId("open") ValueState<List<OpenState.OpenWindow>> open) {
    if (early.read().iterator().hasNext()) {
      throw new IllegalStateException("bucket " + bucket + " ended with releases still waiting for release "
          + next.read() + ", which never came");
    }
    List<WindowResult> emitted = new ArrayList<>();
    Held held = new Held(maxEventTime, nextArrival, open);
    WindowProcessor processor = new WindowProcessor(plan.query, emitted::add, held.read());
    processor.finish();
    emit(emitted, c.timestamp(), out);
    maxEventTime.clear();
    nextArrival.clear();
    open.clear();
  }
}
