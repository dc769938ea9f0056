package io.eventtime.hop.beam;

import io.eventtime.beam.BeamValues;
import io.eventtime.beam.EventTimeWindow;
import io.eventtime.hop.HopValues;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;
import org.apache.hop.core.exception.HopValueException;
import org.apache.hop.core.row.IRowMeta;

/**
 * Turns the window rows of an Event Time Window, ranked in close order by {@link
 * EventTimeWindow#withCloseOrder} (window end, then start, then keys: the order the local engine
 * emits them), into the rows the Hop transform sends on: the values in the Hop types of its
 * output layout, each with its rank as arrival position so that whatever comes next sees them in
 * that order. On a live stream each row is ranked as soon as the watermark of every key group
 * has closed its window, so the rows go on while the pipeline runs.
 */
final class CloseOrder extends PTransform<PCollection<KV<Long, Row>>, PCollection<Row>> {
  private final String transformName;
  private final RowLayout layout;

  CloseOrder(String transformName, RowLayout layout) {
    this.transformName = transformName;
    this.layout = layout;
  }

  @Override
  public PCollection<Row> expand(PCollection<KV<Long, Row>> ranked) {
    return ranked.apply("HopRows", ParDo.of(new HopRowFn(transformName, layout))).setRowSchema(layout.schema());
  }

  private static final class HopRowFn extends DoFn<KV<Long, Row>, Row> {
    private final RowLayout layout;
    private final Counter written;

    HopRowFn(String transformName, RowLayout layout) {
      this.layout = layout;
      this.written = HopMetrics.counter(transformName, HopMetrics.Kind.WRITTEN);
    }

    @ProcessElement
    public void process(@Element KV<Long, Row> window, OutputReceiver<Row> out) throws HopValueException {
      IRowMeta meta = layout.rowMeta();
      Object[] hop = new Object[layout.size()];
      for (int i = 0; i < hop.length; i++) {
        hop[i] = HopValues.toHop(BeamValues.toCore(window.getValue().getValue(i)), meta.getValueMeta(i));
      }
      written.inc();
      out.output(layout.toBeam(hop, window.getKey()));
    }
  }
}
