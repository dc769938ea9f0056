package io.eventtime.beam;

import io.eventtime.core.WindowResult;
import io.eventtime.core.WindowSpec;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.DelegateCoder;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.ListCoder;
import org.apache.beam.sdk.coders.NullableCoder;
import org.apache.beam.sdk.coders.RowCoder;
import org.apache.beam.sdk.coders.SetCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.state.BagState;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.StateSpecs;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.Row;

/**
 * What the key buckets of the live path closed, taken under one key in each bucket's order. Each
 * bucket sends, after a fold that emitted windows or moved its floor, a {@link Report} of the
 * intervals it emitted and its floor: the end below which it can emit no more (its stream
 * watermark, and below the end of every session it holds waiting to be joined).
 *
 * <p>It counts the windows closed ({@value EventTimeMetrics#WINDOWS_CLOSED}): the distinct
 * intervals, one window of several keys (in several buckets) being one window. An interval is
 * counted the first time it comes and remembered until every bucket's floor is past its end, after
 * which no bucket can emit it again.
 *
 * <p>With close order ({@link EventTimeWindow#withCloseOrder}) the reports carry the window rows
 * too, and it sends each on with its rank, in the order one processor over every partition emits
 * them ({@link WindowResult#CLOSE_ORDER}: by end, then start, then key): a row waits until the
 * least floor of the buckets closes its window ({@link WindowSpec#isClosed}), after which no bucket
 * can emit a row before it. Memory is the intervals, and with close order the rows, between the
 * least and the greatest floor of the buckets.
 */
final class LiveWindowsClosed extends DoFn<KV<Integer, LiveWindowsClosed.Report>, KV<Long, Row>> {
  /** The one key all reports go to. */
  static final int KEY = 0;

  /**
   * What bucket {@code bucket} emitted in its fold number {@code sequence} (0, 1, ... with no
   * gap), and its floor after it; the window rows themselves with close order, else none.
   */
  static final class Report {
    final int bucket;
    final long sequence;
    final long floor;
    final List<KV<Long, Long>> intervals;
    final List<Row> windows;

    Report(int bucket, long sequence, long floor, List<KV<Long, Long>> intervals, List<Row> windows) {
      this.bucket = bucket;
      this.sequence = sequence;
      this.floor = floor;
      this.intervals = List.copyOf(intervals);
      this.windows = List.copyOf(windows);
    }

    /** The reports' coder, for window rows of {@code windowSchema}. */
    static Coder<Report> coder(Schema windowSchema) {
      return DelegateCoder.of(
          KvCoder.of(KvCoder.of(ListCoder.of(VarLongCoder.of()), ListCoder.of(KvCoder.of(VarLongCoder.of(),
              VarLongCoder.of()))), ListCoder.of(RowCoder.of(windowSchema))),
          (Report r) -> KV.of(KV.of(List.of((long) r.bucket, r.sequence, r.floor), r.intervals), r.windows),
          (KV<KV<List<Long>, List<KV<Long, Long>>>, List<Row>> kv) -> new Report(
              kv.getKey().getKey().get(0).intValue(), kv.getKey().getKey().get(1), kv.getKey().getKey().get(2),
              kv.getKey().getValue(), kv.getValue()));
    }
  }

  private final int buckets;
  private final WindowSpec spec;
  private final int keyCount;
  /** Whether the reports carry the window rows, to be sent on in close order. */
  private final boolean closeOrder;
  private final Counter windowsClosed = EventTimeMetrics.counter(EventTimeMetrics.WINDOWS_CLOSED);

  /** Each bucket's next report to take, by bucket. */
  @StateId("next")
  private final StateSpec<ValueState<List<Long>>> nextSpec = StateSpecs.value(ListCoder.of(VarLongCoder.of()));

  /** Each bucket's floor, by bucket; {@link Long#MIN_VALUE} before its first report. */
  @StateId("floors")
  private final StateSpec<ValueState<List<Long>>> floorsSpec = StateSpecs.value(ListCoder.of(VarLongCoder.of()));

  /** Reports that came before one of their bucket sent ahead of them. */
  @StateId("early")
  private final StateSpec<BagState<Report>> earlySpec;

  /** The intervals counted, until every bucket's floor is past their end. */
  @StateId("counted")
  private final StateSpec<ValueState<Set<KV<Long, Long>>>> countedSpec = StateSpecs.value(
      NullableCoder.of(SetCoder.of(KvCoder.of(VarLongCoder.of(), VarLongCoder.of()))));

  /** With close order: the window rows taken whose window the least floor has not closed yet. */
  @StateId("waiting")
  private final StateSpec<BagState<Row>> waitingSpec;

  /** With close order: the rank of the next window row sent on. */
  @StateId("rank")
  private final StateSpec<ValueState<Long>> rankSpec = StateSpecs.value(VarLongCoder.of());

  /**
   * Takes the reports of {@code buckets} buckets; with {@code closeOrder} they carry {@code plan}'s
   * window rows, sent on ranked.
   */
  LiveWindowsClosed(int buckets, WindowPlan plan, boolean closeOrder) {
    this.buckets = buckets;
    this.closeOrder = closeOrder;
    this.spec = plan.query.spec();
    this.keyCount = plan.query.keyFields().size();
    this.earlySpec = StateSpecs.bag(Report.coder(plan.output));
    this.waitingSpec = StateSpecs.bag(RowCoder.of(plan.output));
  }

  @ProcessElement
  public void process(@Element KV<Integer, Report> element, @StateId("next") ValueState<List<Long>> next,
      @StateId("floors") ValueState<List<Long>> floors, @StateId("early") BagState<Report> early,
      @StateId("counted") ValueState<Set<KV<Long, Long>>> counted, @StateId("waiting") BagState<Row> waiting,
      @StateId("rank") ValueState<Long> rank, OutputReceiver<KV<Long, Row>> out) {
    Report report = element.getValue();
    List<Long> expected = orFilled(next.read(), 0L);
    if (report.sequence != expected.get(report.bucket)) {
      early.add(report);
      return;
    }
    List<Long> floor = orFilled(floors.read(), Long.MIN_VALUE);
    Set<KV<Long, Long>> seen = counted.read() == null ? new HashSet<>() : new HashSet<>(counted.read());
    List<Row> taken = new ArrayList<>();
    InSequence.take(report, early, expected, r -> r.bucket, r -> r.sequence, r -> take(r, floor, seen, taken));
    long least = Collections.min(floor);
    seen.removeIf(interval -> interval.getValue() < least);
    next.write(expected);
    floors.write(floor);
    counted.write(seen);
    if (closeOrder) {
      sendClosed(least, taken, waiting, rank, out);
    }
  }

  private void take(Report report, List<Long> floor, Set<KV<Long, Long>> seen, List<Row> taken) {
    long fresh = 0;
    for (KV<Long, Long> interval : report.intervals) {
      if (seen.add(interval)) {
        fresh++;
      }
    }
    windowsClosed.inc(fresh);
    taken.addAll(report.windows);
    floor.set(report.bucket, Math.max(floor.get(report.bucket), report.floor));
  }

  /**
   * Sends on, in close order and ranked, the rows waiting and {@code taken} whose window the
   * least floor closes; the others wait.
   */
  private void sendClosed(long least, List<Row> taken, BagState<Row> waiting, ValueState<Long> rank,
      OutputReceiver<KV<Long, Row>> out) {
    List<Row> all = new ArrayList<>(taken);
    waiting.read().forEach(all::add);
    List<Closing> closed = new ArrayList<>();
    List<Row> open = new ArrayList<>();
    for (Row r : all) {
      WindowResult w = BeamValues.windowResult(r, keyCount);
      if (least == Long.MAX_VALUE || spec.isClosed(w.end(), least)) {
        closed.add(new Closing(w, r));
      } else {
        open.add(r);
      }
    }
    if (closed.isEmpty()) {
      taken.forEach(waiting::add);
      return;
    }
    closed.sort(Comparator.comparing(Closing::result, WindowResult.CLOSE_ORDER));
    long next = rank.read() == null ? 0 : rank.read();
    for (Closing c : closed) {
      out.output(KV.of(next++, c.row));
    }
    rank.write(next);
    waiting.clear();
    open.forEach(waiting::add);
  }

  private record Closing(WindowResult result, Row row) {}

  private List<Long> orFilled(List<Long> read, long fill) {
    return read == null ? new ArrayList<>(Collections.nCopies(buckets, fill)) : new ArrayList<>(read);
  }
}
