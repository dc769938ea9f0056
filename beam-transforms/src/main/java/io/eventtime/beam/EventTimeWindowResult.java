package io.eventtime.beam;

import java.util.Map;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PInput;
import org.apache.beam.sdk.values.POutput;
import org.apache.beam.sdk.values.PValue;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TupleTag;

/** The three outputs of {@link EventTimeWindow}: the windows, the late rows, the rejected rows. */
public final class EventTimeWindowResult implements POutput {
  private static final TupleTag<Row> WINDOWS = new TupleTag<>("windows");
  private static final TupleTag<Row> LATE = new TupleTag<>("late");
  private static final TupleTag<Row> REJECTED = new TupleTag<>("rejected");

  private final Pipeline pipeline;
  private final PCollection<Row> windows;
  private final PCollection<Row> late;
  private final PCollection<Row> rejected;

  EventTimeWindowResult(Pipeline pipeline, PCollection<Row> windows, PCollection<Row> late, PCollection<Row> rejected) {
    this.pipeline = pipeline;
    this.windows = windows;
    this.late = late;
    this.rejected = rejected;
  }

  /** One row per window per key: the key fields, the window bounds, the aggregates. */
  public PCollection<Row> windows() {
    return windows;
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
    return Map.of(WINDOWS, windows, LATE, late, REJECTED, rejected);
  }

  @Override
  public void finishSpecifyingOutput(String transformName, PInput input, PTransform<?, ?> transform) {}
}
