package io.eventtime.beam;

import io.eventtime.core.OpenState;
import io.eventtime.core.WindowQuery;
import io.eventtime.core.state.StateCodec;
import java.io.IOException;
import java.util.List;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.Impulse;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.View;
import org.apache.beam.sdk.transforms.display.DisplayData;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionView;
import org.apache.beam.sdk.values.PDone;

/**
 * Writes the state a run that keeps one hands on, once every window is folded: the final
 * watermark, the next arrival position and the windows left open. It goes to the hand-off file
 * of the {@link EventTimeState}, through Beam's file systems (so a worker of a cluster writes it
 * to the shared location), which makes it the stored state only when the run succeeded.
 */
final class HandOffState extends PTransform<PCollection<OpenState.OpenWindow>, PDone> {
  private final WindowQuery query;
  private final String timeField;
  private final String handoff;
  private final Carry carry;
  private final PCollectionView<WatermarkIndex> index;

  /** The state of {@code query} over event times of {@code timeField}, written to {@code handoff}. */
  HandOffState(WindowQuery query, String timeField, String handoff, Carry carry, PCollectionView<WatermarkIndex> index) {
    this.query = query;
    this.timeField = timeField;
    this.handoff = handoff;
    this.carry = carry;
    this.index = index;
  }

  @Override
  public void populateDisplayData(DisplayData.Builder builder) {
    super.populateDisplayData(builder);
    builder.add(DisplayData.item("stateHandoff", handoff).withLabel("State hand-off file"));
  }

  @Override
  public PDone expand(PCollection<OpenState.OpenWindow> held) {
    PCollectionView<List<OpenState.OpenWindow>> heldView = held.apply("HeldWindows", View.asList());
    held.getPipeline()
        .apply("AtEnd", Impulse.create())
        .apply("HandOffState", ParDo.of(new HandOffStateFn(query, timeField, handoff, carry, index, heldView))
            .withSideInputs(index, heldView));
    return PDone.in(held.getPipeline());
  }

  /** Writes the state from the watermark index and the held windows, both side inputs. */
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
      EventTimeState.writeHandoff(handoff, new StateCodec(query, timeField).encode(next));
    }
  }
}
