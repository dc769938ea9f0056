package io.eventtime.hop.beam;

import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.hop.core.exception.HopException;

/**
 * Runs a chain of Hop transforms whose first reads no rows (a Data grid, a Table input...) once,
 * on one worker, until it is done; the rows it sends are numbered in the order they come.
 */
final class HopSourceFn extends DoFn<Integer, Row> {
  private final HopContext context;
  private final List<String> chain;
  private final List<String> targets;
  private final List<RowLayout> layouts;
  private final List<TupleTag<Row>> tags;
  private final List<Counter[]> counters = new ArrayList<>();

  HopSourceFn(HopContext context, List<String> chain, List<String> targets, List<RowLayout> layouts,
      List<TupleTag<Row>> tags) {
    this.context = context;
    this.chain = chain;
    this.targets = targets;
    this.layouts = layouts;
    this.tags = tags;
    chain.forEach(name -> counters.add(MiniPipeline.countersFor(name)));
  }

  @ProcessElement
  public void process(MultiOutputReceiver out) throws HopException {
    long[] next = new long[targets.size()];
    try (MiniPipeline mini = new MiniPipeline(context, chain, null, targets)) {
      mini.startBundle();
      // one round reads the first transform to its end and passes every row down the chain
      mini.iterate();
      emit(mini, next, out);
      mini.finishBundle();
      emit(mini, next, out);
      mini.report(counters);
    }
  }

  private void emit(MiniPipeline mini, long[] next, MultiOutputReceiver out) throws HopException {
    for (int i = 0; i < targets.size(); i++) {
      for (Object[] r : mini.take(i)) {
        out.get(tags.get(i)).output(layouts.get(i).toBeam(mini.layoutOf(i), r, next[i]++));
      }
    }
  }
}
