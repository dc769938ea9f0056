package io.eventtime.beam;

import io.eventtime.core.Accumulator;
import io.eventtime.core.AggregateKind;
import io.eventtime.core.AggregateSpec;
import io.eventtime.core.Aggregates;
import io.eventtime.core.EventTimeException;
import io.eventtime.core.EventTimeParser;
import io.eventtime.core.LatePolicy;
import io.eventtime.core.OpenState;
import io.eventtime.core.SessionSet;
import io.eventtime.core.WindowAssigner;
import io.eventtime.core.WindowQuery;
import io.eventtime.core.WindowSpec;
import io.eventtime.core.state.StateCodec;
import java.io.IOException;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.CoderRegistry;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.ListCoder;
import org.apache.beam.sdk.coders.SetCoder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.transforms.Combine;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.FlatMapElements;
import org.apache.beam.sdk.transforms.Flatten;
import org.apache.beam.sdk.transforms.GroupByKey;
import org.apache.beam.sdk.transforms.Impulse;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.View;
import org.apache.beam.sdk.transforms.display.DisplayData;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.FixedWindows;
import org.apache.beam.sdk.transforms.windowing.Sessions;
import org.apache.beam.sdk.transforms.windowing.SlidingWindows;
import org.apache.beam.sdk.transforms.windowing.TimestampCombiner;
import org.apache.beam.sdk.transforms.windowing.Window;
import org.apache.beam.sdk.transforms.windowing.WindowFn;
import org.apache.beam.sdk.transforms.windowing.GlobalWindow;
import org.apache.beam.sdk.transforms.windowing.GlobalWindows;
import org.apache.beam.sdk.transforms.join.CoGbkResult;
import org.apache.beam.sdk.transforms.join.CoGroupByKey;
import org.apache.beam.sdk.transforms.join.KeyedPCollectionTuple;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionList;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.PCollectionView;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TimestampedValue;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.TupleTagList;
import org.apache.beam.sdk.values.TypeDescriptor;
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
 * the delay. The work spreads over workers and the rows stay where they are: only each row's
 * position and event time travel, to a small side input of the latest event time before each
 * block of positions; a row that this bound decides is folded in place, the others get their
 * exact watermark from their block's positions and times. The input must be in the global window.
 * Each row needs its own position: two rows with one position (two reads flattened, a constant
 * field) fail the run, since their order of arrival is not known.
 *
 * <p>Window rows carry the Beam timestamp of their window's end less a millisecond, late rows
 * their event time, so that Beam's own windows can take the results on; rejected rows keep the
 * timestamp they came with.
 *
 * <pre>{@code
 * EventTimeWindowResult r = rows.apply(
 *     EventTimeWindow.of(WindowSpecs.tumbling(org.joda.time.Duration.standardMinutes(1)))
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
  /**
   * Arrival positions per block are 2^10 by default: a block's rows span little event time, so
   * the watermark bounds of the block decide almost every row without the rows of the others.
   */
  public static final int DEFAULT_BLOCK_BITS = 10;
  /**
   * Rows whose exact watermark is needed (sessions: all; grid windows: those their block's bounds
   * leave undecided) are settled in groups of 2^6 consecutive blocks: few groups, each of many
   * rows, as a runner handles them best.
   */
  private static final int GROUP_BITS = 6;
  /** Each grid window's keys are merged in this many groups, so one window spreads over workers. */
  private static final int KEY_BUCKETS = 16;
  private static final String NULL_DELAY = "the watermark delay is null: give a duration of zero or more"
      + " (Duration.ZERO for none)";

  private final WindowQuery query;
  private final String timeField;
  private final EventTimeParser parser;
  private final String arrivalField;
  private final String startName;
  private final String endName;
  private final int blockBits;
  private final transient OpenState restored;
  private final String handoff;

  private EventTimeWindow(WindowQuery query, String timeField, EventTimeParser parser, String arrivalField,
      String startName, String endName, int blockBits, OpenState restored, String handoff) {
    this.query = query;
    this.timeField = timeField;
    this.parser = parser;
    this.arrivalField = arrivalField;
    this.startName = startName;
    this.endName = endName;
    this.blockBits = blockBits;
    this.restored = restored;
    this.handoff = handoff;
  }

  /**
   * Windows of {@code spec}, with no keys, no aggregates, no delay and the {@code window} policy;
   * {@link WindowSpecs} makes specs from Beam's and Java's durations.
   */
  public static EventTimeWindow of(WindowSpec spec) {
    return new EventTimeWindow(WindowQuery.of(spec), null, EventTimeParser.defaults(), DEFAULT_ARRIVAL_FIELD,
        "window_start", "window_end", DEFAULT_BLOCK_BITS, OpenState.empty(), null);
  }

  /** The whole query at once: the windows, keys, aggregates, delay and late policy. */
  public static EventTimeWindow of(WindowQuery query) {
    return of(query.spec()).withQuery(query);
  }

  private EventTimeWindow withQuery(WindowQuery q) {
    return new EventTimeWindow(q, timeField, parser, arrivalField, startName, endName, blockBits, restored, handoff);
  }

  /**
   * The field that holds each row's event time: a DATETIME, Beam's SqlTypes.TIMESTAMP or
   * SqlTypes.DATETIME (read in the parser's zone), whole epoch milliseconds or seconds (INT64), or
   * a date-time STRING. Required.
   */
  public EventTimeWindow withTimeField(String field) {
    return new EventTimeWindow(query, field, parser, arrivalField, startName, endName, blockBits, restored, handoff);
  }

  /** How event times are read from strings and numbers (default: ISO-8601, epoch ms, UTC). */
  public EventTimeWindow withTimeParser(EventTimeParser p) {
    return new EventTimeWindow(query, timeField, p, arrivalField, startName, endName, blockBits, restored, handoff);
  }

  /**
   * The fields rows are grouped by, each key's windows apart; they lead each window row. Replaces
   * the keys given before; none (the default) puts all rows in one group.
   */
  public EventTimeWindow withKeys(String... fields) {
    return withQuery(query.withKeys(fields));
  }

  /**
   * What each window row holds: replaces every aggregate given before (with this or
   * {@link #withAggregate}); the rows have their columns in this order, after the bounds.
   */
  public EventTimeWindow withAggregates(AggregateSpec... aggregates) {
    return withQuery(query.withAggregates(aggregates));
  }

  /**
   * Adds one aggregate after those already given (unlike {@link #withAggregates}, which replaces
   * them): {@code kind} over {@code field} (null for {@code count(*)}), as the column {@code outputName}.
   */
  public EventTimeWindow withAggregate(AggregateKind kind, String field, String outputName) {
    List<AggregateSpec> all = new ArrayList<>(query.aggregates());
    all.add(AggregateSpec.of(kind, field, outputName));
    return withQuery(query.withAggregates(all.toArray(AggregateSpec[]::new)));
  }

  /**
   * How far the watermark stays behind the latest event time seen (default zero): a row is late
   * once the watermark has passed its windows (see {@link #withLatePolicy}).
   */
  public EventTimeWindow withWatermarkDelay(java.time.Duration delay) {
    if (delay == null) {
      throw new IllegalArgumentException(NULL_DELAY);
    }
    return withWatermarkDelay(delay.toMillis());
  }

  /** The watermark delay as Beam gives durations ({@link #withWatermarkDelay(java.time.Duration)}). */
  public EventTimeWindow withWatermarkDelay(org.joda.time.Duration delay) {
    if (delay == null) {
      throw new IllegalArgumentException(NULL_DELAY);
    }
    return withWatermarkDelay(delay.getMillis());
  }

  /** The watermark delay in milliseconds ({@link #withWatermarkDelay(java.time.Duration)}). */
  public EventTimeWindow withWatermarkDelay(long delayMillis) {
    return withQuery(query.withDelay(delayMillis));
  }

  /**
   * When a row counts as late: {@link LatePolicy#WINDOW} (the default) once every window it
   * belongs to has closed, {@link LatePolicy#EVENT} once its event time is behind the watermark.
   */
  public EventTimeWindow withLatePolicy(LatePolicy policy) {
    return withQuery(query.withLatePolicy(policy));
  }

  /**
   * The INT64 field that holds each row's arrival position (default {@value #DEFAULT_ARRIVAL_FIELD}):
   * a number per row, unique, that orders the rows as they arrived ({@link ArrivalPositions}).
   */
  public EventTimeWindow withArrivalField(String field) {
    return new EventTimeWindow(query, timeField, parser, field, startName, endName, blockBits, restored, handoff);
  }

  /** The names of the window bound columns (default {@code window_start}, {@code window_end}). */
  public EventTimeWindow withWindowFieldNames(String start, String end) {
    return new EventTimeWindow(query, timeField, parser, arrivalField, start, end, blockBits, restored, handoff);
  }

  /**
   * How many consecutive arrival positions form a block, as a power of two. Each block's latest
   * event time goes into a side input; a row whose windows that bound decides is folded where it
   * is, the others are settled with the positions and times of their block. Smaller blocks
   * decide more rows on the spot and make a larger side input (one entry per block). Arrival
   * positions that are spread out (only every n-th position used) want correspondingly more bits.
   */
  public EventTimeWindow withBlockBits(int bits) {
    if (bits < 0 || bits > 40) {
      throw new IllegalArgumentException("block bits must be between 0 and 40, got " + bits);
    }
    return new EventTimeWindow(query, timeField, parser, arrivalField, startName, endName, bits, restored, handoff);
  }

  /**
   * Carries the watermark and the open windows over from the previous run and on to the next:
   * only the windows this run's watermark closes are emitted, the others are kept in the state.
   * Without it, every window still open at the end of the input is emitted.
   */
  public EventTimeWindow withState(EventTimeState state) {
    return new EventTimeWindow(query, timeField, parser, arrivalField, startName, endName, blockBits,
        state.loaded(), state.handoffPath());
  }

  /** The query this transform runs. */
  public WindowQuery query() {
    return query;
  }

  /** The field of the event time, or null while none was given. */
  public String timeField() {
    return timeField;
  }

  /** The settings a runner's UI shows for this step: the query, the time field and how it is read. */
  @Override
  public void populateDisplayData(DisplayData.Builder builder) {
    super.populateDisplayData(builder);
    DisplayItems.window(builder, query.spec());
    builder.addIfNotNull(DisplayData.item("timeField", timeField).withLabel("Event time field"));
    DisplayItems.parser(builder, parser);
    if (!query.keyFields().isEmpty()) {
      builder.add(DisplayData.item("keys", String.join(", ", query.keyFields())).withLabel("Group by"));
    }
    if (!query.aggregates().isEmpty()) {
      builder.add(DisplayData.item("aggregates",
          String.join(", ", query.aggregates().stream().map(AggregateSpec::toString).toList())).withLabel("Aggregates"));
    }
    builder.add(DisplayData.item("watermarkDelay", org.joda.time.Duration.millis(query.delayMillis()))
        .withLabel("Watermark delay"));
    builder.add(DisplayData.item("latePolicy", query.latePolicy().label()).withLabel("Late policy"));
    builder.add(DisplayData.item("arrivalField", arrivalField).withLabel("Arrival position field"));
    builder.add(DisplayData.item("windowFields", startName + ", " + endName).withLabel("Window bound columns"));
    builder.add(DisplayData.item("blockBits", blockBits).withLabel("Arrival positions per block (bits)"));
    builder.addIfNotNull(DisplayData.item("stateHandoff", handoff).withLabel("State hand-off file"));
  }

  @Override
  public EventTimeWindowResult expand(PCollection<Row> input) {
    if (timeField == null) {
      throw new IllegalArgumentException("no time field: name the field that holds the event time with withTimeField(...)");
    }
    if (!(input.getWindowingStrategy().getWindowFn() instanceof GlobalWindows)) {
      throw new IllegalArgumentException("EventTimeWindow windows the rows by event time itself, so its input must be"
          + " in the global window, not in " + describe(input.getWindowingStrategy().getWindowFn())
          + ": apply it before any Window.into, or Window.into(new GlobalWindows()) first");
    }
    WindowPlan plan = new WindowPlan(query, input.getSchema(), timeField, parser, arrivalField, startName, endName);
    Carry carry = new Carry(restored.nextArrival(), handoff != null);
    TupleTag<List<ArrivedRow>> timedTag = new TupleTag<>() {};
    TupleTag<Row> rejectedTag = new TupleTag<>() {};
    TupleTag<KV<Long, ArrivalTimes>> arrivalsTag = new TupleTag<>() {};
    PCollectionTuple read = input.apply("ReadEventTimes",
        ParDo.of(new ReadEventTimeFn(plan, blockBits, timedTag, rejectedTag, arrivalsTag))
            .withOutputTags(timedTag, TupleTagList.of(rejectedTag).and(arrivalsTag)));
    ArrivedRow.ArrivedRowCoder rowCoder = new ArrivedRow.ArrivedRowCoder(plan.input);
    PCollection<List<ArrivedRow>> timed = read.get(timedTag).setCoder(ListCoder.of(rowCoder))
        .apply("EarliestTimestamps", earliest());
    PCollection<Row> rejected = read.get(rejectedTag).setRowSchema(plan.problems);
    PCollection<KV<Long, ArrivalTimes>> arrivals =
        read.get(arrivalsTag).setCoder(KvCoder.of(VarLongCoder.of(), ArrivalTimes.ArrivalTimesCoder.of()))
            .apply("EarliestArrivalTimestamps", earliest());

    long carriedMax = restored.maxEventTime() == null ? ArrivedRow.NO_WATERMARK : restored.maxEventTime();
    PCollectionView<WatermarkIndex> index =
        arrivals.apply("WatermarkIndex", Combine.globally(new WatermarkIndex.BuildFn(carriedMax)).asSingletonView());

    Coder<OpenState.OpenWindow> heldCoder = OpenWindowCoder.of(query.aggregates());
    Folded folded = query.spec() instanceof WindowSpec.Session session
        ? sessionWindows(session, plan, carry, timed, rowCoder, index, heldCoder)
        : gridWindows(plan, carry, timed, rowCoder, arrivals, index);
    PCollection<Row> windows = folded.windows().setRowSchema(plan.output)
        .apply("WindowRowsAsUsual", Window.<Row>configure().withTimestampCombiner(TimestampCombiner.END_OF_WINDOW));
    PCollection<Row> late = folded.late().setRowSchema(plan.problems)
        .apply("LateRowsAsUsual", Window.<Row>configure().withTimestampCombiner(TimestampCombiner.END_OF_WINDOW));
    PCollection<OpenState.OpenWindow> held = folded.held().setCoder(heldCoder);
    windows
        .apply("WindowBounds", MapElements
            .into(TypeDescriptors.kvs(TypeDescriptors.longs(), TypeDescriptors.longs()))
            .via((Row r) -> KV.of(r.getDateTime(startName).getMillis(), r.getDateTime(endName).getMillis())))
        .setCoder(KvCoder.of(VarLongCoder.of(), VarLongCoder.of()))
        .apply("DistinctWindows", Combine.globally(new CountDistinctFn()))
        .apply("CountWindowsClosed", ParDo.of(new AddToCounterFn(EventTimeMetrics.WINDOWS_CLOSED)));
    if (carry.holding) {
      PCollectionView<List<OpenState.OpenWindow>> heldView = held.apply("HeldWindows", View.asList());
      input.getPipeline()
          .apply("AtEnd", Impulse.create())
          .apply("HandOffState", ParDo.of(new HandOffStateFn(plan.query, timeField, handoff, carry, index, heldView))
              .withSideInputs(index, heldView));
    }
    return new EventTimeWindowResult(input.getPipeline(), windows, late, rejected);
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

  /**
   * The global window, with a group's results at its inputs' earliest timestamp rather than at
   * the end of the global window: what each step takes in is stamped at or before what it gives
   * out (positions and times at the earliest timestamp of their bundle's rows, partials at their
   * window's end), so that Beam's watermark stays behind the window rows and late rows, and Beam's
   * own windows can take them on at their timestamps. That holds for rows stamped at or before
   * their event time (NdjsonIO's, EventTimestamps'); rows stamped later still get their window
   * row's timestamp, behind the watermark then.
   */
  private static <T> Window<T> earliest() {
    return Window.<T>configure().withTimestampCombiner(TimestampCombiner.EARLIEST);
  }

  /** What folding the rows into windows gives: the window rows, the late rows, the windows held open. */
  private record Folded(PCollection<Row> windows, PCollection<Row> late, PCollection<OpenState.OpenWindow> held) {}

  /**
   * Sessions: each row gets its exact watermark within its group of blocks, then each key's rows
   * (and its carried sessions) are folded in arrival order.
   */
  private Folded sessionWindows(WindowSpec.Session session, WindowPlan plan, Carry carry,
      PCollection<List<ArrivedRow>> timed, Coder<ArrivedRow> rowCoder, PCollectionView<WatermarkIndex> index,
      Coder<OpenState.OpenWindow> heldCoder) {
    TupleTag<Row> windowsTag = new TupleTag<>() {};
    TupleTag<Row> lateTag = new TupleTag<>() {};
    TupleTag<OpenState.OpenWindow> heldTag = new TupleTag<>() {};
    TupleTag<ArrivedRow> rowsTag = new TupleTag<>() {};
    TupleTag<OpenState.OpenWindow> carriedTag = new TupleTag<>() {};
    PCollection<KV<io.eventtime.core.Key, ArrivedRow>> keyed = timed
        .apply("ByGroup", FlatMapElements
            .into(TypeDescriptors.kvs(TypeDescriptors.longs(), new TypeDescriptor<ArrivedRow>() {}))
            .via((List<ArrivedRow> batch) -> batch.stream()
                .map(r -> KV.of(r.position >> (blockBits + GROUP_BITS), r)).toList()))
        .setCoder(KvCoder.of(VarLongCoder.of(), rowCoder))
        .apply("GroupRows", GroupByKey.create())
        .apply("Watermarks", ParDo.of(new SessionRowsFn(plan, index)).withSideInputs(index))
        .setCoder(KvCoder.of(KeyCoder.of(), rowCoder));
    PCollection<KV<io.eventtime.core.Key, OpenState.OpenWindow>> carried = timed.getPipeline()
        .apply("CarriedSessions", Create.of(carriedWindows())
            .withCoder(KvCoder.of(KeyCoder.of(), heldCoder)))
        .apply("EarliestCarriedTimestamps", earliest());
    PCollectionTuple folded = KeyedPCollectionTuple.of(rowsTag, keyed).and(carriedTag, carried)
        .apply("GroupKeys", CoGroupByKey.create())
        .apply("FoldSessions", ParDo.of(new FoldSessionsFn(plan, session, carry, index, rowsTag, carriedTag,
                windowsTag, lateTag, heldTag)).withSideInputs(index)
            .withOutputTags(windowsTag, TupleTagList.of(lateTag).and(heldTag)));
    return new Folded(folded.get(windowsTag), folded.get(lateTag), folded.get(heldTag));
  }

  /**
   * Tumbling and hopping windows: rows are folded into partial aggregates where they are when
   * their block's watermark bounds decide them, else with their block's arrival times; the
   * partials of each window are then merged.
   */
  private Folded gridWindows(WindowPlan plan, Carry carry, PCollection<List<ArrivedRow>> timed,
      Coder<ArrivedRow> rowCoder, PCollection<KV<Long, ArrivalTimes>> arrivals, PCollectionView<WatermarkIndex> index) {
    TupleTag<Row> windowsTag = new TupleTag<>() {};
    TupleTag<Row> lateTag = new TupleTag<>() {};
    TupleTag<OpenState.OpenWindow> heldTag = new TupleTag<>() {};
    KvCoder<WindowKey, Accumulator[]> partialCoder =
        KvCoder.of(WindowKey.WindowKeyCoder.of(), AccumulatorsCoder.of(query.aggregates()));
    TupleTag<KV<WindowKey, Accumulator[]>> partialTag = new TupleTag<>() {};
    TupleTag<KV<Long, ArrivedRow>> undecidedTag = new TupleTag<>() {};
    PCollectionTuple decided = timed.apply("FoldRows",
        ParDo.of(new FoldRowsFn(plan, blockBits, carry, index, partialTag, undecidedTag)).withSideInputs(index)
            .withOutputTags(partialTag, TupleTagList.of(undecidedTag)));
    TupleTag<ArrivalTimes> timesTag = new TupleTag<>() {};
    TupleTag<ArrivedRow> undecidedRowsTag = new TupleTag<>() {};
    PCollection<KV<Long, ArrivalTimes>> groupTimes = arrivals
        .apply("ByGroup", MapElements
            .into(TypeDescriptors.kvs(TypeDescriptors.longs(), TypeDescriptor.of(ArrivalTimes.class)))
            .via((KV<Long, ArrivalTimes> block) -> KV.of(block.getKey() >> GROUP_BITS, block.getValue())))
        .setCoder(arrivals.getCoder());
    PCollectionTuple undecided = KeyedPCollectionTuple.of(timesTag, groupTimes)
        .and(undecidedRowsTag, decided.get(undecidedTag).setCoder(KvCoder.of(VarLongCoder.of(), rowCoder)))
        .apply("GroupUndecided", CoGroupByKey.create())
        .apply("FoldUndecided", ParDo.of(new FoldUndecidedFn(plan, carry, index, timesTag, undecidedRowsTag,
                partialTag, lateTag)).withSideInputs(index)
            .withOutputTags(partialTag, TupleTagList.of(lateTag)));
    PCollection<KV<WindowKey, Accumulator[]>> carried = timed.getPipeline()
        .apply("CarriedWindows", Create.timestamped(carriedPartials()).withCoder(partialCoder))
        .apply("EarliestCarriedTimestamps", earliest());
    PCollectionTuple rows = PCollectionList.of(decided.get(partialTag).setCoder(partialCoder))
        .and(undecided.get(partialTag).setCoder(partialCoder))
        .and(carried)
        .apply("WithCarried", Flatten.pCollections())
        .apply("ByWindow", MapElements
            .into(TypeDescriptors.kvs(TypeDescriptors.kvs(TypeDescriptors.longs(), TypeDescriptors.integers()),
                new TypeDescriptor<KV<WindowKey, Accumulator[]>>() {}))
            .via((KV<WindowKey, Accumulator[]> p) -> KV.of(
                KV.of(p.getKey().start(), p.getKey().key().hashCode() & (KEY_BUCKETS - 1)), p)))
        .setCoder(KvCoder.of(KvCoder.of(VarLongCoder.of(), VarIntCoder.of()), partialCoder))
        .apply("GroupWindows", GroupByKey.create())
        .apply("WindowRows", ParDo.of(new MergeWindowFn(plan, windowSize(query.spec()), carry, index, windowsTag, heldTag))
            .withSideInputs(index).withOutputTags(windowsTag, TupleTagList.of(heldTag)));
    return new Folded(rows.get(windowsTag), undecided.get(lateTag), rows.get(heldTag));
  }

  /** The carried windows' partials, stamped as partials are (at their window's end). */
  private List<TimestampedValue<KV<WindowKey, Accumulator[]>>> carriedPartials() {
    List<TimestampedValue<KV<WindowKey, Accumulator[]>>> out = new ArrayList<>();
    for (OpenState.OpenWindow w : restored.windows()) {
      out.add(TimestampedValue.of(KV.of(new WindowKey(w.key(), w.start()), w.accumulators()),
          RowTimestamps.ofWindow(w.end())));
    }
    return out;
  }

  private List<KV<io.eventtime.core.Key, OpenState.OpenWindow>> carriedWindows() {
    List<KV<io.eventtime.core.Key, OpenState.OpenWindow>> out = new ArrayList<>();
    for (OpenState.OpenWindow w : restored.windows()) {
      out.add(KV.of(w.key(), w));
    }
    return out;
  }

  private static long windowSize(WindowSpec spec) {
    return spec instanceof WindowSpec.Tumbling t ? t.sizeMillis() : ((WindowSpec.Hopping) spec).sizeMillis();
  }

  /** The end of the grid window that starts at {@code start}, at most the largest time. */
  private static long windowEnd(long start, long size) {
    long end = start + size;
    return end < start ? Long.MAX_VALUE : end;
  }

  /** A partial of a grid window goes on at its window row's timestamp, so that the watermark holds there. */
  private static org.joda.time.Instant partialTimestamp(WindowPlan plan, WindowKey k) {
    return RowTimestamps.ofWindow(windowEnd(k.start(), windowSize(plan.query.spec())));
  }

  /** Fails the run when two of the rows have one arrival position. */
  private static void requireDistinctPositions(WindowPlan plan, Iterable<ArrivalTimes> groupTimes) {
    int n = 0;
    for (ArrivalTimes times : groupTimes) {
      n += times.size();
    }
    long[] positions = new long[n];
    int i = 0;
    for (ArrivalTimes times : groupTimes) {
      for (int j = 0; j < times.size(); j++) {
        positions[i++] = times.position(j);
      }
    }
    Arrays.sort(positions);
    for (i = 1; i < n; i++) {
      if (positions[i] == positions[i - 1]) {
        throw collision(plan, positions[i]);
      }
    }
  }

  /**
   * Two rows with one arrival position: the order of arrival, and so lateness, is not known. It
   * comes of several sources read apart (each numbering its rows from the start) and put together.
   */
  private static IllegalArgumentException collision(WindowPlan plan, long position) {
    return new IllegalArgumentException("two rows have the same arrival position (" + plan.where(position) + "), so the"
        + " order in which they arrived, which decides what is late, is not known: each row needs its own position."
        + " To read several files as one stream, read them with one NdjsonIO.read of a pattern that matches them all"
        + " (a glob such as \"events-*.ndjson\", or more patterns added with .and(...)) or one"
        + " ArrivalPositions.ofLines, rather than flattening several reads; rows of another source need positions"
        + " that go on where the others end");
  }

  /** The watermark at the end of the input: what decides which windows a holding run emits. */
  private static long finalWatermark(WatermarkIndex index, long delay) {
    long max = index.overallMax();
    return max == ArrivedRow.NO_WATERMARK ? Long.MIN_VALUE : max - delay;
  }

  /** Rows in arrival order within one group of blocks, each with the watermark before it. */
  private static List<ArrivedRow> withWatermarks(Iterable<ArrivedRow> rows, long maxBefore, long delay) {
    List<ArrivedRow> sorted = new ArrayList<>();
    rows.forEach(sorted::add);
    sorted.sort(Comparator.comparingLong(r -> r.position));
    long max = maxBefore;
    for (int i = 0; i < sorted.size(); i++) {
      ArrivedRow r = sorted.get(i);
      sorted.set(i, r.withWatermark(watermark(max, delay)));
      max = Math.max(max, r.eventTime);
    }
    return sorted;
  }

  /**
   * What this run carries on from the previous one: arrival positions go on after the carried
   * windows' (first and last are by arrival), and whether open windows are kept, not emitted.
   */
  private record Carry(long arrivalOffset, boolean holding) implements Serializable {
    long arrival(ArrivedRow r) {
      return arrivalOffset + r.position;
    }
  }

  /**
   * Reads each row's position and event time, or rejects it with the reason; hands on, per block,
   * the positions and times of the bundle's rows, which is all the watermark needs. The rows go
   * on in batches of up to {@value #BATCH_ROWS}: what a runner does per element is then done per batch.
   */
  private static final class ReadEventTimeFn extends DoFn<Row, List<ArrivedRow>> {
    private static final int BATCH_ROWS = 1024;
    /** Pairs held at most before they are handed on, so that a large bundle takes bounded memory. */
    private static final int MAX_HELD_PAIRS = 1 << 16;
    private final WindowPlan plan;
    private final int blockBits;
    private final TupleTag<List<ArrivedRow>> main;
    private final TupleTag<Row> rejected;
    private final TupleTag<KV<Long, ArrivalTimes>> arrivals;
    private final Counter rowsIn = EventTimeMetrics.counter(EventTimeMetrics.ROWS_IN);
    private final Counter rowsRejected = EventTimeMetrics.counter(EventTimeMetrics.ROWS_REJECTED);
    private transient Map<Long, ArrivalTimes> byBlock;
    private transient int heldPairs;
    private transient List<ArrivedRow> batch;
    /** The earliest timestamp of the bundle's rows so far: what it hands on goes on at that. */
    private transient org.joda.time.Instant earliest;

    ReadEventTimeFn(WindowPlan plan, int blockBits, TupleTag<List<ArrivedRow>> main, TupleTag<Row> rejected,
        TupleTag<KV<Long, ArrivalTimes>> arrivals) {
      this.plan = plan;
      this.blockBits = blockBits;
      this.main = main;
      this.rejected = rejected;
      this.arrivals = arrivals;
    }

    @StartBundle
    public void startBundle() {
      byBlock = new HashMap<>();
      heldPairs = 0;
      batch = new ArrayList<>(BATCH_ROWS);
      earliest = BoundedWindow.TIMESTAMP_MAX_VALUE;
    }

    @ProcessElement
    public void process(@Element Row row, @Timestamp org.joda.time.Instant timestamp, MultiOutputReceiver out) {
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
            plan.where(position) + ", field " + plan.timeField + ": " + e.getMessage()));
        return;
      }
      if (timestamp.isBefore(earliest)) {
        earliest = timestamp;
      }
      byBlock.computeIfAbsent(position >> blockBits, b -> new ArrivalTimes()).add(position, ts);
      if (++heldPairs == MAX_HELD_PAIRS) {
        byBlock.forEach((block, times) -> out.get(arrivals).outputWithTimestamp(KV.of(block, times), earliest));
        byBlock = new HashMap<>();
        heldPairs = 0;
      }
      batch.add(new ArrivedRow(position, ts, ArrivedRow.NO_WATERMARK, row));
      if (batch.size() == BATCH_ROWS) {
        out.get(main).outputWithTimestamp(batch, earliest);
        batch = new ArrayList<>(BATCH_ROWS);
      }
    }

    @FinishBundle
    public void finishBundle(FinishBundleContext c) {
      if (!batch.isEmpty()) {
        c.output(main, batch, earliest, GlobalWindow.INSTANCE);
      }
      batch = null;
      byBlock.forEach((block, times) -> c.output(arrivals, KV.of(block, times), earliest, GlobalWindow.INSTANCE));
      byBlock = null;
    }

    /**
     * Batches and positions go on at the earliest timestamp of the bundle's rows, which may be
     * before that of the row in hand; the bundle holds Beam's watermark there ({@link #earliest()}).
     */
    @Override
    @SuppressWarnings("deprecation")
    public org.joda.time.Duration getAllowedTimestampSkew() {
      return org.joda.time.Duration.millis(Long.MAX_VALUE);
    }
  }

  /** The partial aggregates of grid windows, by key and window start. */
  private static final class Partials {
    private final Aggregates aggregates;
    private final Map<WindowKey, Accumulator[]> byWindow = new HashMap<>();

    Partials(Aggregates aggregates) {
      this.aggregates = aggregates;
    }

    void add(io.eventtime.core.Key key, long[] starts, int n, Object[] inputs, long arrival) {
      for (int i = 0; i < n; i++) {
        aggregates.add(byWindow.computeIfAbsent(new WindowKey(key, starts[i]), k -> aggregates.create()), inputs, arrival);
      }
    }

    int size() {
      return byWindow.size();
    }

    void forEach(BiConsumer<WindowKey, Accumulator[]> each) {
      byWindow.forEach(each);
    }
  }

  /**
   * Folds, per bundle, each row whose windows are the same at the lowest and at the highest
   * watermark its block allows: its exact watermark cannot change where it lands, so it needs
   * no other row. The rest (late rows and those near a window's close) go on keyed by group of
   * blocks.
   */
  private static final class FoldRowsFn extends DoFn<List<ArrivedRow>, KV<WindowKey, Accumulator[]>> {
    /** Partials held at most before they are handed on, so that a bundle of many keys takes bounded memory. */
    private static final int MAX_HELD_PARTIALS = 1 << 16;
    private final WindowPlan plan;
    private final int blockBits;
    private final Carry carry;
    private final PCollectionView<WatermarkIndex> index;
    private final TupleTag<KV<WindowKey, Accumulator[]>> partials;
    private final TupleTag<KV<Long, ArrivedRow>> undecided;
    private final Counter rowsFolded = EventTimeMetrics.counter(EventTimeMetrics.ROWS_FOLDED);
    private transient WindowAssigner assigner;
    private transient long[] starts;
    private transient long[] startsAtHighest;
    private transient Partials bundle;

    FoldRowsFn(WindowPlan plan, int blockBits, Carry carry, PCollectionView<WatermarkIndex> index,
        TupleTag<KV<WindowKey, Accumulator[]>> partials, TupleTag<KV<Long, ArrivedRow>> undecided) {
      this.plan = plan;
      this.blockBits = blockBits;
      this.carry = carry;
      this.index = index;
      this.partials = partials;
      this.undecided = undecided;
    }

    @Setup
    public void setup() {
      assigner = new WindowAssigner(plan.query.spec(), plan.query.latePolicy());
      starts = new long[assigner.maxWindowsPerRow()];
      startsAtHighest = new long[assigner.maxWindowsPerRow()];
    }

    @StartBundle
    public void startBundle() {
      bundle = new Partials(plan.aggregates());
    }

    @ProcessElement
    public void process(@Element List<ArrivedRow> batch, MultiOutputReceiver out, ProcessContext c) {
      WatermarkIndex wm = c.sideInput(index);
      long delay = plan.query.delayMillis();
      long folded = 0;
      for (ArrivedRow r : batch) {
        long block = r.position >> blockBits;
        int n = assigner.landing(r.eventTime, watermark(wm.maxBefore(block), delay), starts);
        if (n == 0 || n != assigner.landing(r.eventTime, watermark(wm.maxThrough(block), delay), startsAtHighest)) {
          out.get(undecided).output(KV.of(block >> GROUP_BITS, r));
        } else {
          folded++;
          bundle.add(plan.key(r.row), starts, n, plan.inputs(r.row), carry.arrival(r));
        }
      }
      rowsFolded.inc(folded);
      if (bundle.size() >= MAX_HELD_PARTIALS) {
        bundle.forEach((k, v) -> out.get(partials).outputWithTimestamp(KV.of(k, v), partialTimestamp(plan, k)));
        bundle = new Partials(plan.aggregates());
      }
    }

    @FinishBundle
    public void finishBundle(FinishBundleContext c) {
      bundle.forEach((k, v) -> c.output(partials, KV.of(k, v), partialTimestamp(plan, k), GlobalWindow.INSTANCE));
      bundle = null;
    }

    @Override
    @SuppressWarnings("deprecation") // rows stamped after their event time (at arrival) give earlier partials
    public org.joda.time.Duration getAllowedTimestampSkew() {
      return org.joda.time.Duration.millis(Long.MAX_VALUE);
    }
  }

  /**
   * Works out the exact watermark of the rows {@link FoldRowsFn} could not decide, from the
   * positions and times of every row of their group of blocks, and folds them or sends them to
   * the late output with the reason.
   */
  private static final class FoldUndecidedFn extends DoFn<KV<Long, CoGbkResult>, KV<WindowKey, Accumulator[]>> {
    private final WindowPlan plan;
    private final Carry carry;
    private final PCollectionView<WatermarkIndex> index;
    private final TupleTag<ArrivalTimes> timesTag;
    private final TupleTag<ArrivedRow> rowsTag;
    private final TupleTag<KV<WindowKey, Accumulator[]>> partials;
    private final TupleTag<Row> late;
    private final Counter rowsFolded = EventTimeMetrics.counter(EventTimeMetrics.ROWS_FOLDED);
    private final Counter lateDropped = EventTimeMetrics.counter(EventTimeMetrics.LATE_DROPPED);

    FoldUndecidedFn(WindowPlan plan, Carry carry, PCollectionView<WatermarkIndex> index,
        TupleTag<ArrivalTimes> timesTag, TupleTag<ArrivedRow> rowsTag, TupleTag<KV<WindowKey, Accumulator[]>> partials,
        TupleTag<Row> late) {
      this.plan = plan;
      this.carry = carry;
      this.index = index;
      this.timesTag = timesTag;
      this.rowsTag = rowsTag;
      this.partials = partials;
      this.late = late;
    }

    @ProcessElement
    public void process(@Element KV<Long, CoGbkResult> group, MultiOutputReceiver out, ProcessContext c) {
      requireDistinctPositions(plan, group.getValue().getAll(timesTag));
      List<ArrivedRow> rows = new ArrayList<>();
      group.getValue().getAll(rowsTag).forEach(rows::add);
      if (rows.isEmpty()) {
        return;
      }
      rows.sort(Comparator.comparingLong(r -> r.position));
      long[] watermarks = exactWatermarks(rows, group.getValue().getAll(timesTag),
          c.sideInput(index).maxBefore(group.getKey() << GROUP_BITS), plan.query.delayMillis());
      WindowAssigner assigner = new WindowAssigner(plan.query.spec(), plan.query.latePolicy());
      long[] starts = new long[assigner.maxWindowsPerRow()];
      Partials folded = new Partials(plan.aggregates());
      for (int i = 0; i < rows.size(); i++) {
        ArrivedRow r = rows.get(i);
        int n = assigner.landing(r.eventTime, watermarks[i], starts);
        if (n == 0) {
          lateDropped.inc();
          out.get(late).outputWithTimestamp(lateRow(plan, r, watermarks[i]), RowTimestamps.at(r.eventTime));
        } else {
          rowsFolded.inc();
          folded.add(plan.key(r.row), starts, n, plan.inputs(r.row), carry.arrival(r));
        }
      }
      folded.forEach((k, v) -> out.get(partials).outputWithTimestamp(KV.of(k, v), partialTimestamp(plan, k)));
    }

    @Override
    @SuppressWarnings("deprecation") // on a runner whose grouping stamps at the end of the global window
    public org.joda.time.Duration getAllowedTimestampSkew() {
      return org.joda.time.Duration.millis(Long.MAX_VALUE);
    }
  }

  /**
   * The watermark before each of {@code rows} (sorted by position), from the times of all rows
   * of their group of blocks and the latest time before the group.
   */
  private static long[] exactWatermarks(List<ArrivedRow> rows, Iterable<ArrivalTimes> groupTimes, long maxBefore,
      long delay) {
    long[] positions = rows.stream().mapToLong(r -> r.position).toArray();
    // latestIn[k]: the latest time of the rows that arrived after k of the given rows, before the next
    long[] latestIn = new long[positions.length + 1];
    Arrays.fill(latestIn, ArrivedRow.NO_WATERMARK);
    for (ArrivalTimes times : groupTimes) {
      for (int i = 0; i < times.size(); i++) {
        int k = rowsAtOrBefore(positions, times.position(i));
        latestIn[k] = Math.max(latestIn[k], times.time(i));
      }
    }
    long[] watermarks = new long[positions.length];
    long max = maxBefore;
    for (int i = 0; i < positions.length; i++) {
      max = Math.max(max, latestIn[i]);
      watermarks[i] = watermark(max, delay);
    }
    return watermarks;
  }

  /** How many of the sorted {@code positions} are at or before {@code position}. */
  private static int rowsAtOrBefore(long[] positions, long position) {
    int low = 0;
    int high = positions.length;
    while (low < high) {
      int mid = (low + high) >>> 1;
      if (positions[mid] <= position) {
        low = mid + 1;
      } else {
        high = mid;
      }
    }
    return low;
  }

  /** The watermark after rows whose latest event time is {@code max}. */
  private static long watermark(long max, long delay) {
    return max == ArrivedRow.NO_WATERMARK ? ArrivedRow.NO_WATERMARK : max - delay;
  }

  /** A late row for the late output: the row, its time field, and the reason in the core's words. */
  private static Row lateRow(WindowPlan plan, ArrivedRow r, long watermark) {
    return ProblemRows.of(plan.problems, r.row, plan.timeField,
        plan.where(r.position) + ": " + WindowAssigner.lateReason(plan.query.latePolicy(), r.eventTime, watermark));
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
    public void process(@Element KV<Long, Iterable<ArrivedRow>> group,
        OutputReceiver<KV<io.eventtime.core.Key, ArrivedRow>> out, ProcessContext c) {
      WatermarkIndex wm = c.sideInput(index);
      long maxBefore = wm.maxBefore(group.getKey() << GROUP_BITS);
      List<ArrivedRow> rows = withWatermarks(group.getValue(), maxBefore, plan.query.delayMillis());
      for (int i = 1; i < rows.size(); i++) {
        if (rows.get(i).position == rows.get(i - 1).position) {
          throw collision(plan, rows.get(i).position);
        }
      }
      for (ArrivedRow r : rows) {
        out.output(KV.of(plan.key(r.row), r));
      }
    }
  }

  /** Folds one key's rows, in arrival order, into its sessions (and those carried over). */
  private static final class FoldSessionsFn extends DoFn<KV<io.eventtime.core.Key, CoGbkResult>, Row> {
    private final WindowPlan plan;
    private final WindowSpec.Session spec;
    private final Carry carry;
    private final PCollectionView<WatermarkIndex> index;
    private final TupleTag<ArrivedRow> rowsTag;
    private final TupleTag<OpenState.OpenWindow> carriedTag;
    private final TupleTag<Row> windows;
    private final TupleTag<Row> late;
    private final TupleTag<OpenState.OpenWindow> held;
    private final Counter rowsFolded = EventTimeMetrics.counter(EventTimeMetrics.ROWS_FOLDED);
    private final Counter lateDropped = EventTimeMetrics.counter(EventTimeMetrics.LATE_DROPPED);
    private final Counter rowsOut = EventTimeMetrics.counter(EventTimeMetrics.ROWS_OUT);

    FoldSessionsFn(WindowPlan plan, WindowSpec.Session spec, Carry carry, PCollectionView<WatermarkIndex> index,
        TupleTag<ArrivedRow> rowsTag, TupleTag<OpenState.OpenWindow> carriedTag, TupleTag<Row> windows,
        TupleTag<Row> late, TupleTag<OpenState.OpenWindow> held) {
      this.plan = plan;
      this.spec = spec;
      this.carry = carry;
      this.index = index;
      this.rowsTag = rowsTag;
      this.carriedTag = carriedTag;
      this.windows = windows;
      this.late = late;
      this.held = held;
    }

    @ProcessElement
    public void process(@Element KV<io.eventtime.core.Key, CoGbkResult> group, MultiOutputReceiver out,
        ProcessContext c) {
      List<ArrivedRow> rows = new ArrayList<>();
      group.getValue().getAll(rowsTag).forEach(rows::add);
      rows.sort(Comparator.comparingLong(r -> r.position));
      SessionSet sessions = new SessionSet(group.getKey(), spec, plan.query.latePolicy(), plan.aggregates());
      for (OpenState.OpenWindow w : group.getValue().getAll(carriedTag)) {
        sessions.restore(w.start(), w.end() - spec.gapMillis(), plan.aggregates().copy(w.accumulators()));
      }
      long folded = 0;
      for (ArrivedRow r : rows) {
        emit(sessions.pollClosed(r.watermark), sessions, out.get(windows));
        if (sessions.fold(r.eventTime, plan.inputs(r.row), carry.arrival(r), r.watermark)) {
          folded++;
        } else {
          lateDropped.inc();
          out.get(late).outputWithTimestamp(lateRow(plan, r, r.watermark), RowTimestamps.at(r.eventTime));
        }
      }
      rowsFolded.inc(folded);
      if (!carry.holding) {
        emit(sessions.pollClosed(Long.MAX_VALUE), sessions, out.get(windows));
        return;
      }
      emit(sessions.pollClosed(finalWatermark(c.sideInput(index), plan.query.delayMillis())), sessions,
          out.get(windows));
      for (SessionSet.Session s : sessions.sessions()) {
        out.get(held).output(new OpenState.OpenWindow(s.key(), s.start(), sessions.endOf(s), s.accumulators()));
      }
    }

    private void emit(List<SessionSet.Session> closed, SessionSet sessions, OutputReceiver<Row> out) {
      for (SessionSet.Session s : closed) {
        rowsOut.inc();
        long end = sessions.endOf(s);
        out.outputWithTimestamp(plan.windowRow(s.key(), s.start(), end, plan.aggregates().results(s.accumulators())),
            RowTimestamps.ofWindow(end));
      }
    }

    @Override
    @SuppressWarnings("deprecation") // on a runner whose grouping stamps at the end of the global window
    public org.joda.time.Duration getAllowedTimestampSkew() {
      return org.joda.time.Duration.millis(Long.MAX_VALUE);
    }
  }

  /**
   * Merges the partial aggregates of one grid window from every block, per key, and turns each
   * key's into its row; a run that holds its state keeps the windows its final watermark leaves
   * open instead. Grouping by window (and a few buckets of keys, to spread a window's keys over
   * workers) rather than by key and window keeps the groups few and large.
   */
  private static final class MergeWindowFn extends DoFn<KV<KV<Long, Integer>, Iterable<KV<WindowKey, Accumulator[]>>>, Row> {
    private final WindowPlan plan;
    private final long size;
    private final Carry carry;
    private final PCollectionView<WatermarkIndex> index;
    private final TupleTag<Row> windows;
    private final TupleTag<OpenState.OpenWindow> held;
    private final Counter rowsOut = EventTimeMetrics.counter(EventTimeMetrics.ROWS_OUT);

    MergeWindowFn(WindowPlan plan, long size, Carry carry, PCollectionView<WatermarkIndex> index, TupleTag<Row> windows,
        TupleTag<OpenState.OpenWindow> held) {
      this.plan = plan;
      this.size = size;
      this.carry = carry;
      this.index = index;
      this.windows = windows;
      this.held = held;
    }

    @ProcessElement
    public void process(@Element KV<KV<Long, Integer>, Iterable<KV<WindowKey, Accumulator[]>>> group,
        MultiOutputReceiver out, ProcessContext c) {
      Aggregates aggregates = plan.aggregates();
      Map<io.eventtime.core.Key, Accumulator[]> byKey = new HashMap<>();
      for (KV<WindowKey, Accumulator[]> partial : group.getValue()) {
        aggregates.merge(byKey.computeIfAbsent(partial.getKey().key(), k -> aggregates.create()), partial.getValue());
      }
      long start = group.getKey().getKey();
      long end = windowEnd(start, size);
      if (carry.holding && !plan.query.spec().isClosed(end, finalWatermark(c.sideInput(index), plan.query.delayMillis()))) {
        byKey.forEach((key, accs) -> out.get(held).output(new OpenState.OpenWindow(key, start, end, accs)));
        return;
      }
      rowsOut.inc(byKey.size());
      byKey.forEach((key, accs) -> out.get(windows).outputWithTimestamp(
          plan.windowRow(key, start, end, aggregates.results(accs)), RowTimestamps.ofWindow(end)));
    }

    @Override
    @SuppressWarnings("deprecation") // on a runner whose grouping stamps at the end of the global window
    public org.joda.time.Duration getAllowedTimestampSkew() {
      return org.joda.time.Duration.millis(Long.MAX_VALUE);
    }
  }

  /** Writes the state the run hands on: the final watermark, the next arrival, the open windows. */
  private static final class HandOffStateFn extends DoFn<byte[], Void> {
    private final WindowQuery query;
    private final String timeField;
    private final String handoff;
    private final Carry carry;
    private final PCollectionView<WatermarkIndex> index;
    private final PCollectionView<List<OpenState.OpenWindow>> held;

    HandOffStateFn(WindowQuery query, String timeField, String handoff, Carry carry,
        PCollectionView<WatermarkIndex> index, PCollectionView<List<OpenState.OpenWindow>> held) {
      this.query = query;
      this.timeField = timeField;
      this.handoff = handoff;
      this.carry = carry;
      this.index = index;
      this.held = held;
    }

    @ProcessElement
    public void process(ProcessContext c) throws IOException {
      WatermarkIndex wm = c.sideInput(index);
      long max = wm.overallMax();
      long last = wm.lastPosition();
      long nextArrival = last == Long.MIN_VALUE ? carry.arrivalOffset() : carry.arrivalOffset() + last + 1;
      OpenState next = new OpenState(max == ArrivedRow.NO_WATERMARK ? null : max, nextArrival, c.sideInput(held));
      Path target = Path.of(handoff);
      Path temp = target.resolveSibling(target.getFileName() + ".part");
      Files.write(temp, new StateCodec(query, timeField).encode(next));
      Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
  }

  /** Counts the distinct window intervals, with partial sets merged across workers. */
  private static final class CountDistinctFn extends Combine.CombineFn<KV<Long, Long>, Set<KV<Long, Long>>, Long> {
    @Override
    public Set<KV<Long, Long>> createAccumulator() {
      return new HashSet<>();
    }

    @Override
    public Set<KV<Long, Long>> addInput(Set<KV<Long, Long>> acc, KV<Long, Long> interval) {
      acc.add(interval);
      return acc;
    }

    @Override
    public Set<KV<Long, Long>> mergeAccumulators(Iterable<Set<KV<Long, Long>>> accs) {
      Set<KV<Long, Long>> merged = new HashSet<>();
      accs.forEach(merged::addAll);
      return merged;
    }

    @Override
    public Long extractOutput(Set<KV<Long, Long>> acc) {
      return (long) acc.size();
    }

    @Override
    public Coder<Set<KV<Long, Long>>> getAccumulatorCoder(CoderRegistry registry, Coder<KV<Long, Long>> in) {
      return SetCoder.of(KvCoder.of(VarLongCoder.of(), VarLongCoder.of()));
    }
  }

  /** Adds each number that reaches it to one counter. */
  private static final class AddToCounterFn extends DoFn<Long, Void> {
    private final Counter counter;

    AddToCounterFn(String name) {
      this.counter = EventTimeMetrics.counter(name);
    }

    @ProcessElement
    public void process(@Element Long n) {
      counter.inc(n);
    }
  }
}
