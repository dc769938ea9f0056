package io.eventtime.beam;

import io.eventtime.core.EventTimeException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.GlobalWindow;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TupleTag;

/**
 * Reads each row's position and event time, or rejects it with the reason; hands on, per block,
 * the positions and times of the bundle's rows, which is all the watermark needs. The rows go
 * on in batches of up to {@value #BATCH_ROWS}: what a runner does per element is then done per batch.
 */
final class ReadEventTimesFn extends DoFn<Row, List<ArrivedRow>> {
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

  ReadEventTimesFn(WindowPlan plan, int blockBits, TupleTag<List<ArrivedRow>> main, TupleTag<Row> rejected,
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
    ArrivedRow arrived = read(plan, row, out.get(rejected)::output);
    if (arrived == null) {
      rowsRejected.inc();
      return;
    }
    long position = arrived.position;
    long ts = arrived.eventTime;
    if (timestamp.isBefore(earliest)) {
      earliest = timestamp;
    }
    byBlock.computeIfAbsent(position >> blockBits, b -> new ArrivalTimes()).add(position, ts);
    if (++heldPairs == MAX_HELD_PAIRS) {
      byBlock.forEach((block, times) -> out.get(arrivals).outputWithTimestamp(KV.of(block, times), earliest));
      byBlock = new HashMap<>();
      heldPairs = 0;
    }
    batch.add(arrived);
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
   * The row with its arrival position and event time (no watermark yet), or null when it has no
   * usable position or time: then its rejected row, with the reason, has gone to {@code rejected}.
   */
  static ArrivedRow read(WindowPlan plan, Row row, Consumer<Row> rejected) {
    Long position = plan.position(row);
    if (position == null) {
      rejected.accept(ProblemRows.of(plan.problems, row, null,
          "the row has no arrival position, so its lateness cannot be decided"));
      return null;
    }
    try {
      return new ArrivedRow(position, plan.eventTime(row), ArrivedRow.NO_WATERMARK, row);
    } catch (EventTimeException e) {
      rejected.accept(ProblemRows.of(plan.problems, row, plan.timeField,
          plan.where(position) + ", field " + plan.timeField + ": " + e.getMessage()));
      return null;
    }
  }

  /**
   * Batches and positions go on at the earliest timestamp of the bundle's rows, which may be
   * before that of the row in hand; the bundle holds Beam's watermark there ({@link RowTimestamps#earliest()}).
   */
  @Override
  @SuppressWarnings("deprecation")
  public org.joda.time.Duration getAllowedTimestampSkew() {
    return org.joda.time.Duration.millis(Long.MAX_VALUE);
  }
}

