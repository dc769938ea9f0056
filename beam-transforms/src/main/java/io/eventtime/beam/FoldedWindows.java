package io.eventtime.beam;

import io.eventtime.core.OpenState;
import java.io.Serializable;
import java.util.Map;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.windowing.TimestampCombiner;
import org.apache.beam.sdk.transforms.windowing.Window;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PInput;
import org.apache.beam.sdk.values.POutput;
import org.apache.beam.sdk.values.PValue;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TupleTag;

/**
 * What folding the rows into windows gives ({@link GridWindows}, {@link SessionWindows}): the
 * window rows and the late rows, as the transform's outputs, and the windows held open for the
 * state hand-off.
 */
final class FoldedWindows implements POutput {
  private static final TupleTag<Row> WINDOWS = new TupleTag<>("windows");
  private static final TupleTag<Row> LATE = new TupleTag<>("late");
  private static final TupleTag<OpenState.OpenWindow> HELD = new TupleTag<>("held");

  /** The tags under which a fold's steps hand on the window rows, the late rows and the held windows. */
  record Tags(TupleTag<Row> windows, TupleTag<Row> late, TupleTag<OpenState.OpenWindow> held) implements Serializable {
    /** New tags, for one application of a fold. */
    static Tags create() {
      return new Tags(new TupleTag<>() {}, new TupleTag<>() {}, new TupleTag<>() {});
    }
  }

  private final PCollection<Row> windows;
  private final PCollection<Row> late;
  private final PCollection<OpenState.OpenWindow> held;

  private FoldedWindows(PCollection<Row> windows, PCollection<Row> late, PCollection<OpenState.OpenWindow> held) {
    this.windows = windows;
    this.late = late;
    this.held = held;
  }

  /**
   * The outputs of a fold, with their schemas and coders, and the window and late rows as Beam's
   * own windowing expects them: a later grouping stamps its results at the end of the window.
   */
  static FoldedWindows of(WindowPlan plan, PCollection<Row> windows, PCollection<Row> late,
      PCollection<OpenState.OpenWindow> held) {
    return new FoldedWindows(
        windows.setRowSchema(plan.output).apply("WindowRowsAsUsual", endOfWindow()),
        late.setRowSchema(plan.problems).apply("LateRowsAsUsual", endOfWindow()),
        held.setCoder(OpenWindowCoder.of(plan.query.aggregates())));
  }

  private static PTransform<PCollection<Row>, PCollection<Row>> endOfWindow() {
    return Window.<Row>configure().withTimestampCombiner(TimestampCombiner.END_OF_WINDOW);
  }

  /** One row per window per key. */
  PCollection<Row> windows() {
    return windows;
  }

  /** The rows that came too late for their windows, with the reason. */
  PCollection<Row> late() {
    return late;
  }

  /** The windows a run that keeps its state leaves open (empty when it keeps none). */
  PCollection<OpenState.OpenWindow> held() {
    return held;
  }

  @Override
  public Pipeline getPipeline() {
    return windows.getPipeline();
  }

  @Override
  public Map<TupleTag<?>, PValue> expand() {
    return Map.of(WINDOWS, windows, LATE, late, HELD, held);
  }

  @Override
  public void finishSpecifyingOutput(String transformName, PInput input, PTransform<?, ?> transform) {}
}
