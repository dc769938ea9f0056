package io.eventtime.hop.beam;

import io.eventtime.beam.BeamValues;
import io.eventtime.core.WindowResult;
import io.eventtime.hop.HopValues;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.StateSpecs;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.GroupByKey;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.WithKeys;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.apache.hop.core.exception.HopValueException;
import org.apache.hop.core.row.IRowMeta;

/**
 * Turns the window rows of an Event Time Window into the rows the Hop transform sends on: the
 * values in the Hop types of its output layout, and the rows in the order the local engine
 * emits them (window end, then start, then keys), each with its rank as arrival position so
 * that whatever comes next sees them in that order.
 *
 * <p>On a live stream (an unbounded input) the rows cannot wait for the end: each window row goes
 * on as it comes, ranked in the order it left the window ({@link LiveRankFn}).
 */
final class CloseOrder extends PTransform<PCollection<Row>, PCollection<Row>> {
  private final String transformName;
  private final RowLayout layout;
  private final int keyCount;

  CloseOrder(String transformName, RowLayout layout, int keyCount) {
    this.transformName = transformName;
    this.layout = layout;
    this.keyCount = keyCount;
  }

  @Override
  public PCollection<Row> expand(PCollection<Row> windows) {
    PCollection<KV<Integer, Row>> keyed = windows
        .apply("AllWindows", WithKeys.<Integer, Row>of(0).withKeyType(TypeDescriptors.integers()));
    if (windows.isBounded() == PCollection.IsBounded.UNBOUNDED) {
      return keyed.apply("RankAsTheyCome", ParDo.of(new LiveRankFn(transformName, layout)))
          .setRowSchema(layout.schema());
    }
    return keyed
        .apply("Gather", GroupByKey.create())
        .apply("Rank", ParDo.of(new RankFn(transformName, layout, keyCount)))
        .setRowSchema(layout.schema());
  }

  private static final class RankFn extends DoFn<KV<Integer, Iterable<Row>>, Row> {
    private final RowLayout layout;
    private final int keyCount;
    private final Counter written;

    RankFn(String transformName, RowLayout layout, int keyCount) {
      this.layout = layout;
      this.keyCount = keyCount;
      this.written = HopMetrics.counter(transformName, HopMetrics.Kind.WRITTEN);
    }

    @ProcessElement
    public void process(@Element KV<Integer, Iterable<Row>> all, OutputReceiver<Row> out) throws HopValueException {
      List<Ranked> rows = new ArrayList<>();
      for (Row r : all.getValue()) {
        rows.add(new Ranked(BeamValues.windowResult(r, keyCount), r));
      }
      rows.sort(Comparator.comparing(Ranked::result, WindowResult.CLOSE_ORDER));
      long rank = 0;
      for (Ranked ranked : rows) {
        out.output(hopRow(layout, ranked.row, rank++));
      }
      written.inc(rows.size());
    }
  }

  /**
   * The window rows of a live stream, each sent on at once with the next rank: one key, so that
   * the ranks follow the order in which the rows left the window.
   */
  private static final class LiveRankFn extends DoFn<KV<Integer, Row>, Row> {
    private final RowLayout layout;
    private final Counter written;

    @StateId("nextRank")
    private final StateSpec<ValueState<Long>> nextRank = StateSpecs.value(VarLongCoder.of());

    LiveRankFn(String transformName, RowLayout layout) {
      this.layout = layout;
      this.written = HopMetrics.counter(transformName, HopMetrics.Kind.WRITTEN);
    }

    @ProcessElement
    public void process(@Element KV<Integer, Row> window, @StateId("nextRank") ValueState<Long> nextRank,
        OutputReceiver<Row> out) throws HopValueException {
      Long stored = nextRank.read();
      long rank = stored == null ? 0 : stored;
      nextRank.write(rank + 1);
      written.inc();
      out.output(hopRow(layout, window.getValue(), rank));
    }
  }

  /** A window row of the Beam transform as a row of the Hop transform's layout, with its rank. */
  private static Row hopRow(RowLayout layout, Row window, long rank) throws HopValueException {
    IRowMeta meta = layout.rowMeta();
    Object[] hop = new Object[layout.size()];
    for (int i = 0; i < hop.length; i++) {
      hop[i] = HopValues.toHop(BeamValues.toCore(window.getValue(i)), meta.getValueMeta(i));
    }
    return layout.toBeam(hop, rank);
  }

  private record Ranked(WindowResult result, Row row) {}
}
