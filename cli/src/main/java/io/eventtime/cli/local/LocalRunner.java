package io.eventtime.cli.local;

import io.eventtime.cli.RunSettings;
import io.eventtime.cli.output.ResultWriter;
import io.eventtime.cli.plan.PlanRows;
import io.eventtime.cli.plan.QueryPlan;
import io.eventtime.cli.plan.RowConverter;
import io.eventtime.cli.source.LineSource;
import io.eventtime.core.Key;
import io.eventtime.core.OpenState;
import io.eventtime.core.Stats;
import io.eventtime.core.WindowProcessor;

/**
 * The {@code local} runner: one pass over the lines in arrival order through the core's
 * {@link WindowProcessor}, which holds only the open windows and hands each window over as soon
 * as the watermark closes it, so results stream out while the file is read. Only the fields
 * the query uses are parsed from each line.
 */
public final class LocalRunner {
  private static final long FLUSH_NANOS = 200_000_000L;

  private LocalRunner() {}

  /** What a run ends with: its stats, and the open windows it held back when it carries state. */
  public record Outcome(Stats stats, OpenState held) {}

  /**
   * Runs the plan from {@code start} (the stored state, or {@link OpenState#empty()}); with
   * {@code hold}, the windows still open at the end are handed back instead of emitted.
   */
  public static Outcome run(QueryPlan plan, RunSettings settings, LineSource lines, ResultWriter out, OpenState start,
      boolean hold) {
    WindowProcessor processor = new WindowProcessor(
        plan.windowQuery(settings.delayMillis(), settings.latePolicy()), out::write, start);
    PlanRows rows = new PlanRows(plan);
    RowConverter converter = rows.converter();
    Object[] inputs = new Object[plan.aggregates().size()];
    long lastFlush = System.nanoTime();
    long n = 0;
    while (lines.next()) {
      byte[] buf = lines.buffer();
      int off = lines.offset();
      int len = lines.length();
      switch (rows.read(buf, off, len)) {
        case REJECTED:
          processor.reject();
          settings.rejected(lines.source(), lines.lineNumber(), rows.rejectedField(), rows.rejectedReason(), buf, off,
              len, rows.rejectedJson());
          continue;
        case FILTERED:
          continue;
        default:
          break;
      }
      Object[] row = rows.row();
      long ts = rows.eventTime();
      Key key = converter.key(row);
      converter.aggregateInputs(row, inputs);
      if (!processor.process(key, ts, inputs)) {
        settings.late(lines.source(), lines.lineNumber(), ts, processor.lateReason(ts), buf, off, len);
      }
      if ((++n & 4095) == 0) {
        long now = System.nanoTime();
        if (now - lastFlush > FLUSH_NANOS) {
          out.flush();
          lastFlush = now;
        }
      }
    }
    if (hold) {
      OpenState held = processor.hold();
      return new Outcome(processor.stats(), held);
    }
    processor.finish();
    return new Outcome(processor.stats(), null);
  }
}
