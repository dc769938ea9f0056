package io.eventtime.beam;

import io.eventtime.core.LatePolicy;
import io.eventtime.core.WindowAssigner;
import org.apache.beam.sdk.values.Row;
import org.joda.time.Instant;

/** The rows of the late output: each row as it came, its time field, and why it was late in the core's words. */
final class LateRows {
  private LateRows() {}

  /** The late row of {@code r}, which arrived at {@code watermark}. */
  static Row of(WindowPlan plan, ArrivedRow r, long watermark) {
    LatePolicy policy = plan.query.latePolicy();
    return ProblemRows.of(plan.problems, r.row, plan.timeField,
        ProblemRows.lateReasonAt(plan.where(r.position), WindowAssigner.lateReason(policy, r.eventTime, watermark)));
  }

  /** A late row goes on at its event time, so that Beam's own windows can take it on. */
  static Instant timestamp(ArrivedRow r) {
    return RowTimestamps.at(r.eventTime);
  }
}
