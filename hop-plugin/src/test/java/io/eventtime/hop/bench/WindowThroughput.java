package io.eventtime.hop.bench;

import io.eventtime.hop.HopTestEnvironment;
import io.eventtime.hop.PipelineBuilder;
import io.eventtime.hop.window.EventTimeWindowMeta;
import io.eventtime.hop.window.GroupField;
import io.eventtime.hop.window.WindowAggregate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.hop.core.logging.LogLevel;
import org.apache.hop.core.row.IRowMeta;
import org.apache.hop.core.row.RowMeta;
import org.apache.hop.core.row.value.ValueMetaInteger;
import org.apache.hop.core.row.value.ValueMetaString;
import org.apache.hop.core.variables.Variables;
import org.apache.hop.metadata.serializer.memory.MemoryMetadataProvider;
import org.apache.hop.pipeline.PipelineMeta;
import org.apache.hop.pipeline.RowProducer;
import org.apache.hop.pipeline.engines.local.LocalPipelineEngine;
import org.apache.hop.pipeline.transform.ITransformMeta;

/**
 * Rows per second of the Event Time Window transform on Hop's local engine, beside Hop's Dummy
 * transform on the same rows: the floor of Hop's own row passing. A harness, not a test: run it
 * with the command in docs/benchmarks.md (issue 5).
 *
 * <p>The rows (1,000,000 by default, 1,000 keys, event times 10 ms apart, so arrival order is
 * event order) are built in memory once and fed through an Injector; each pipeline is
 * Injector, the transform, and a Dummy that takes its output. A run is timed from the first
 * row put to the end of the pipeline. Arguments: rows, keys, measured runs.
 */
public final class WindowThroughput {
  private static final long T0 = 1_772_323_200_000L; // 2026-03-01 00:00:00 UTC

  private WindowThroughput() {}

  public static void main(String[] args) throws Exception {
    int rows = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
    int keys = args.length > 1 ? Integer.parseInt(args[1]) : 1_000;
    int runs = args.length > 2 ? Integer.parseInt(args[2]) : 5;
    HopTestEnvironment.init();

    IRowMeta layout = new RowMeta();
    layout.addValueMeta(new ValueMetaString("key"));
    layout.addValueMeta(new ValueMetaInteger("amount"));
    layout.addValueMeta(new ValueMetaInteger("event_time"));
    List<Object[]> data = new ArrayList<>(rows);
    for (int i = 0; i < rows; i++) {
      data.add(new Object[] {"key-" + (int) ((i * 7919L) % keys), (long) (i % 100), T0 + i * 10L});
    }

    System.out.printf(Locale.ROOT, "%d rows, %d keys, event times 10 ms apart; median of %d runs after a warm-up%n",
        rows, keys, runs);
    System.out.printf(Locale.ROOT, "%-44s %12s %14s %10s%n", "transform", "median ms", "rows/s", "rows out");
    report("Dummy (Hop's row passing)", new org.apache.hop.pipeline.transforms.dummy.DummyMeta(), layout, data, runs);
    report("Event Time Window, tumbling 1 min by key", window("tumbling", "1 MINUTE", null), layout, data, runs);
    report("Event Time Window, hopping 5 min / 1 min", window("hopping", "5 MINUTES", "1 MINUTE"), layout, data, runs);
    report("Event Time Window, session gap 30 s", window("session", "30 SECONDS", null), layout, data, runs);
    processorAlone(data, runs);
  }

  /**
   * The core's processor on the same rows without Hop (tumbling 1 minute by key, count and sum):
   * the cost of the windowing itself, against which the transform's row passing shows.
   */
  private static void processorAlone(List<Object[]> data, int runs) {
    io.eventtime.core.WindowQuery query = io.eventtime.core.WindowQuery.of(io.eventtime.core.WindowSpec.tumbling(60_000))
        .withKeys("key").withAggregates(io.eventtime.core.AggregateSpec.countAll("events"),
            io.eventtime.core.AggregateSpec.of(io.eventtime.core.AggregateKind.SUM, "amount", "total"));
    long[] millis = new long[runs + 1];
    long[] out = new long[1];
    for (int r = 0; r <= runs; r++) {
      out[0] = 0;
      long start = System.nanoTime();
      io.eventtime.core.WindowProcessor p = new io.eventtime.core.WindowProcessor(query, w -> out[0]++);
      for (Object[] row : data) {
        p.process(io.eventtime.core.Key.of(row[0]), (Long) row[2], new Object[] {null, row[1]});
      }
      p.finish();
      millis[r] = (System.nanoTime() - start) / 1_000_000;
    }
    long[] measured = Arrays.copyOfRange(millis, 1, runs + 1);
    Arrays.sort(measured);
    long median = measured[runs / 2];
    System.out.printf(Locale.ROOT, "%-44s %12d %,14d %,10d%n", "core WindowProcessor alone, tumbling 1 min", median,
        data.size() * 1000L / Math.max(1, median), out[0]);
  }

  private static EventTimeWindowMeta window(String kind, String size, String slide) {
    EventTimeWindowMeta w = new EventTimeWindowMeta();
    w.setDefault();
    w.setWindowKind(kind);
    w.setWindowSize(size);
    w.setSessionGap(size);
    w.setWindowSlide(slide);
    w.setGroupFields(List.of(new GroupField("key")));
    w.setAggregates(List.of(new WindowAggregate(null, "count", "events"), new WindowAggregate("amount", "sum", "total")));
    return w;
  }

  private static void report(String name, ITransformMeta transform, IRowMeta layout, List<Object[]> data, int runs)
      throws Exception {
    PipelineMeta pipeline = new PipelineBuilder("bench").injector("in", layout).transform("under test", transform)
        .dummy("out").hop("in", "under test").hop("under test", "out").build();
    run(pipeline, layout, data);
    long[] millis = new long[runs];
    long out = 0;
    for (int r = 0; r < runs; r++) {
      long start = System.nanoTime();
      out = run(pipeline, layout, data);
      millis[r] = (System.nanoTime() - start) / 1_000_000;
    }
    Arrays.sort(millis);
    long median = millis[runs / 2];
    System.out.printf(Locale.ROOT, "%-44s %12d %,14d %,10d%n", name, median, data.size() * 1000L / Math.max(1, median), out);
  }

  /** One run; returns the rows the transform under test wrote. */
  private static long run(PipelineMeta meta, IRowMeta layout, List<Object[]> data) throws Exception {
    LocalPipelineEngine pipeline = new LocalPipelineEngine(meta, new Variables(), null);
    pipeline.setLogLevel(LogLevel.ERROR);
    pipeline.setMetadataProvider(new MemoryMetadataProvider());
    pipeline.prepareExecution();
    RowProducer producer = pipeline.addRowProducer("in", 0);
    pipeline.startThreads();
    for (Object[] row : data) {
      producer.putRow(layout, row);
    }
    producer.finished();
    pipeline.waitUntilFinished();
    if (pipeline.getErrors() > 0) {
      throw new IllegalStateException("the benchmark pipeline failed");
    }
    return pipeline.getTransform("under test", 0).getLinesWritten();
  }
}
