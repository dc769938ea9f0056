package io.eventtime.beam;

import io.eventtime.core.OpenState;
import java.util.List;
import org.apache.beam.sdk.transforms.join.RawUnionValue;
import org.apache.beam.sdk.transforms.join.UnionCoder;

/**
 * What one grouping by key brings the session fold: batches of a key's rows and the key's
 * sessions carried over from the previous run, one collection of either. One grouping of both
 * rather than a join ({@code CoGroupByKey}) saves a step on each side of it, and a runner that
 * translates its steps for every bundle (the DirectRunner, one bundle per key here) pays for each.
 */
final class SessionParts {
  private static final int ROWS = 0;
  private static final int CARRIED = 1;

  private SessionParts() {}

  static RawUnionValue rows(List<ArrivedRow> batch) {
    return new RawUnionValue(ROWS, batch);
  }

  static RawUnionValue carried(OpenState.OpenWindow session) {
    return new RawUnionValue(CARRIED, session);
  }

  static boolean isRows(RawUnionValue part) {
    return part.getUnionTag() == ROWS;
  }

  @SuppressWarnings("unchecked")
  static List<ArrivedRow> rowsOf(RawUnionValue part) {
    return (List<ArrivedRow>) part.getValue();
  }

  static OpenState.OpenWindow carriedOf(RawUnionValue part) {
    return (OpenState.OpenWindow) part.getValue();
  }

  static UnionCoder coder(WindowPlan plan) {
    return UnionCoder.of(List.of(new ArrivedRowBatch.BatchCoder(new ArrivedRow.ArrivedRowCoder(plan.input)),
        OpenWindowCoder.of(plan.query.aggregates())));
  }
}
