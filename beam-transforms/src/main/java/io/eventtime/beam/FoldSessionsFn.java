package io.eventtime.beam;

import io.eventtime.core.OpenState;
import io.eventtime.core.SessionSet;
import io.eventtime.core.WindowSpec;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.join.RawUnionValue;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollectionView;
import org.apache.beam.sdk.values.Row;

/** Folds one key's rows, in arrival order, into its sessions (and those carried over). */
final class FoldSessionsFn extends DoFn<KV<io.eventtime.core.Key, Iterable<RawUnionValue>>, Row> {
  private final WindowPlan plan;
  private final WindowSpec.Session spec;
  private final Carry carry;
  private final PCollectionView<WatermarkIndex> index;
  private final FoldedWindows.Tags out;
  private final Counter rowsFolded = EventTimeMetrics.counter(EventTimeMetrics.ROWS_FOLDED);
  private final Counter lateDropped = EventTimeMetrics.counter(EventTimeMetrics.LATE_DROPPED);
  private final Counter rowsOut = EventTimeMetrics.counter(EventTimeMetrics.ROWS_OUT);

  FoldSessionsFn(WindowPlan plan, WindowSpec.Session spec, Carry carry, PCollectionView<WatermarkIndex> index,
      FoldedWindows.Tags out) {
    this.plan = plan;
    this.spec = spec;
    this.carry = carry;
    this.index = index;
    this.out = out;
  }

  @ProcessElement
  public void process(@Element KV<io.eventtime.core.Key, Iterable<RawUnionValue>> group,
      MultiOutputReceiver receiver, ProcessContext c) {
    List<ArrivedRow> rows = new ArrayList<>();
    SessionSet sessions = new SessionSet(group.getKey(), spec, plan.query.latePolicy(), plan.aggregates());
    for (RawUnionValue part : group.getValue()) {
      if (SessionParts.isRows(part)) {
        rows.addAll(SessionParts.rowsOf(part));
      } else {
        OpenState.OpenWindow w = SessionParts.carriedOf(part);
        sessions.restore(w.start(), w.end() - spec.gapMillis(), plan.aggregates().copy(w.accumulators()));
      }
    }
    rows.sort(Comparator.comparingLong(r -> r.position));
    long folded = 0;
    for (ArrivedRow r : rows) {
      emit(sessions.pollClosed(r.watermark), sessions, receiver.get(out.windows()));
      if (sessions.fold(r.eventTime, plan.inputs(r.row), carry.arrival(r), r.watermark)) {
        folded++;
      } else {
        lateDropped.inc();
        receiver.get(out.late()).outputWithTimestamp(LateRows.of(plan, r, r.watermark), LateRows.timestamp(r));
      }
    }
    rowsFolded.inc(folded);
    if (!carry.holding()) {
      emit(sessions.pollClosed(Long.MAX_VALUE), sessions, receiver.get(out.windows()));
      return;
    }
    emit(sessions.pollClosed(c.sideInput(index).watermarkAtEnd(plan.query.delayMillis())), sessions,
        receiver.get(out.windows()));
    for (SessionSet.Session s : sessions.sessions()) {
      receiver.get(out.held()).output(new OpenState.OpenWindow(s.key(), s.start(), sessions.endOf(s), s.accumulators()));
    }
  }

  private void emit(List<SessionSet.Session> closed, SessionSet sessions, OutputReceiver<Row> windowRows) {
    for (SessionSet.Session s : closed) {
      rowsOut.inc();
      long end = sessions.endOf(s);
      windowRows.outputWithTimestamp(plan.windowRow(s.key(), s.start(), end, plan.aggregates().results(s.accumulators())),
          RowTimestamps.ofWindow(end));
    }
  }

  @Override
  @SuppressWarnings("deprecation") // on a runner whose grouping stamps at the end of the global window
  public org.joda.time.Duration getAllowedTimestampSkew() {
    return org.joda.time.Duration.millis(Long.MAX_VALUE);
  }
}

