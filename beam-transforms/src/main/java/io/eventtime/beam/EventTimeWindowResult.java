package io.eventtime.beam;

import java.util.Map;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PInput;
import org.apache.beam.sdk.values.POutput;
import org.apache.beam.sdk.values.PValue;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TupleTag;

/**
 * The outputs of {@link EventTimeWindow}: the windows, the late rows, the rejected rows; with
 * {@link EventTimeWindow#withCloseOrder} also the windows ranked in close order.
 */
public final class EventTimeWindowResult implements POutput {
  private static final TupleTag<Row> WINDOWS = new TupleTag<>("windows");
  private static final TupleTag<KV<Long, Row>> WINDOWS_IN_CLOSE_ORDER = new TupleTag<>("windowsInCloseOrder");
  private static final TupleTag<Row> LATE = new TupleTag<>("late");
  private static final TupleTag<Row> REJECTED = new TupleTag<>("rejected");

  private final Pipeline pipeline;
  private final PCollection<Row> windows;
  /** The window rows ranked in close order, null without {@link EventTimeWindow#withCloseOrder}. */
  private final PCollection<KV<Long, Row>> windowsInCloseOrder;
  private final PCollection<Row> late;
  private final PCollection<Row> rejected;

  EventTimeWindowResult(Pipeline pipeline, PCollection<Row> windows, PCollection<KV<Long, Row>> windowsInCloseOrder,
      PCollection<Row> late, PCollection<Row> rejected) {
    this.pipeline = pipeline;
    this.windows = windows;
    this.windowsInCloseOrder = windowsInCloseOrder;
    this.late = late;
    this.rejected = rejected;
  }

  /** One row per window per key: the key fields, the window bounds, the aggregates. */
  public PCollection<Row> windows() {
    return windows;
  }

  /**
   * The window rows of {@link #windows()}, each with its rank (0, 1, ... with no gap) in the
   * order one processor reading the input in arrival order emits them: by window end, then start,
   * then key ({@code WindowResult.CLOSE_ORDER}). A PCollection has no order, so the rank is how a
   * sink writes the rows in that order: a sink may write rank {@code n} once ranks {@code 0..n-1}
   * are written. Needs {@link EventTimeWindow#withCloseOrder}.
   *
   * @throws IllegalStateException when the transform was applied without close order
   */
  public PCollection<KV<Long, Row>> windowsInCloseOrder() {
    if (windowsInCloseOrder == null) {
      throw new IllegalStateException("the window rows are not ranked: apply EventTimeWindow...withCloseOrder() to"
          + " have them in close order");
    }
    return windowsInCloseOrder;
  }

  /** The rows that came too late for every window they belong to, with the reason ({@link ProblemRows}). */
  public PCollection<Row> late() {
    return late;
  }

  /** The rows with no usable event time, with the field and the reason ({@link ProblemRows}). */
  public PCollection<Row> rejected() {
    return rejected;
  }

  @Override
  public Pipeline getPipeline() {
    return pipeline;
  }

  @Override
  public Map<TupleTag<?>, PValue> expand() {
    return windowsInCloseOrder == null ? Map.of(WINDOWS, windows, LATE, late, REJECTED, rejected)
        : Map.of(WINDOWS, windows, WINDOWS_IN_CLOSE_ORDER, windowsInCloseOrder, LATE, late, REJECTED, rejected);
  }

  @Override
  public void finishSpecifyingOutput(String transformName, PInput input, PTransform<?, ?> transform) {}
}
