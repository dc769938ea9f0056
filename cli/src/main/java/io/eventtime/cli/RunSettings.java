package io.eventtime.cli;

import io.eventtime.cli.output.ResultWriter;
import io.eventtime.cli.output.RowLog;
import io.eventtime.core.Stats;
import io.eventtime.core.LatePolicy;
import java.io.PrintStream;

/**
 * What a run takes besides the plan: the watermark delay, the late policy, and where the rows it
 * leaves out go. Late rows go to {@code --late-output} when given; rejected rows to
 * {@code --rejected-output} when given, and the first few are told on stderr either way.
 */
public final class RunSettings {
  private static final int REJECTIONS_TOLD = 5;

  private final long delayMillis;
  private final LatePolicy latePolicy;
  private final RowLog lateLog;
  private final RowLog rejectedLog;
  private final PrintStream err;
  private long rejectedTold;

  public RunSettings(long delayMillis, LatePolicy latePolicy, RowLog lateLog, RowLog rejectedLog, PrintStream err) {
    this.delayMillis = delayMillis;
    this.latePolicy = latePolicy;
    this.lateLog = lateLog;
    this.rejectedLog = rejectedLog;
    this.err = err;
  }

  public long delayMillis() {
    return delayMillis;
  }

  public LatePolicy latePolicy() {
    return latePolicy;
  }

  /** Whether late rows are kept, so a runner must carry each row's text to where lateness is decided. */
  public boolean keepsLateRows() {
    return lateLog != null;
  }

  public void late(String source, long line, long eventTime, String reason, byte[] buf, int off, int len) {
    if (lateLog != null) {
      lateLog.late(source, line, eventTime, reason, buf, off, len);
    }
  }

  public void rejected(String source, long line, String field, String reason, byte[] buf, int off, int len,
      boolean isJson) {
    if (rejectedLog != null) {
      rejectedLog.rejected(source, line, field, reason, buf, off, len, isJson);
    }
    if (rejectedTold++ < REJECTIONS_TOLD) {
      err.println("eventtime: rejected line " + line + " of " + source + (field == null ? "" : ", field " + field)
          + ": " + reason);
    }
  }

  /**
   * Ends a run that succeeded: closes the late and rejected outputs, then prints the stats line
   * and flushes the output. A state is stored only after this.
   */
  public void finish(ResultWriter writer, Stats stats) {
    close();
    summarizeRejections();
    writer.writeStats(stats);
  }

  /** Tells how many rejections stderr did not show, once the run is over. */
  private void summarizeRejections() {
    if (rejectedTold > REJECTIONS_TOLD) {
      err.println("eventtime: " + (rejectedTold - REJECTIONS_TOLD) + " more rows rejected"
          + (rejectedLog == null ? " (keep every rejected row with --rejected-output file://rejected.ndjson)" : ""));
    }
  }

  private void close() {
    if (lateLog != null) {
      lateLog.close();
    }
    if (rejectedLog != null) {
      rejectedLog.close();
    }
  }
}
