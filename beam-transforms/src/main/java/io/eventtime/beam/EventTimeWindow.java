package io.eventtime.beam;

import io.eventtime.core.Accumulator;
import io.eventtime.core.AggregateKind;
import io.eventtime.core.AggregateSpec;
import io.eventtime.core.Aggregates;
import io.eventtime.core.EventTimeException;
import io.eventtime.core.EventTimeParser;
import io.eventtime.core.LatePolicy;
import io.eventtime.core.SessionSet;
import io.eventtime.core.WindowAssigner;
import io.eventtime.core.WindowQuery;
import io.eventtime.core.WindowSpec;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.SerializableCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.transforms.Combine;
import org.apache.beam.sdk.transforms.Distinct;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.GroupByKey;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.View;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionList;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.PCollectionView;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.TupleTagList;
import org.apache.beam.sdk.values.TypeDescriptors;

/**
 * Groups rows into tumbling, hopping or session windows of event time, per key, and emits one
 * row per window with its bounds and aggregates; rows that come too late for their windows go
 * to a late output, rows without a usable event time to a rejected output, each with the reason.
 *
 * <p>The input is a bounded replay of a stream: each row carries its arrival position (by
 * default in the field {@value #DEFAULT_ARRIVAL_FIELD}, as {@link NdjsonIO} writes it). Lateness is
 * decided from those positions, exactly as the contract says, whatever the runner's bundling:
 * the watermark before a row is the latest event time of the rows that arrived before it, less
 * the delay. The work spreads over workers: blocks of consecutive positions are processed in
 * parallel, each knowing the latest event time before it from a small side input.
 *
 * <pre>{@code
 * EventTimeWindow.Result r = rows.apply(
 *     EventTimeWindow.of(WindowSpec.tumbling(60_000))
 *         .withTimeField("event_time")
 *         .withKeys("merchant")
 *         .withAggregates(AggregateSpec.countAll("n"), AggregateSpec.of(AggregateKind.SUM, "amount", "total"))
 *         .withWatermarkDelay(Duration.ofMinutes(5))
 *         .withLatePolicy(LatePolicy.EVENT));
 * r.windows();   // merchant, window_start, window_end, n, total
 * r.late();      // the late rows with the reason
 * r.rejected();  // the rows without a usable event time, with the field and the reason
 * }</pre>
 *
 * <p>The stats are Beam counters in the {@value EventTimeMetrics#NAMESPACE} namespace; read them
 * with {@link EventTimeMetrics#stats}.
 */
public final class EventTimeWindow extends PTransform<PCollection<Row>, EventTimeWindowResult> {
  public static final String DEFAULT_ARRIVAL_FIELD = "_arrival";
  /** Arrival positions per block are 2^16: large enough to fold rows before the shuffle. */
  static final int DEFAULT_BLOCK_BITS = 16;

  private final WindowQuery query;
  private final String timeField;
  private final EventTimeParser parser;
  private final String arrivalField;
  private final String startName;
  private final String endName;
  private final int blockBits;

  private EventTimeWindow(WindowQuery query, String timeField, EventTimeParser parser, String arrivalField,
      String startName, String endName, int blockBits) {
    this.query = query;
    this.timeField = timeField;
    this.parser = parser;
    this.arrivalField = arrivalField;
    this.startName = startName;
    this.endName = endName;
    this.blockBits = blockBits;
  }

  /** Windows of {@code spec}, with no keys, no aggregates, no delay and the {@code window} policy. */
  public static EventTimeWindow of(WindowSpec spec) {
    return new EventTimeWindow(WindowQuery.of(spec), null, EventTimeParser.defaults(), DEFAULT_ARRIVAL_FIELD,
        "window_start", "window_end", DEFAULT_BLOCK_BITS);
  }

  /** The whole query at once. */
  public static EventTimeWindow of(WindowQuery query) {
    return of(query.spec()).withQuery(query);
  }

  private EventTimeWindow withQuery(WindowQuery q) {
    return new EventTimeWindow(q, timeField, parser, arrivalField, startName, endName, blockBits);
  }

  /** The field that holds each row's event time (DATETIME, INT64 epoch or a date-time STRING). */
  public EventTimeWindow withTimeField(String field) {
    return new EventTimeWindow(query, field, parser, arrivalField, startName, endName, blockBits);
  }

  /** How event times are read from strings and numbers (default: ISO-8601, epoch ms, UTC). */
  public EventTimeWindow withTimeParser(EventTimeParser p) {
    return new EventTimeWindow(query, timeField, p, arrivalField, startName, endName, blockBits);
  }

  public EventTimeWindow withKeys(String... fields) {
    return withQuery(query.withKeys(fields));
  }

  public EventTimeWindow withAggregates(AggregateSpec... aggregates) {
    return withQuery(query.withAggregates(aggregates));
  }

  /** Adds one aggregate to those already given. */
  public EventTimeWindow withAggregate(AggregateKind kind, String field, String outputName) {
    List<AggregateSpec> all = new ArrayList<>(query.aggregates());
    all.add(AggregateSpec.of(kind, field, outputName));
    return withQuery(query.withAggregates(all.toArray(AggregateSpec[]::new)));
  }

  public EventTimeWindow withWatermarkDelay(java.time.Duration delay) {
    return withQuery(query.withDelay(delay.toMillis()));
  }

  public EventTimeWindow withLatePolicy(LatePolicy policy) {
    return withQuery(query.withLatePolicy(policy));
  }

  /** The INT64 field that holds each row's arrival position (default {@value #DEFAULT_ARRIVAL_FIELD}). */
  public EventTimeWindow withArrivalField(String field) {
    return new EventTimeWindow(query, timeField, parser, field, startName, endName, blockBits);
  }

  /** The names of the window bound columns (default {@code window_start}, {@code window_end}). */
  public EventTimeWindow withWindowFieldNames(String start, String end) {
    return new EventTimeWindow(query, timeField, parser, arrivalField, start, end, blockBits);
  }

  /**
   * How many consecutive arrival positions form a block, as a power of two: smaller blocks
   * spread over more workers, larger ones fold more rows before the shuffle.
   */
  public EventTimeWindow withBlockBits(int bits) {
    if (bits < 0 || bits > 40) {
      throw new IllegalArgumentException("block bits must be between 0 and 40, got " + bits);
    }
    return new EventTimeWindow(query, timeField, parser, arrivalField, startName, endName, bits);
  }

  public WindowQuery query() {
    return query;
  }

  @Override
  public EventTimeWindowResult expand(PCollection<Row> input) {
    if (timeField == null) {
      throw new IllegalArgumentException("no time field: name the field that holds the event time with withTimeField(...)");
    }
    WindowPlan plan = new WindowPlan(query, input.getSchema(), timeField, parser, arrivalField, startName, endName);
    TupleTag<ArrivedRow> timedTag = new TupleTag<>() {};
    TupleTag<Row> rejectedTag = new TupleTag<>() {};
    PCollectionTuple read = input.apply("ReadEventTimes",
        ParDo.of(new ReadEventTimeFn(plan, timedTag, rejectedTag)).withOutputTags(timedTag, TupleTagList.of(rejectedTag)));
    PCollection<ArrivedRow> timed = read.get(timedTag).setCoder(new ArrivedRow.ArrivedRowCoder(plan.input));
    PCollection<Row> rejected = read.get(rejectedTag).setRowSchema(plan.problems);

    PCollectionView<WatermarkIndex> index = timed
        .apply("BlockMaxima", MapElements
            .into(TypeDescriptors.kvs(TypeDescriptors.longs(), TypeDescriptors.longs()))
            .via((ArrivedRow r) -> KV.of(r.position >> blockBits, r.eventTime)))
        .apply("WatermarkIndex", Combine.globally(new WatermarkIndex.BuildFn(ArrivedRow.NO_WATERMARK)).asSingletonView());
    PCollection<KV<Long, Iterable<ArrivedRow>>> blocks = timed
        .apply("ByBlock", MapElements
            .into(TypeDescriptors.kvs(TypeDescriptors.longs(), new org.apache.beam.sdk.values.TypeDescriptor<ArrivedRow>() {}))
            .via((ArrivedRow r) -> KV.of(r.position >> blockBits, r)))
        .setCoder(KvCoder.of(VarLongCoder.of(), timed.getCoder()))
        .apply("GroupBlocks", GroupByKey.create());

    TupleTag<Row> lateTag = new TupleTag<>() {};
    PCollection<Row> windows;
    PCollection<Row> late;
    if (query.spec() instanceof WindowSpec.Session session) {
      PCollection<KV<io.eventtime.core.Key, ArrivedRow>> keyed = blocks
          .apply("Watermarks", ParDo.of(new SessionRowsFn(plan, index)).withSideInputs(index))
          .setCoder(KvCoder.of(KeyCoder.of(), timed.getCoder()));
      TupleTag<Row> windowsTag = new TupleTag<>() {};
      PCollectionTuple folded = keyed
          .apply("GroupKeys", GroupByKey.create())
          .apply("FoldSessions", ParDo.of(new FoldSessionsFn(plan, session, windowsTag, lateTag))
              .withOutputTags(windowsTag, TupleTagList.of(lateTag)));
      windows = folded.get(windowsTag);
      late = folded.get(lateTag);
    } else {
      TupleTag<KV<WindowKey, Accumulator[]>> partialTag = new TupleTag<>() {};
      PCollectionTuple folded = blocks.apply("FoldBlocks",
          ParDo.of(new FoldBlockFn(plan, index, partialTag, lateTag)).withSideInputs(index)
              .withOutputTags(partialTag, TupleTagList.of(lateTag)));
      SerializableCoder<Accumulator[]> accCoder = SerializableCoder.of(Accumulator[].class);
      late = folded.get(lateTag);
      windows = folded.get(partialTag)
          .setCoder(KvCoder.of(WindowKey.WindowKeyCoder.of(), accCoder))
          .apply("MergePartials", Combine.perKey(new MergePartialsFn(plan)))
          .apply("WindowRows", ParDo.of(new GridRowFn(plan, windowSize(query.spec()))));
    }
    windows = windows.setRowSchema(plan.output);
    late = late.setRowSchema(plan.problems);
    windows
        .apply("WindowBounds", MapElements
            .into(TypeDescriptors.kvs(TypeDescriptors.longs(), TypeDescriptors.longs()))
            .via((Row r) -> KV.of(r.getDateTime(startName).getMillis(), r.getDateTime(endName).getMillis())))
        .apply("DistinctWindows", Distinct.create())
        .apply("CountWindowsClosed", ParDo.of(new CountFn(EventTimeMetrics.WINDOWS_CLOSED)));
    return new EventTimeWindowResult(input.getPipeline(), windows, late, rejected);
  }

  private static long windowSize(WindowSpec spec) {
    return spec instanceof WindowSpec.Tumbling t ? t.sizeMillis() : ((WindowSpec.Hopping) spec).sizeMillis();
  }

  /** Rows in arrival order within one block, each with the watermark before it. */
  private static List<ArrivedRow> withWatermarks(Iterable<ArrivedRow> rows, long maxBefore, long delay) {
    List<ArrivedRow> sorted = new ArrayList<>();
    rows.forEach(sorted::add);
    sorted.sort(Comparator.comparingLong(r -> r.position));
    long max = maxBefore;
    for (int i = 0; i < sorted.size(); i++) {
      ArrivedRow r = sorted.get(i);
      sorted.set(i, r.withWatermark(max == ArrivedRow.NO_WATERMARK ? ArrivedRow.NO_WATERMARK : max - delay));
      max = Math.max(max, r.eventTime);
    }
    return sorted;
  }

  /** Reads each row's position and event time, or rejects it with the reason. */
  private static final class ReadEventTimeFn extends DoFn<Row, ArrivedRow> {
    private final WindowPlan plan;
    private final TupleTag<ArrivedRow> main;
    private final TupleTag<Row> rejected;
    private final Counter rowsIn = EventTimeMetrics.counter(EventTimeMetrics.ROWS_IN);
    private final Counter rowsRejected = EventTimeMetrics.counter(EventTimeMetrics.ROWS_REJECTED);

    ReadEventTimeFn(WindowPlan plan, TupleTag<ArrivedRow> main, TupleTag<Row> rejected) {
      this.plan = plan;
      this.main = main;
      this.rejected = rejected;
    }

    @ProcessElement
    public void process(@Element Row row, MultiOutputReceiver out) {
      rowsIn.inc();
      Long position = plan.position(row);
      if (position == null) {
        rowsRejected.inc();
        out.get(rejected).output(ProblemRows.of(plan.problems, row, null,
            "the row has no arrival position, so its lateness cannot be decided"));
        return;
      }
      long ts;
      try {
        ts = plan.eventTime(row);
      } catch (EventTimeException e) {
        rowsRejected.inc();
        out.get(rejected).output(ProblemRows.of(plan.problems, row, plan.timeField,
            "arrival " + position + ", field " + plan.timeField + ": " + e.getMessage()));
        return;
      }
      out.get(main).output(new ArrivedRow(position, ts, ArrivedRow.NO_WATERMARK, row));
    }
  }

  /** Folds one block's rows into partial window aggregates; the late rows go to the late output. */
  private static final class FoldBlockFn extends DoFn<KV<Long, Iterable<ArrivedRow>>, KV<WindowKey, Accumulator[]>> {
    private final WindowPlan plan;
    private final PCollectionView<WatermarkIndex> index;
    private final TupleTag<KV<WindowKey, Accumulator[]>> partials;
    private final TupleTag<Row> late;
    private final Counter rowsFolded = EventTimeMetrics.counter(EventTimeMetrics.ROWS_FOLDED);
    private final Counter lateDropped = EventTimeMetrics.counter(EventTimeMetrics.LATE_DROPPED);

    FoldBlockFn(WindowPlan plan, PCollectionView<WatermarkIndex> index,
        TupleTag<KV<WindowKey, Accumulator[]>> partials, TupleTag<Row> late) {
      this.plan = plan;
      this.index = index;
      this.partials = partials;
      this.late = late;
    }

    @ProcessElement
    public void process(@Element KV<Long, Iterable<ArrivedRow>> block, MultiOutputReceiver out, ProcessContext c) {
      WatermarkIndex wm = c.sideInput(index);
      WindowAssigner assigner = new WindowAssigner(plan.query.spec(), plan.query.latePolicy());
      Aggregates aggregates = plan.aggregates();
      long[] starts = new long[assigner.maxWindowsPerRow()];
      Map<WindowKey, Accumulator[]> byWindow = new HashMap<>();
      long folded = 0;
      for (ArrivedRow r : withWatermarks(block.getValue(), wm.maxBefore(block.getKey()), plan.query.delayMillis())) {
        int n = assigner.landing(r.eventTime, r.watermark, starts);
        if (n == 0) {
          lateDropped.inc();
          out.get(late).output(ProblemRows.of(plan.problems, r.row, plan.timeField,
              "arrival " + r.position + ": " + WindowAssigner.lateReason(plan.query.latePolicy(), r.eventTime, r.watermark)));
          continue;
        }
        folded++;
        io.eventtime.core.Key key = plan.key(r.row);
        Object[] inputs = plan.inputs(r.row);
        for (int i = 0; i < n; i++) {
          aggregates.add(byWindow.computeIfAbsent(new WindowKey(key, starts[i]), k -> aggregates.create()),
              inputs, r.position);
        }
      }
      rowsFolded.inc(folded);
      byWindow.forEach((k, v) -> out.get(partials).output(KV.of(k, v)));
    }
  }

  /** Gives each row its watermark, keyed for the per-key session fold. */
  private static final class SessionRowsFn extends DoFn<KV<Long, Iterable<ArrivedRow>>, KV<io.eventtime.core.Key, ArrivedRow>> {
    private final WindowPlan plan;
    private final PCollectionView<WatermarkIndex> index;

    SessionRowsFn(WindowPlan plan, PCollectionView<WatermarkIndex> index) {
      this.plan = plan;
      this.index = index;
    }

    @ProcessElement
    public void process(@Element KV<Long, Iterable<ArrivedRow>> block, OutputReceiver<KV<io.eventtime.core.Key, ArrivedRow>> out,
        ProcessContext c) {
      WatermarkIndex wm = c.sideInput(index);
      for (ArrivedRow r : withWatermarks(block.getValue(), wm.maxBefore(block.getKey()), plan.query.delayMillis())) {
        out.output(KV.of(plan.key(r.row), r));
      }
    }
  }

  /** Folds one key's rows, in arrival order, into its sessions. */
  private static final class FoldSessionsFn extends DoFn<KV<io.eventtime.core.Key, Iterable<ArrivedRow>>, Row> {
    private final WindowPlan plan;
    private final WindowSpec.Session spec;
    private final TupleTag<Row> windows;
    private final TupleTag<Row> late;
    private final Counter rowsFolded = EventTimeMetrics.counter(EventTimeMetrics.ROWS_FOLDED);
    private final Counter lateDropped = EventTimeMetrics.counter(EventTimeMetrics.LATE_DROPPED);
    private final Counter rowsOut = EventTimeMetrics.counter(EventTimeMetrics.ROWS_OUT);

    FoldSessionsFn(WindowPlan plan, WindowSpec.Session spec, TupleTag<Row> windows, TupleTag<Row> late) {
      this.plan = plan;
      this.spec = spec;
      this.windows = windows;
      this.late = late;
    }

    @ProcessElement
    public void process(@Element KV<io.eventtime.core.Key, Iterable<ArrivedRow>> group, MultiOutputReceiver out) {
      List<ArrivedRow> rows = new ArrayList<>();
      group.getValue().forEach(rows::add);
      rows.sort(Comparator.comparingLong(r -> r.position));
      io.eventtime.core.Key key = group.getKey();
      SessionSet sessions = new SessionSet(key, spec, plan.query.latePolicy(), plan.aggregates());
      long folded = 0;
      for (ArrivedRow r : rows) {
        emit(sessions.pollClosed(r.watermark), sessions, out.get(windows));
        if (sessions.fold(r.eventTime, plan.inputs(r.row), r.position, r.watermark)) {
          folded++;
        } else {
          lateDropped.inc();
          out.get(late).output(ProblemRows.of(plan.problems, r.row, plan.timeField,
              "arrival " + r.position + ": " + lateReason(r)));
        }
      }
      emit(sessions.pollClosed(Long.MAX_VALUE), sessions, out.get(windows));
      rowsFolded.inc(folded);
    }

    private String lateReason(ArrivedRow r) {
      return plan.query.latePolicy() == LatePolicy.EVENT
          ? WindowAssigner.lateReason(LatePolicy.EVENT, r.eventTime, r.watermark)
          : "its session had closed at watermark " + io.eventtime.core.TimeText.format(r.watermark)
              + " (late policy window)";
    }

    private void emit(List<SessionSet.Session> closed, SessionSet sessions, OutputReceiver<Row> out) {
      for (SessionSet.Session s : closed) {
        rowsOut.inc();
        out.output(plan.windowRow(s.key(), s.start(), sessions.endOf(s), plan.aggregates().results(s.accumulators())));
      }
    }
  }

  /** Merges the partial aggregates of one window of one key from every block. */
  private static final class MergePartialsFn extends Combine.CombineFn<Accumulator[], Accumulator[], Accumulator[]> {
    private final WindowPlan plan;

    MergePartialsFn(WindowPlan plan) {
      this.plan = plan;
    }

    @Override
    public Accumulator[] createAccumulator() {
      return plan.aggregates().create();
    }

    @Override
    public Accumulator[] addInput(Accumulator[] acc, Accumulator[] partial) {
      plan.aggregates().merge(acc, partial);
      return acc;
    }

    @Override
    public Accumulator[] mergeAccumulators(Iterable<Accumulator[]> accs) {
      Accumulator[] merged = createAccumulator();
      for (Accumulator[] a : accs) {
        plan.aggregates().merge(merged, a);
      }
      return merged;
    }

    @Override
    public Accumulator[] extractOutput(Accumulator[] acc) {
      return acc;
    }

    @Override
    public org.apache.beam.sdk.coders.Coder<Accumulator[]> getAccumulatorCoder(
        org.apache.beam.sdk.coders.CoderRegistry registry, org.apache.beam.sdk.coders.Coder<Accumulator[]> in) {
      return SerializableCoder.of(Accumulator[].class);
    }

    @Override
    public org.apache.beam.sdk.coders.Coder<Accumulator[]> getDefaultOutputCoder(
        org.apache.beam.sdk.coders.CoderRegistry registry, org.apache.beam.sdk.coders.Coder<Accumulator[]> in) {
      return SerializableCoder.of(Accumulator[].class);
    }
  }

  /** Turns a grid window's merged aggregates into its row. */
  private static final class GridRowFn extends DoFn<KV<WindowKey, Accumulator[]>, Row> {
    private final WindowPlan plan;
    private final long size;
    private final Counter rowsOut = EventTimeMetrics.counter(EventTimeMetrics.ROWS_OUT);

    GridRowFn(WindowPlan plan, long size) {
      this.plan = plan;
      this.size = size;
    }

    @ProcessElement
    public void process(@Element KV<WindowKey, Accumulator[]> window, OutputReceiver<Row> out) {
      rowsOut.inc();
      WindowKey w = window.getKey();
      out.output(plan.windowRow(w.key(), w.start(), w.start() + size, plan.aggregates().results(window.getValue())));
    }
  }

  /** Counts the elements that reach it, into one counter. */
  private static final class CountFn extends DoFn<KV<Long, Long>, Void> {
    private final Counter counter;

    CountFn(String name) {
      this.counter = EventTimeMetrics.counter(name);
    }

    @ProcessElement
    public void process() {
      counter.inc();
    }
  }
}
