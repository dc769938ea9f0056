package io.eventtime.beam;

import io.eventtime.core.Watermark;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.beam.sdk.coders.BooleanCoder;
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
import org.apache.beam.sdk.values.TimestampedValue;
import org.joda.time.Duration;
import org.joda.time.Instant;

/**
 * The live path's ordering step, keyed by partition: puts the rows of one partition back in
 * position order and gives each the watermark before it, the contract's watermark over the
 * partition's earlier rows. Beam delivers rows in no order, so they wait in a bag until Beam's
 * input watermark, which follows the rows' arrival stamps, says that every row stamped before a
 * time has come: an event-time timer at the earliest waiting stamp plus a millisecond releases the
 * rows stamped before it, in position order, to their key buckets ({@link LiveBatch}). Every
 * bucket learns each step of the partition's watermark, from a release with rows or without, so
 * that a bucket knows each partition's watermark even when that partition sends it no row. A
 * timer at the end of the global window (the end of the input, or a drain) releases what is left.
 *
 * <p>A row whose position is at or below one already released cannot be put in order any more
 * (its partition's stamps went back, or two rows share a position): the run fails, naming both.
 * The step holds only the rows between their arrival and the runner's next watermark advance.
 *
 * <p>With an idle timeout {@code T} (docs/semantics.md, "Idle partitions"), a processing-time timer
 * per partition, started by the partition's start marker (a null row, one per partition, so that a
 * partition that never has a row goes idle too) and set again at each row, fires after {@code T} of
 * wall clock without a row: the partition's watermark becomes {@code max(watermark, now - delay)},
 * sent to every bucket as a release marked idle, and the timer is set again. While rows of the
 * partition wait to be put in order the partition is not idle (they came within the timeout's
 * reach; they are judged first), so the advance waits for the next firing.
 *
 * <p>With a stored state ({@link LiveState}) each partition's watermark goes on from the state's:
 * its latest event time and idle watermark there, until a row of this run moves them. The gauge
 * {@value EventTimeMetrics#BUFFERED_ROWS} counts the rows waiting here, the distribution
 * {@value EventTimeMetrics#PARTITION_BUFFERED_ROWS} one partition's after each row and release.
 */
final class OrderPartitionFn extends DoFn<KV<Integer, ArrivedRow>, KV<Integer, LiveBatch>> {
  private final WindowPlan plan;
  private final LivePartitions partitions;
  private final int buckets;
  /** The idle timeout in milliseconds, 0 for none. */
  private final long idleTimeoutMillis;
  /** The stored state the partitions' watermarks go on from, null when the run keeps none. */
  private final LiveState state;
  private final Counter bufferedRows = EventTimeMetrics.counter(EventTimeMetrics.BUFFERED_ROWS);
  private final Distribution partitionBuffered = EventTimeMetrics.distribution(EventTimeMetrics.PARTITION_BUFFERED_ROWS);

  @StateId("waiting")
  private final StateSpec<BagState<TimestampedValue<ArrivedRow>>> waitingSpec;

  /** How many rows are waiting, null for none. */
  @StateId("buffered")
  private final StateSpec<ValueState<Long>> bufferedSpec = StateSpecs.value(NullableCoder.of(VarLongCoder.of()));

  /** The position of the last row released, null before the first. */
  @StateId("lastReleased")
  private final StateSpec<ValueState<Long>> lastReleasedSpec = StateSpecs.value(NullableCoder.of(VarLongCoder.of()));

  /** The partition's latest event time so far, null before its first row. */
  @StateId("maxEventTime")
  private final StateSpec<ValueState<Long>> maxEventTimeSpec = StateSpecs.value(NullableCoder.of(VarLongCoder.of()));

  /** How many releases each bucket has been sent: the next one's sequence number. */
  @StateId("sent")
  private final StateSpec<ValueState<List<Long>>> sentSpec = StateSpecs.value(ListCoder.of(VarLongCoder.of()));

  /** When the release timer is set to fire, null while it is not set. */
  @StateId("releaseAt")
  private final StateSpec<ValueState<Long>> releaseAtSpec = StateSpecs.value(NullableCoder.of(VarLongCoder.of()));

  @TimerId("release")
  private final TimerSpec releaseSpec = TimerSpecs.timer(TimeDomain.EVENT_TIME);

  @TimerId("end")
  private final TimerSpec endSpec = TimerSpecs.timer(TimeDomain.EVENT_TIME);

  /** The watermark the idle timeout last set the partition to, null while it set none. */
  @StateId("idleWatermark")
  private final StateSpec<ValueState<Long>> idleWatermarkSpec = StateSpecs.value(NullableCoder.of(VarLongCoder.of()));

  /** Whether the end of the input has come: the idle timer is not set again after it. */
  @StateId("ended")
  private final StateSpec<ValueState<Boolean>> endedSpec = StateSpecs.value(NullableCoder.of(BooleanCoder.of()));

  @TimerId("idle")
  private final TimerSpec idleSpec = TimerSpecs.timer(TimeDomain.PROCESSING_TIME);

  OrderPartitionFn(WindowPlan plan, LivePartitions partitions, int buckets, long idleTimeoutMillis, LiveState state) {
    this.plan = plan;
    this.state = state;
    this.partitions = partitions;
    this.buckets = buckets;
    this.idleTimeoutMillis = idleTimeoutMillis;
    this.waitingSpec = StateSpecs.bag(TimestampedValue.TimestampedValueCoder.of(new ArrivedRow.ArrivedRowCoder(plan.input)));
  }

  @ProcessElement
  public void process(@Element KV<Integer, ArrivedRow> row, @Timestamp Instant stamp,
      @StateId("waiting") BagState<TimestampedValue<ArrivedRow>> waiting,
      @StateId("releaseAt") ValueState<Long> releaseAt, @StateId("buffered") ValueState<Long> buffered,
      @TimerId("release") Timer release, @TimerId("end") Timer end, @TimerId("idle") Timer idle) {
    end.set(GlobalWindow.INSTANCE.maxTimestamp());
    if (idleTimeoutMillis > 0) {
      idle.offset(Duration.millis(idleTimeoutMillis)).setRelative();
    }
    if (row.getValue() == null) {
      return; // the partition's start marker: only the idle timer
    }
    waiting.add(TimestampedValue.of(row.getValue(), stamp));
    Long before = buffered.read();
    long now = before == null ? 1 : before + 1;
    buffered.write(now);
    bufferedRows.inc();
    partitionBuffered.update(now);
    LiveWindows.armAfter(stamp.getMillis(), releaseAt, release);
  }

  /** The idle timeout: no row for the timeout's length of wall clock. */
  @OnTimer("idle")
  public void onIdle(OnTimerContext c, @Key Integer partition,
      @StateId("waiting") BagState<TimestampedValue<ArrivedRow>> waiting,
      @StateId("maxEventTime") ValueState<Long> maxEventTime, @StateId("idleWatermark") ValueState<Long> idleWatermark,
      @StateId("sent") ValueState<List<Long>> sent, @StateId("ended") ValueState<Boolean> ended,
      @TimerId("idle") Timer idle) {
    if (Boolean.TRUE.equals(ended.read())) {
      return;
    }
    // the wall time at which the timeout ran out, not when the runner got to the timer: the advance
    // does not depend on how late the timer fires
    long now = c.fireTimestamp().getMillis();
    idle.offset(Duration.millis(idleTimeoutMillis)).setRelative();
    if (waiting.read().iterator().hasNext()) {
      return;
    }
    long target = now < Long.MIN_VALUE + plan.query.delayMillis() ? Long.MIN_VALUE : now - plan.query.delayMillis();
    if (target <= watermarkOf(maxOf(partition, maxEventTime), idleOf(partition, idleWatermark))) {
      return;
    }
    idleWatermark.write(target);
    send(c, partition, null, target, true, true, sent);
  }

  @OnTimer("release")
  public void onRelease(OnTimerContext c, @Key Integer partition,
      @StateId("waiting") BagState<TimestampedValue<ArrivedRow>> waiting,
      @StateId("lastReleased") ValueState<Long> lastReleased, @StateId("maxEventTime") ValueState<Long> maxEventTime,
      @StateId("sent") ValueState<List<Long>> sent, @StateId("releaseAt") ValueState<Long> releaseAt,
      @StateId("idleWatermark") ValueState<Long> idleWatermark, @StateId("buffered") ValueState<Long> buffered,
      @TimerId("release") Timer release) {
    releaseAt.clear();
    long before = c.timestamp().getMillis();
    List<ArrivedRow> due = new ArrayList<>();
    List<TimestampedValue<ArrivedRow>> later = new ArrayList<>();
    long earliestLater = Long.MAX_VALUE;
    for (TimestampedValue<ArrivedRow> w : waiting.read()) {
      if (w.getTimestamp().getMillis() < before) {
        due.add(w.getValue());
      } else {
        later.add(w);
        earliestLater = Math.min(earliestLater, w.getTimestamp().getMillis());
      }
    }
    waiting.clear();
    for (TimestampedValue<ArrivedRow> w : later) {
      waiting.add(w);
    }
    if (!later.isEmpty()) {
      // one timer for the earliest row left: setting it per row costs a timer change each on Flink
      LiveWindows.armAfter(earliestLater, releaseAt, release);
    }
    released(due.size(), later.size(), buffered);
    release(c, partition, due, lastReleased, maxEventTime, idleOf(partition, idleWatermark), sent);
  }

  @OnTimer("end")
  public void onEnd(OnTimerContext c, @Key Integer partition,
      @StateId("waiting") BagState<TimestampedValue<ArrivedRow>> waiting,
      @StateId("lastReleased") ValueState<Long> lastReleased, @StateId("maxEventTime") ValueState<Long> maxEventTime,
      @StateId("sent") ValueState<List<Long>> sent, @StateId("releaseAt") ValueState<Long> releaseAt,
      @StateId("idleWatermark") ValueState<Long> idleWatermark, @StateId("ended") ValueState<Boolean> ended,
      @StateId("buffered") ValueState<Long> buffered, @TimerId("idle") Timer idle) {
    List<ArrivedRow> due = new ArrayList<>();
    waiting.read().forEach(w -> due.add(w.getValue()));
    waiting.clear();
    releaseAt.clear();
    ended.write(true);
    if (idleTimeoutMillis > 0) {
      idle.clear();
    }
    released(due.size(), 0, buffered);
    release(c, partition, due, lastReleased, maxEventTime, idleOf(partition, idleWatermark), sent);
  }

  /** Keeps the count of waiting rows and the gauges after {@code due} rows left and {@code left} stay. */
  private void released(int due, int left, ValueState<Long> buffered) {
    bufferedRows.dec(due);
    partitionBuffered.update(left);
    if (left == 0) {
      buffered.clear();
    } else {
      buffered.write((long) left);
    }
  }

  /** The partition's latest event time: this run's, or the stored state's before its first row. */
  private Long maxOf(int partition, ValueState<Long> maxEventTime) {
    Long max = maxEventTime.read();
    return max != null || state == null ? max : state.maxEventTime(partition);
  }

  /** The watermark the idle timeout set the partition to: this run's, or the stored state's before any. */
  private Long idleOf(int partition, ValueState<Long> idleWatermark) {
    Long idle = idleWatermark.read();
    return idle != null || state == null ? idle : state.idleWatermark(partition);
  }

  /**
   * Hands the rows on in position order, each with the watermark before it, to their buckets; a
   * bucket without a row of the release still learns the watermark when it moved. The sequence
   * numbers count the releases of this partition to each bucket.
   */
  private void release(OnTimerContext c, int partition, List<ArrivedRow> due, ValueState<Long> lastReleased,
      ValueState<Long> maxEventTime, Long idleWatermark, ValueState<List<Long>> sent) {
    if (due.isEmpty()) {
      return;
    }
    due.sort(Comparator.comparingLong(r -> r.position));
    Long last = lastReleased.read();
    Long max = maxOf(partition, maxEventTime);
    Long maxBefore = max;
    List<List<ArrivedRow>> byBucket = new ArrayList<>();
    for (int b = 0; b < buckets; b++) {
      byBucket.add(new ArrayList<>());
    }
    for (ArrivedRow r : due) {
      if (last != null && r.position <= last) {
        throw outOfOrder(partition, r.position, last);
      }
      last = r.position;
      long watermark = watermarkOf(max, idleWatermark);
      byBucket.get(bucketOf(r)).add(r.withWatermark(watermark));
      max = max == null ? r.eventTime : Math.max(max, r.eventTime);
    }
    lastReleased.write(last);
    maxEventTime.write(max);
    long watermarkAfter = watermarkOf(max, idleWatermark);
    boolean moved = watermarkAfter != watermarkOf(maxBefore, idleWatermark);
    send(c, partition, byBucket, watermarkAfter, moved, false, sent);
  }

  /**
   * Sends each bucket its rows of a release ({@code byBucket}, null for none) with the
   * partition's watermark after it; a bucket without rows only when the watermark {@code moved}.
   * The sequence numbers count the releases of this partition to each bucket.
   */
  private void send(OnTimerContext c, int partition, List<List<ArrivedRow>> byBucket, long watermarkAfter,
      boolean moved, boolean idle, ValueState<List<Long>> sent) {
    List<Long> counts = sent.read();
    List<Long> next = counts == null ? new ArrayList<>() : new ArrayList<>(counts);
    while (next.size() < buckets) {
      next.add(0L);
    }
    long stamp = c.timestamp().getMillis();
    for (int b = 0; b < buckets; b++) {
      List<ArrivedRow> rows = byBucket == null ? List.of() : byBucket.get(b);
      if (moved || !rows.isEmpty()) {
        c.output(KV.of(b, new LiveBatch(partition, next.get(b), stamp, watermarkAfter, rows, idle)));
        next.set(b, next.get(b) + 1);
      }
    }
    sent.write(next);
  }

  /** The partition's watermark from its latest event time (null before its first row) and its idle watermark. */
  private long watermarkOf(Long max, Long idleWatermark) {
    long own = Watermark.after(max == null ? Long.MIN_VALUE : max, plan.query.delayMillis());
    return idleWatermark == null ? own : Math.max(own, idleWatermark);
  }

  private int bucketOf(ArrivedRow r) {
    return plan.key(r.row).hashCode() & (buckets - 1);
  }

  /** A row that can no longer be put in order: the run stops rather than decide lateness on a wrong order. */
  private IllegalStateException outOfOrder(int index, long position, long released) {
    int partition = partitions.id(index);
    String what = position == released
        ? "two rows of partition " + partition + " have the same position (" + plan.where(position) + ")"
        : "the row at " + plan.where(position) + " of partition " + partition + " came after the row at "
            + plan.where(released) + " had been released";
    return new IllegalStateException(what + ", so the order in which the partition's rows arrived, which decides"
        + " what is late, is not known: each row needs its own position, and the Beam timestamps of a partition's"
        + " rows (their arrival stamps) must never go back as their positions go on");
  }
}
