package io.eventtime.hop.beam;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.core.ArrivalPosition;
import io.eventtime.hop.beam.testplugin.UpperCaseMeta;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.coders.RowCoder;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TimestampedValue;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.TupleTagList;
import org.joda.time.Instant;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Hop transforms run row by row on a Beam worker: rows a transform holds to the bundle's end (as
 * one that writes in batches does) keep the arrival stamp of the input row whose position they go
 * on from, so that a live partition's stamps never go back as its positions go on.
 */
class HopTransformsFnTest {
  private static final Instant T0 = Instant.parse("2026-07-18T10:00:00Z");

  @BeforeAll
  static void hop() {
    HopBeamTesting.initHop();
  }

  @Test
  void rowsHeldToTheBundlesEndKeepTheStampOfTheRowTheirPositionGoesOnFrom() throws Exception {
    TestPipelines hop = new TestPipelines("held rows");
    UpperCaseMeta upper = new UpperCaseMeta();
    upper.setField("merchant");
    upper.setHoldValue("b");
    hop.add("Upper", upper);
    HopContext context = hop.context();
    RowLayout layout = TestPipelines.stringLayout("merchant");

    // each input row stamped T0 + its position in milliseconds; "b" rows are held to the bundle's end
    List<TimestampedValue<Row>> rows = new ArrayList<>();
    String[] merchants = {"a", "b", "c", "b", "d"};
    for (int i = 0; i < merchants.length; i++) {
      long position = i + 1;
      rows.add(TimestampedValue.of(layout.toBeam(new Object[] {merchants[i]}, position), T0.plus(position)));
    }
    Pipeline beam = Pipeline.create(PipelineOptionsFactory.fromArgs("--runner=DirectRunner").create());
    TupleTag<Row> nothing = new TupleTag<>("nothing");
    TupleTag<Row> toWrite = new TupleTag<>("to Write");
    PCollectionTuple out = beam.apply(Create.timestamped(rows).withCoder(RowCoder.of(layout.schema())))
        .apply(ParDo.of(new HopTransformsFn(context, List.of("Upper"), layout, List.of("Write"), List.of(layout),
            List.of(toWrite))).withOutputTags(nothing, TupleTagList.of(toWrite)));
    out.get(nothing).setRowSchema(layout.schema());
    out.get(toWrite).setRowSchema(layout.schema()).apply(ParDo.of(new StampOfItsRow()));
    SEEN.clear();
    beam.run().waitUntilFinish();
    assertThat(SEEN).containsExactlyInAnyOrder("A stamped as its row", "B stamped as its row", "C stamped as its row",
        "B stamped as its row", "D stamped as its row");
  }

  /** What {@link StampOfItsRow} saw: the Direct runner runs the steps in this JVM. */
  private static final Queue<String> SEEN = new ConcurrentLinkedQueue<>();

  /** Says of each row whether its stamp is T0 plus the input position its own position goes on from. */
  private static final class StampOfItsRow extends DoFn<Row, Void> {
    @ProcessElement
    public void process(@Element Row row, @Timestamp Instant stamp) {
      long from = RowLayout.arrival(row) >>> ArrivalPosition.FAN_OUT_BITS;
      SEEN.add(row.getString("merchant") + (stamp.equals(T0.plus(from)) ? " stamped as its row"
          : " stamped " + stamp + ", not as the row at position " + from));
    }
  }
}
