package io.eventtime.beam;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.beam.sdk.coders.KvCoder;
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
import org.apache.beam.sdk.values.TimestampedValue;
import org.joda.time.Instant;

/**
 * Counts the windows closed on the live path ({@value EventTimeMetrics#WINDOWS_CLOSED}): the
 * distinct intervals the key buckets emit, one window of several keys being one window. On one
 * partition every bucket learns each watermark step from the same release, so all the rows of one
 * interval carry that release's timestamp: the intervals wait, keyed by one key, until Beam's
 * watermark has passed their timestamp, are counted once, and are forgotten. Memory is the
 * intervals of the releases not yet passed.
 */
final class CountLiveWindowsClosed extends DoFn<KV<Integer, KV<Long, Long>>, Void> {
  private final Counter windowsClosed = EventTimeMetrics.counter(EventTimeMetrics.WINDOWS_CLOSED);

  @StateId("intervals")
  private final StateSpec<BagState<TimestampedValue<KV<Long, Long>>>> intervalsSpec = StateSpecs.bag(
      TimestampedValue.TimestampedValueCoder.of(KvCoder.of(VarLongCoder.of(), VarLongCoder.of())));

  @StateId("countAt")
  private final StateSpec<ValueState<Long>> countAtSpec = StateSpecs.value(NullableCoder.of(VarLongCoder.of()));

  @TimerId("count")
  private final TimerSpec countSpec = TimerSpecs.timer(TimeDomain.EVENT_TIME);

  @ProcessElement
  public void process(@Element KV<Integer, KV<Long, Long>> interval, @Timestamp Instant stamp,
      @StateId("intervals") BagState<TimestampedValue<KV<Long, Long>>> intervals,
      @StateId("countAt") ValueState<Long> countAt, @TimerId("count") Timer count) {
    intervals.add(TimestampedValue.of(interval.getValue(), stamp));
    LiveWindows.armAfter(stamp.getMillis(), countAt, count);
  }

  @OnTimer("count")
  public void onCount(OnTimerContext c, @StateId("intervals") BagState<TimestampedValue<KV<Long, Long>>> intervals,
      @StateId("countAt") ValueState<Long> countAt, @TimerId("count") Timer count) {
    countAt.clear();
    long before = c.timestamp().getMillis();
    boolean atEnd = before >= GlobalWindow.INSTANCE.maxTimestamp().getMillis();
    Set<KV<Long, Long>> passed = new HashSet<>();
    List<TimestampedValue<KV<Long, Long>>> later = new ArrayList<>();
    for (TimestampedValue<KV<Long, Long>> i : intervals.read()) {
      if (atEnd || i.getTimestamp().getMillis() < before) {
        passed.add(i.getValue());
      } else {
        later.add(i);
      }
    }
    intervals.clear();
    for (TimestampedValue<KV<Long, Long>> i : later) {
      intervals.add(i);
      LiveWindows.armAfter(i.getTimestamp().getMillis(), countAt, count);
    }
    windowsClosed.inc(passed.size());
  }
}
