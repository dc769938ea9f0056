package io.eventtime.cli.local;

import io.eventtime.cli.RunSettings;
import io.eventtime.cli.output.ResultWriter;
import io.eventtime.cli.plan.QueryPlan;
import io.eventtime.cli.source.LineSource;
import io.eventtime.core.OpenState;
import io.eventtime.core.Stats;
import io.eventtime.core.WindowProcessor;

/**
 * The {@code local} runner: one pass over the lines in arrival order through the core's
 * {@link WindowProcessor}, which holds only the open windows and hands each window over as soon
 * as the watermark closes it, so results stream out while the file is read. The lines are parsed
 * ahead on other threads ({@link ParsedLines}: only the fields the query uses) and folded here,
 * on one thread, in arrival order.
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
    Object[] inputs = new Object[plan.aggregates().size()];
    boolean keepLate = settings.keepsLateRows(); // a late row's reason is worded only when it is written
    long lastFlush = System.nanoTime();
    try (ParsedLines parsed = ParsedLines.start(plan, lines)) {
      ParsedLines.Batch b;
      while ((b = parsed.next()) != null) {
        for (int i = 0; i < b.size; i++) {
          switch (b.outcomes[i]) {
            case REJECTED:
              processor.reject();
              settings.rejected(b.sources[i], b.numbers[i], b.rejectedFields[i], b.rejectedReasons[i], b.bytes,
                  b.offsets[i], b.lengths[i], b.rejectedJson[i]);
              continue;
            case FILTERED:
              continue;
            default:
              break;
          }
          System.arraycopy(b.inputs, i * b.width, inputs, 0, b.width);
          long ts = b.times[i];
          if (!processor.process(b.keys[i], ts, inputs) && keepLate) {
            settings.late(b.sources[i], b.numbers[i], ts, processor.lateReason(ts), b.bytes, b.offsets[i],
                b.lengths[i]);
          }
        }
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
