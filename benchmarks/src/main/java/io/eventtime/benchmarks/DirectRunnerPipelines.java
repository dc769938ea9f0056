package io.eventtime.benchmarks;

import io.eventtime.beam.EventTimeMetrics;
import io.eventtime.beam.EventTimeWindow;
import io.eventtime.core.Stats;
import io.eventtime.core.WindowQuery;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.MetricNameFilter;
import org.apache.beam.sdk.metrics.MetricResult;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.metrics.MetricsFilter;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.transforms.Combine;
import org.apache.beam.sdk.transforms.Count;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.SimpleFunction;
import org.apache.beam.sdk.transforms.Sum;
import org.apache.beam.sdk.transforms.WithTimestamps;
import org.apache.beam.sdk.transforms.CombineFns;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.FixedWindows;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.transforms.windowing.Window;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.joda.time.Duration;

/**
 * The pipelines the Beam benchmarks run on the DirectRunner, each run to the end over the events
 * as rows. Immutability and encodability checks are off: they are test aids that would dominate
 * the time and that a production runner does not do.
 *
 * <p>The rows come from one of two sources. {@code slices} (the default): {@code Create} of
 * {@value #SLICES} slice numbers, and a ParDo that hands on the prebuilt rows of each slice of
 * arrivals. {@code create}: {@code Create.of} all million rows; the DirectRunner turns that Read
 * into its proto, Java-serialising the whole encoded source, each time it starts a read bundle,
 * which costs more than the windowing itself, so it is kept only to show that cost.
 */
final class DirectRunnerPipelines {
  static final String NAMESPACE = "benchmark";
  static final String[] DIRECT_ARGS = {
      "--runner=DirectRunner", "--enforceImmutability=false", "--enforceEncodability=false"};

  /** The rows the plain Beam pipeline emits: the same columns as the transform's window rows. */
  static final Schema WINDOW_ROW = Schema.builder()
      .addStringField("key")
      .addDateTimeField("window_start")
      .addDateTimeField("window_end")
      .addInt64Field("n")
      .addInt64Field("total")
      .build();

  static final int SLICES = 16;

  private DirectRunnerPipelines() {}

  /** The events as rows, from the named source ({@code slices} or {@code create}). */
  static PCollection<Row> events(Pipeline p, String source) {
    return events(p, source, Events.COUNT);
  }

  /** The first {@code count} events as rows (see {@link Events#get(int)}), from the named source. */
  static PCollection<Row> events(Pipeline p, String source, int count) {
    switch (source) {
      case "slices":
        List<Integer> slices = new ArrayList<>();
        for (int i = 0; i < SLICES; i++) {
          slices.add(i);
        }
        return p.apply("Slices", Create.of(slices))
            .apply("Events", ParDo.of(new SliceRowsFn(count)))
            .setRowSchema(Events.SCHEMA);
      case "create":
        return p.apply("Events", Create.of(Events.rows(count)).withRowSchema(Events.SCHEMA));
      default:
        throw new IllegalArgumentException("unknown source '" + source + "': use slices or create");
    }
  }

  static PipelineOptions options() {
    return PipelineOptionsFactory.fromArgs(DIRECT_ARGS).create();
  }

  /** (b) The events through {@link EventTimeWindow}; returns the transform's stats. */
  static Stats eventTimeWindow(String source, WindowQuery query) {
    Pipeline p = Pipeline.create(options());
    events(p, source)
        .apply("Window", EventTimeWindow.of(query).withTimeField("event_time"));
    PipelineResult result = p.run();
    result.waitUntilFinish();
    return EventTimeMetrics.stats(result, "Window");
  }

  /**
   * (c) Plain Beam: event timestamps from the rows, 1 minute fixed windows, count and sum per key
   * in one composed combine, then a row per window. Returns how many window rows came out.
   */
  static long plainBeam(String source) {
    TupleTag<Long> n = new TupleTag<>("n");
    TupleTag<Long> total = new TupleTag<>("total");
    Same same = new Same();
    Pipeline p = Pipeline.create(options());
    events(p, source)
        .apply("EventTimestamps", WithTimestamps.of((Row r) -> r.getDateTime("event_time").toInstant()))
        .apply("FixedWindows", Window.into(FixedWindows.of(Duration.standardMinutes(1))))
        .apply("KeyAmount", MapElements.into(TypeDescriptors.kvs(TypeDescriptors.strings(), TypeDescriptors.longs()))
            .via((Row r) -> KV.of(r.getString("key"), r.getInt64("amount"))))
        .apply("CountAndSum", Combine.perKey(CombineFns.compose()
            .with(same, Count.<Long>combineFn(), n)
            .with(same, Sum.ofLongs(), total)))
        .apply("WindowRows", ParDo.of(new WindowRowFn(n, total)))
        .setRowSchema(WINDOW_ROW);
    PipelineResult result = p.run();
    result.waitUntilFinish();
    return counter(result, "window_rows");
  }

  /** The source alone: the events, counted. Returns the count. */
  static long sourceOnly(String source) {
    Pipeline p = Pipeline.create(options());
    events(p, source)
        .apply("CountRows", ParDo.of(new CountRowsFn()));
    PipelineResult result = p.run();
    result.waitUntilFinish();
    return counter(result, "rows");
  }

  static long counter(PipelineResult result, String name) {
    long sum = 0;
    for (MetricResult<Long> c : result.metrics().queryMetrics(MetricsFilter.builder()
        .addNameFilter(MetricNameFilter.named(NAMESPACE, name)).build()).getCounters()) {
      sum += c.getAttempted();
    }
    return sum;
  }

  /** Hands each amount to both combiners as it is. */
  private static final class Same extends SimpleFunction<Long, Long> {
    @Override
    public Long apply(Long amount) {
      return amount;
    }
  }

  private static final class WindowRowFn extends DoFn<KV<String, CombineFns.CoCombineResult>, Row> {
    private final TupleTag<Long> n;
    private final TupleTag<Long> total;
    private final Counter windowRows = Metrics.counter(NAMESPACE, "window_rows");

    WindowRowFn(TupleTag<Long> n, TupleTag<Long> total) {
      this.n = n;
      this.total = total;
    }

    @ProcessElement
    public void process(@Element KV<String, CombineFns.CoCombineResult> e, BoundedWindow window, OutputReceiver<Row> out) {
      IntervalWindow w = (IntervalWindow) window;
      windowRows.inc();
      out.output(Row.withSchema(WINDOW_ROW)
          .addValues(e.getKey(), w.start(), w.end(), e.getValue().get(n), e.getValue().get(total))
          .build());
    }
  }

  /**
   * Hands on the rows of one slice of the arrivals, in arrival order. The rows are built in the
   * JVM the step runs in (on an embedded Flink or a local Spark, the JVM that built them first).
   */
  private static final class SliceRowsFn extends DoFn<Integer, Row> {
    private final int count;

    SliceRowsFn(int count) {
      this.count = count;
    }

    @ProcessElement
    public void process(@Element Integer slice, OutputReceiver<Row> out) {
      List<Row> rows = Events.rows(count);
      int from = (int) ((long) rows.size() * slice / SLICES);
      int to = (int) ((long) rows.size() * (slice + 1) / SLICES);
      for (int i = from; i < to; i++) {
        out.output(rows.get(i));
      }
    }
  }

  private static final class CountRowsFn extends DoFn<Row, Void> {
    private final Counter rows = Metrics.counter(NAMESPACE, "rows");

    @ProcessElement
    public void process() {
      rows.inc();
    }
  }
}
