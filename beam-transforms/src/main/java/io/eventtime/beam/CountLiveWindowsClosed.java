package io.eventtime.beam;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.DelegateCoder;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.ListCoder;
import org.apache.beam.sdk.coders.NullableCoder;
import org.apache.beam.sdk.coders.SetCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.state.BagState;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.StateSpecs;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.values.KV;

/**
 * Counts the windows closed on the live path ({@value EventTimeMetrics#WINDOWS_CLOSED}): the
 * distinct intervals the key buckets emit, one window of several keys (in several buckets) being
 * one window. Each bucket sends, after a fold that emitted windows or moved its floor, a
 * {@link Report} of the intervals it emitted and its floor: the end below which it can emit no
 * more (its stream watermark, and below the end of every session it holds waiting to be joined). Under one key, the reports of each bucket are put
 * back in their order; an interval is counted the first time it comes and remembered until every
 * bucket's floor is past its end, after which no bucket can emit it again. Memory is the
 * intervals between the least and the greatest floor of the buckets.
 */
final class CountLiveWindowsClosed extends DoFn<KV<Integer, CountLiveWindowsClosed.Report>, Void> {
  /** The one key all reports go to. */
  static final int KEY = 0;

  /**
   * What bucket {@code bucket} emitted in its fold number {@code sequence} (0, 1, ... with no
   * gap), and its floor after it.
   */
  static final class Report {
    static final Coder<Report> CODER = DelegateCoder.of(
        KvCoder.of(ListCoder.of(VarLongCoder.of()), ListCoder.of(KvCoder.of(VarLongCoder.of(), VarLongCoder.of()))),
        (Report r) -> KV.of(List.of((long) r.bucket, r.sequence, r.floor), r.intervals),
        (KV<List<Long>, List<KV<Long, Long>>> kv) -> new Report(kv.getKey().get(0).intValue(), kv.getKey().get(1),
            kv.getKey().get(2), kv.getValue()));

    final int bucket;
    final long sequence;
    final long floor;
    final List<KV<Long, Long>> intervals;

    Report(int bucket, long sequence, long floor, List<KV<Long, Long>> intervals) {
      this.bucket = bucket;
      this.sequence = sequence;
      this.floor = floor;
      this.intervals = List.copyOf(intervals);
    }
  }

  private final int buckets;
  private final Counter windowsClosed = EventTimeMetrics.counter(EventTimeMetrics.WINDOWS_CLOSED);

  /** Each bucket's next report to take, by bucket. */
  @StateId("next")
  private final StateSpec<ValueState<List<Long>>> nextSpec = StateSpecs.value(ListCoder.of(VarLongCoder.of()));

  /** Each bucket's floor, by bucket; {@link Long#MIN_VALUE} before its first report. */
  @StateId("floors")
  private final StateSpec<ValueState<List<Long>>> floorsSpec = StateSpecs.value(ListCoder.of(VarLongCoder.of()));

  /** Reports that came before one of their bucket sent ahead of them. */
  @StateId("early")
  private final StateSpec<BagState<Report>> earlySpec = StateSpecs.bag(Report.CODER);

  /** The intervals counted, until every bucket's floor is past their end. */
  @StateId("counted")
  private final StateSpec<ValueState<Set<KV<Long, Long>>>> countedSpec = StateSpecs.value(
      NullableCoder.of(SetCoder.of(KvCoder.of(VarLongCoder.of(), VarLongCoder.of()))));

  CountLiveWindowsClosed(int buckets) {
    this.buckets = buckets;
  }

  @ProcessElement
  public void process(@Element KV<Integer, Report> element, @StateId("next") ValueState<List<Long>> next,
      @StateId("floors") ValueState<List<Long>> floors, @StateId("early") BagState<Report> early,
      @StateId("counted") ValueState<Set<KV<Long, Long>>> counted) {
    Report report = element.getValue();
    List<Long> expected = orFilled(next.read(), 0L);
    if (report.sequence != expected.get(report.bucket)) {
      early.add(report);
      return;
    }
    List<Long> floor = orFilled(floors.read(), Long.MIN_VALUE);
    Set<KV<Long, Long>> seen = counted.read() == null ? new HashSet<>() : new HashSet<>(counted.read());
    List<Report> waiting = new ArrayList<>();
    early.read().forEach(waiting::add);
    int waited = waiting.size();
    take(report, expected, floor, seen);
    boolean more = true;
    while (more) {
      more = false;
      for (int i = 0; i < waiting.size(); i++) {
        Report w = waiting.get(i);
        if (w.sequence == expected.get(w.bucket)) {
          take(w, expected, floor, seen);
          waiting.remove(i);
          more = true;
          break;
        }
      }
    }
    long least = Collections.min(floor);
    seen.removeIf(interval -> interval.getValue() < least);
    next.write(expected);
    floors.write(floor);
    counted.write(seen);
    if (waiting.size() < waited) {
      early.clear();
      waiting.forEach(early::add);
    }
  }

  private void take(Report report, List<Long> expected, List<Long> floor, Set<KV<Long, Long>> seen) {
    long fresh = 0;
    for (KV<Long, Long> interval : report.intervals) {
      if (seen.add(interval)) {
        fresh++;
      }
    }
    windowsClosed.inc(fresh);
    expected.set(report.bucket, report.sequence + 1);
    floor.set(report.bucket, Math.max(floor.get(report.bucket), report.floor));
  }

  private List<Long> orFilled(List<Long> read, long fill) {
    return read == null ? new ArrayList<>(Collections.nCopies(buckets, fill)) : new ArrayList<>(read);
  }
}
