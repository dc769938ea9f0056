package io.eventtime.beam;

import io.eventtime.core.WindowResult;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.RowCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.GroupByKey;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.WithKeys;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TypeDescriptors;

/**
 * The window rows of a bounded run ranked in close order ({@link WindowResult#CLOSE_ORDER}), the
 * order a replay in arrival order emits them: every row is gathered under one key and sorted, which
 * a bounded input can afford (the window rows of the run, not its input rows). The live path ranks
 * them as they close instead ({@link LiveWindowsClosed}).
 */
final class RankInCloseOrder extends PTransform<PCollection<Row>, PCollection<KV<Long, Row>>> {
  private final int keyCount;

  RankInCloseOrder(int keyCount) {
    this.keyCount = keyCount;
  }

  @Override
  public PCollection<KV<Long, Row>> expand(PCollection<Row> windows) {
    return windows
        .apply("AllWindows", WithKeys.<Integer, Row>of(0).withKeyType(TypeDescriptors.integers()))
        .apply("Gather", GroupByKey.create())
        .apply("Rank", ParDo.of(new RankFn(keyCount)))
        .setCoder(KvCoder.of(VarLongCoder.of(), RowCoder.of(windows.getSchema())));
  }

  private static final class RankFn extends DoFn<KV<Integer, Iterable<Row>>, KV<Long, Row>> {
    private final int keyCount;

    RankFn(int keyCount) {
      this.keyCount = keyCount;
    }

    @ProcessElement
    public void process(@Element KV<Integer, Iterable<Row>> all, OutputReceiver<KV<Long, Row>> out) {
      List<KV<WindowResult, Row>> rows = new ArrayList<>();
      for (Row r : all.getValue()) {
        rows.add(KV.of(BeamValues.windowResult(r, keyCount), r));
      }
      rows.sort(Comparator.comparing(KV::getKey, WindowResult.CLOSE_ORDER));
      long rank = 0;
      for (KV<WindowResult, Row> r : rows) {
        out.output(KV.of(rank++, r.getValue()));
      }
    }
  }
}
