package io.eventtime.beam;

import io.eventtime.core.AggregateKind;
import io.eventtime.core.AggregateSpec;
import io.eventtime.core.EventTimeParser;
import io.eventtime.core.LatePolicy;
import io.eventtime.core.OpenState;
import io.eventtime.core.WindowQuery;
import io.eventtime.core.WindowSpec;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.display.DisplayData;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.PCollectionView;
import org.apache.beam.sdk.values.Row;

/**
 * Groups rows into tumbling, hopping or session windows of event time, per key, and emits one
 * row per window with its bounds and aggregates; rows that come too late for their windows go
 * to a late output, rows without a usable event time to a rejected output, each with the reason.
 *
 * <p>A bounded input is a replay of a stream: each row carries its arrival position (by
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
 *
 * <p><b>An unbounded input</b> (docs/live-streams.md) takes the same builder and gives the same
 * outputs; the transform picks its path from {@code input.isBounded()}. The input is one
 * partition, or several with {@link #withPartitionField} and {@link #withPartitions}: the arrival
 * field holds each row's position in its partition (a Kafka offset, a line number), and each
 * row's Beam timestamp is its arrival stamp, the time it was read, never going back as the
 * positions go on. On one partition the window rows, late rows with their reasons, rejected rows
 * and stats are exactly those of the same rows replayed as a bounded input, however the runner
 * bundles and orders them; on several, each row is late or not by its own partition's watermark
 * and a window leaves once every partition's watermark has closed it, so the results do not
 * depend on how the partitions interleave. Each window row leaves as soon as the contract's
 * watermark closes it, while the pipeline runs, and every window still open leaves when the input ends or is drained. A row
 * whose position is at or below one already folded fails the run, naming both. Beam forbids
 * stamping an output before what produced it, so on this path a window row carries a timestamp
 * just after the arrival stamp of the row that closed it (the end of the global window for those
 * emitted at the end), a late row one just after its own arrival, and a rejected row the
 * timestamp it came with. Only portable Beam is used (state, event-time timers, standard coders):
 * the Direct runner in streaming, Flink with {@code --streaming} and Dataflow can run it; Beam's
 * Spark runner, which runs no event-time timers in streaming, is refused before the run
 * ({@link #SPARK_REFUSAL}). With {@link #withState} a live run goes on from the stored state and,
 * when its input ends or is drained, hands the windows still open to the state instead of emitting
 * them (docs/live-streams.md, "Stopping and going on").
 *
 * <pre>{@code
 * PCollection<Row> live = ...; // unbounded: _arrival the position, the Beam timestamp the read time
 * EventTimeWindowResult r = live.apply(
 *     EventTimeWindow.of(WindowSpecs.tumbling(org.joda.time.Duration.standardMinutes(1)))
 *         .withTimeField("event_time")
 *         .withKeys("merchant")
 *         .withAggregates(AggregateSpec.countAll("n"))
 *         .withWatermarkDelay(Duration.ofMinutes(5)));
 * r.windows();   // each window as soon as the watermark closes it
 * }</pre>
 */
public final class EventTimeWindow extends PTransform<PCollection<Row>, EventTimeWindowResult> {
  public static final String DEFAULT_ARRIVAL_FIELD = "_arrival";
  /**
   * Arrival positions per block are 2^10 by default: a block's rows span little event time, so
   * the watermark bounds of the block decide almost every row without the rows of the others.
   */
  public static final int DEFAULT_BLOCK_BITS = 10;
  /**
   * Why an unbounded input is refused on Beam's Spark runner: the one text the transform, the
   * command line and Hop on Beam show.
   */
  public static final String SPARK_REFUSAL = "EventTimeWindow on an unbounded input needs event-time timers, which"
      + " Beam's Spark runner does not run in streaming mode (Beam 2.62): run it on the Direct runner, the Flink"
      + " runner (--runner=FlinkRunner --streaming) or Dataflow, or give it a bounded input";
  /** Why an idle timeout is refused on a bounded input. */
  static final String BOUNDED_IDLE_REFUSAL = "EventTimeWindow on a bounded input has no idle timeout"
      + " (withIdleTimeout): a replay does not wait on the wall clock, so no partition goes idle; the idle timeout"
      + " is for an unbounded input (a live stream)";
  /** Why a partition field is refused on a bounded input, for now. */
  static final String BOUNDED_PARTITIONS_REFUSAL = "EventTimeWindow on a bounded input reads one partition, in"
      + " the order of its arrival field: withPartitionField and withPartitions are for an unbounded input (a live"
      + " stream of several partitions); a bounded read of several partitions is not offered yet";
  private static final String NULL_DELAY = "the watermark delay is null: give a duration of zero or more"
      + " (Duration.ZERO for none)";

  /**
   * Every setting of the transform, in one place: each {@code withX} changes a copy, so a new
   * option is a field here, its {@code withX} and its display item.
   */
  private static final class Settings implements Serializable, Cloneable {
    WindowQuery query;
    String timeField;
    EventTimeParser parser = EventTimeParser.defaults();
    String arrivalField = DEFAULT_ARRIVAL_FIELD;
    String startName = "window_start";
    String endName = "window_end";
    int blockBits = DEFAULT_BLOCK_BITS;
    /** The state the previous run left; read when the pipeline is built, never sent to the workers. */
    transient OpenState restored = OpenState.empty();
    /** Where the run writes the state it hands on (a Beam file system resource), or null when it keeps none. */
    String handoff;
    /** The field naming each row's partition, null for one partition. */
    String partitionField;
    /** Every partition of the stream, null while not given. */
    int[] partitions;
    /** The idle timeout in milliseconds, 0 for none. */
    long idleTimeoutMillis;
    /** Whether the window rows are also ranked in close order. */
    boolean closeOrder;

    Settings copy() {
      try {
        return (Settings) clone();
      } catch (CloneNotSupportedException e) {
        throw new AssertionError(e);
      }
    }
  }

  private final Settings settings;

  private EventTimeWindow(Settings settings) {
    this.settings = settings;
  }

  /** A copy of this transform with {@code change} made to its settings. */
  private EventTimeWindow with(Consumer<Settings> change) {
    Settings next = settings.copy();
    change.accept(next);
    return new EventTimeWindow(next);
  }

  /**
   * Windows of {@code spec}, with no keys, no aggregates, no delay and the {@code window} policy;
   * {@link WindowSpecs} makes specs from Beam's and Java's durations.
   */
  public static EventTimeWindow of(WindowSpec spec) {
    Settings settings = new Settings();
    settings.query = WindowQuery.of(spec);
    return new EventTimeWindow(settings);
  }

  /** The whole query at once: the windows, keys, aggregates, delay and late policy. */
  public static EventTimeWindow of(WindowQuery query) {
    return of(query.spec()).withQuery(query);
  }

  private EventTimeWindow withQuery(WindowQuery q) {
    return with(s -> s.query = q);
  }

  /**
   * The field that holds each row's event time: a DATETIME, Beam's SqlTypes.TIMESTAMP or
   * SqlTypes.DATETIME (read in the parser's zone), whole epoch milliseconds or seconds (INT64), or
   * a date-time STRING. Required.
   */
  public EventTimeWindow withTimeField(String field) {
    return with(s -> s.timeField = field);
  }

  /** How event times are read from strings and numbers (default: ISO-8601, epoch ms, UTC). */
  public EventTimeWindow withTimeParser(EventTimeParser p) {
    return with(s -> s.parser = p);
  }

  /**
   * The fields rows are grouped by, each key's windows apart; they lead each window row. Replaces
   * the keys given before; none (the default) puts all rows in one group.
   */
  public EventTimeWindow withKeys(String... fields) {
    return withQuery(settings.query.withKeys(fields));
  }

  /**
   * What each window row holds: replaces every aggregate given before (with this or
   * {@link #withAggregate}); the rows have their columns in this order, after the bounds.
   */
  public EventTimeWindow withAggregates(AggregateSpec... aggregates) {
    return withQuery(settings.query.withAggregates(aggregates));
  }

  /**
   * Adds one aggregate after those already given (unlike {@link #withAggregates}, which replaces
   * them): {@code kind} over {@code field} (null for {@code count(*)}), as the column {@code outputName}.
   */
  public EventTimeWindow withAggregate(AggregateKind kind, String field, String outputName) {
    List<AggregateSpec> all = new ArrayList<>(settings.query.aggregates());
    all.add(AggregateSpec.of(kind, field, outputName));
    return withQuery(settings.query.withAggregates(all.toArray(AggregateSpec[]::new)));
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
    return withQuery(settings.query.withDelay(delayMillis));
  }

  /**
   * When a row counts as late: {@link LatePolicy#WINDOW} (the default) once every window it
   * belongs to has closed, {@link LatePolicy#EVENT} once its event time is behind the watermark.
   */
  public EventTimeWindow withLatePolicy(LatePolicy policy) {
    return withQuery(settings.query.withLatePolicy(policy));
  }

  /**
   * The INT64 field that holds each row's arrival position (default {@value #DEFAULT_ARRIVAL_FIELD}):
   * a number per row, unique, that orders the rows as they arrived ({@link ArrivalPositions}).
   */
  public EventTimeWindow withArrivalField(String field) {
    return with(s -> s.arrivalField = field);
  }

  /** The names of the window bound columns (default {@code window_start}, {@code window_end}). */
  public EventTimeWindow withWindowFieldNames(String start, String end) {
    return with(s -> {
      s.startName = start;
      s.endName = end;
    });
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
    return with(s -> s.blockBits = bits);
  }

  /**
   * Carries the watermark and the open windows over from the previous run and on to the next:
   * only the windows this run's watermark closes are emitted, the others are kept in the state.
   * Without it, every window still open at the end of the input is emitted (a drain).
   *
   * <p>On an unbounded input the run starts from every partition's stored watermark, idle
   * watermark and open windows (the partitions must be the state's, in its order), and when the
   * input is finished or drained it writes, instead of emitting them, the windows still open and
   * each partition's watermark, next arrival and next position (one past its last row's arrival
   * field: for {@link KafkaRows} the next offset) to the state; nothing is lost, a window is
   * either emitted or in the state. Read each partition on from those positions: a row at a
   * position below its partition's stored one was taken in by the run that stored the state, and
   * is rejected with that reason. A bounded run's state goes on in a live run of one partition
   * and a live run's state of one partition in a bounded run (which numbers its rows on and does
   * not read the positions).
   *
   * <pre>{@code
   * EventTimeWindow window = EventTimeWindow.of(WindowSpecs.tumbling(Duration.standardMinutes(10)))
   *     .withTimeField("event_time")
   *     .withPartitionField(KafkaRows.PARTITION_FIELD)
   *     .withPartitions(0, 1);
   * try (EventTimeState state = EventTimeState.open(Path.of("state/orders"), window)) {
   *   live.apply(window.withState(state));   // live: an unbounded PCollection<Row>
   *   PipelineResult result = pipeline.run();
   *   result.waitUntilFinish();              // the input finished, or the job was drained
   *   state.commit(result);                  // the open windows and positions become the state
   * }
   * }</pre>
   */
  public EventTimeWindow withState(EventTimeState state) {
    return with(s -> {
      s.restored = state.loaded();
      s.handoff = state.handoffPath();
    });
  }

  /**
   * The INT32 (or INT64, INT16, BYTE) field that names each row's partition on an unbounded input,
   * such as {@link KafkaRows#PARTITION_FIELD}; without it the input is one partition. Each
   * partition's rows are ordered by their arrival field (the Kafka offset) and have their own
   * watermark: a row is late or not by its own partition's earlier rows, and a window is emitted
   * once every partition's watermark has closed it, with the rows of all of them, so the results do
   * not depend on how the partitions interleave (docs/semantics.md, "Live, partitioned streams").
   * Needs {@link #withPartitions}. A bounded input is one partition (a replay in arrival order):
   * there it is refused when the transform is applied.
   *
   * <pre>{@code
   * KafkaRows.Result kafka = p.apply(KafkaRows.read().withBootstrapServers(servers).withTopic("payments"));
   * kafka.rows().apply(EventTimeWindow.of(WindowSpecs.tumbling(Duration.standardMinutes(10)))
   *     .withTimeField("event_time")
   *     .withPartitionField(KafkaRows.PARTITION_FIELD)
   *     .withPartitions(kafka.partitions()));
   * }</pre>
   */
  public EventTimeWindow withPartitionField(String field) {
    if (field == null || field.isEmpty()) {
      throw new IllegalArgumentException("the partition field is " + (field == null ? "null" : "empty")
          + ": name the integer field that holds each row's partition");
    }
    return with(s -> s.partitionField = field);
  }

  /**
   * Every partition of the stream, by id (the values of the {@link #withPartitionField partition
   * field}); their order is ascending id. Required with a partition field: a partition that has
   * sent no row has no watermark yet and holds every window back until it does, so the transform
   * must know it before its first row. A row naming another partition, or none, is rejected with
   * the reason. Refused when empty or when an id repeats.
   */
  public EventTimeWindow withPartitions(int... ids) {
    if (ids == null) {
      throw new IllegalArgumentException("the partitions are null: give every partition id of the stream");
    }
    LivePartitions.of("partition", ids);
    return with(s -> s.partitions = ids.clone());
  }

  /** {@link #withPartitions(int...)} from a list, such as {@link KafkaRows.Result#partitions()}. */
  public EventTimeWindow withPartitions(List<Integer> ids) {
    if (ids == null) {
      throw new IllegalArgumentException("the partitions are null: give every partition id of the stream");
    }
    return withPartitions(ids.stream().mapToInt(Integer::intValue).toArray());
  }

  /**
   * The idle timeout on an unbounded input (docs/semantics.md, "Idle partitions"), off by
   * default. It is <b>the one setting that reads the wall clock</b>, and so the only one that makes
   * the results depend on when rows arrive: a partition that has had no row for {@code timeout} of
   * wall clock (the runner's processing time; from the start of the run for a partition that never
   * had one) takes {@code max(its watermark, now - delay)} as its watermark, and again every
   * {@code timeout} while it stays quiet, so that a quiet partition stops holding every window
   * back. A row of it that comes later behind that watermark is late, and its reason says the
   * watermark was set by the idle timeout. Refused, when the transform is applied, on a bounded
   * input (a replay has no wall clock to wait for). With {@link #withState} the state keeps each
   * partition's idle advance, so that a late row of the next run still names the timeout.
   *
   * <pre>{@code
   * kafka.rows().apply(EventTimeWindow.of(WindowSpecs.tumbling(Duration.standardMinutes(10)))
   *     .withTimeField("event_time")
   *     .withPartitionField(KafkaRows.PARTITION_FIELD)
   *     .withPartitions(kafka.partitions())
   *     .withIdleTimeout(java.time.Duration.ofSeconds(30)));
   * }</pre>
   */
  public EventTimeWindow withIdleTimeout(java.time.Duration timeout) {
    if (timeout == null || timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("the idle timeout is " + (timeout == null ? "null" : timeout)
          + ": give a duration greater than zero (e.g. Duration.ofSeconds(30)), or leave it out for no idle timeout");
    }
    long millis = timeout.toMillis();
    return with(s -> s.idleTimeoutMillis = millis);
  }

  /**
   * Also ranks the window rows in the order one processor reading the input in arrival order
   * emits them (by window end, then start, then key): {@link EventTimeWindowResult#windowsInCloseOrder()}
   * gives each with its rank, so that a sink can write them in the order a single-threaded run
   * (the command line's local runner, Hop's local engine) does, whatever the runner's
   * parallelism. On an unbounded input each row is ranked as soon as every key group's watermark
   * has closed its window (all window rows go through one worker, so this costs throughput); on a
   * bounded one, once the run has every window row (gathered under one key).
   *
   * <pre>{@code
   * EventTimeWindowResult r = live.apply(window.withCloseOrder());
   * r.windowsInCloseOrder();   // KV(0, first row closed), KV(1, second), ...
   * }</pre>
   */
  public EventTimeWindow withCloseOrder() {
    return with(s -> s.closeOrder = true);
  }

  /** The query this transform runs. */
  public WindowQuery query() {
    return settings.query;
  }

  /** The field of the event time, or null while none was given. */
  public String timeField() {
    return settings.timeField;
  }

  /** The settings a runner's UI shows for this step: the query, the time field and how it is read. */
  @Override
  public void populateDisplayData(DisplayData.Builder builder) {
    super.populateDisplayData(builder);
    WindowQuery query = settings.query;
    DisplayItems.window(builder, query.spec());
    builder.addIfNotNull(DisplayData.item("timeField", settings.timeField).withLabel("Event time field"));
    DisplayItems.parser(builder, settings.parser);
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
    builder.add(DisplayData.item("arrivalField", settings.arrivalField).withLabel("Arrival position field"));
    builder.add(DisplayData.item("windowFields", settings.startName + ", " + settings.endName)
        .withLabel("Window bound columns"));
    builder.add(DisplayData.item("blockBits", settings.blockBits).withLabel("Arrival positions per block (bits)"));
    builder.addIfNotNull(DisplayData.item("partitionField", settings.partitionField).withLabel("Partition field"));
    if (settings.partitions != null) {
      builder.add(DisplayData.item("partitions", LivePartitions.of("partition", settings.partitions).describe())
          .withLabel("Partitions"));
    }
    if (settings.idleTimeoutMillis > 0) {
      builder.add(DisplayData.item("idleTimeout", org.joda.time.Duration.millis(settings.idleTimeoutMillis))
          .withLabel("Idle timeout (wall clock)"));
    }
    builder.addIfNotNull(DisplayData.item("stateHandoff", settings.handoff).withLabel("State hand-off file"));
    if (settings.closeOrder) {
      builder.add(DisplayData.item("closeOrder", true).withLabel("Window rows ranked in close order"));
    }
  }

  /**
   * On a bounded input: reads each row's position and event time, builds the watermark index
   * from them, folds the rows into grid or session windows, and hands the open windows on when the
   * run keeps a state. On an unbounded input: the live path ({@link LiveWindows}), after refusing
   * what it cannot run.
   */
  @Override
  public EventTimeWindowResult expand(PCollection<Row> input) {
    if (settings.timeField == null) {
      throw new IllegalArgumentException("no time field: name the field that holds the event time with withTimeField(...)");
    }
    ReadEventTimes.requireGlobalWindow(input);
    if (input.isBounded() == PCollection.IsBounded.BOUNDED
        && (settings.partitionField != null || settings.partitions != null)) {
      throw new IllegalArgumentException(BOUNDED_PARTITIONS_REFUSAL);
    }
    if (input.isBounded() == PCollection.IsBounded.BOUNDED && settings.idleTimeoutMillis > 0) {
      throw new IllegalArgumentException(BOUNDED_IDLE_REFUSAL);
    }
    LivePartitions partitions = LivePartitions.of(settings.partitionField, settings.partitions);
    partitions.check(input.getSchema());
    if (input.isBounded() == PCollection.IsBounded.UNBOUNDED) {
      LiveWindows.requireEventTimeTimers(input.getPipeline().getOptions());
    }
    WindowPlan plan = new WindowPlan(settings.query, input.getSchema(), settings.timeField, settings.parser,
        settings.arrivalField, settings.startName, settings.endName);
    if (input.isBounded() == PCollection.IsBounded.UNBOUNDED) {
      LiveState state = settings.handoff == null ? null
          : LiveState.of(plan, partitions, settings.restored, settings.handoff, LiveWindows.KEY_BUCKETS);
      return input.apply("LiveWindows", new LiveWindows(plan, partitions, settings.idleTimeoutMillis, state,
          settings.closeOrder));
    }
    OpenState restored = settings.restored;
    Carry carry = new Carry(restored.nextArrival(), settings.handoff != null);
    PCollectionTuple events = input.apply("ReadEventTimes", new ReadEventTimes(plan, settings.blockBits));
    PCollectionView<WatermarkIndex> index = events.get(ReadEventTimes.ARRIVALS)
        .apply("WatermarkIndex", WatermarkIndex.asView(restored.maxEventTime()));
    PCollection<List<ArrivedRow>> rows = events.get(ReadEventTimes.ROWS);
    FoldedWindows folded = plan.query.spec() instanceof WindowSpec.Session session
        ? rows.apply("SessionWindows",
            new SessionWindows(plan, session, settings.blockBits, carry, index, restored.windows()))
        : rows.apply("GridWindows",
            new GridWindows(plan, settings.blockBits, carry, index, events.get(ReadEventTimes.ARRIVALS), restored.windows()));
    folded.windows().apply("CountWindowsClosed", new CountWindowsClosed(settings.startName, settings.endName));
    if (carry.holding()) {
      folded.held().apply("HandOffState", new HandOffState(plan.query, plan.timeField, settings.handoff, carry, index));
    }
    PCollection<KV<Long, Row>> ranked = settings.closeOrder
        ? folded.windows().apply("RankInCloseOrder", new RankInCloseOrder(plan.query.keyFields().size())) : null;
    return new EventTimeWindowResult(input.getPipeline(), folded.windows(), ranked, folded.late(),
        events.get(ReadEventTimes.REJECTED));
  }
}
