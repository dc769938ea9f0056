package io.eventtime.cli;

import io.eventtime.cli.output.FileSink;
import io.eventtime.cli.output.OutputFile;
import io.eventtime.cli.output.ResultWriter;
import io.eventtime.cli.output.RowLog;
import io.eventtime.core.Stats;
import io.eventtime.core.LatePolicy;
import java.io.PrintStream;
import java.util.Map;

/**
 * What a run takes besides the plan: the watermark delay, the late policy, and where the rows it
 * leaves out go. Late rows go to {@code --late-output} when given; rejected rows to
 * {@code --rejected-output} when given, and the first few are told on stderr either way.
 *
 * <p>A runner opens those files with {@link #openOutputs} only once every check has passed and it
 * holds the state's lock, and ends the run with {@link #finish} (success) and then, in a
 * {@code finally}, {@link #keepAfterFailure} (which does nothing after a success).
 */
public final class RunSettings {
  private static final int REJECTIONS_TOLD = 5;

  private final long delayMillis;
  private final LatePolicy latePolicy;
  private final OutputFile lateFile;
  private final OutputFile rejectedFile;
  private final FileSink files;
  private final PrintStream err;
  private RowLog lateLog;
  private RowLog rejectedLog;
  private long rejectedTold;

  /** {@code lateFile} and {@code rejectedFile} may be null: those rows are then only counted. */
  public RunSettings(long delayMillis, LatePolicy latePolicy, OutputFile lateFile, OutputFile rejectedFile,
      FileSink files, PrintStream err) {
    this.delayMillis = delayMillis;
    this.latePolicy = latePolicy;
    this.lateFile = lateFile;
    this.rejectedFile = rejectedFile;
    this.files = files;
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
    return lateFile != null;
  }

  /** Opens the late and rejected files (temporary files beside them): after every check and the state's lock. */
  public void openOutputs() {
    RowLog late = lateFile == null ? null : RowLog.open(lateFile, files);
    try {
      rejectedLog = rejectedFile == null ? null : RowLog.open(rejectedFile, files);
    } catch (RuntimeException e) {
      if (late != null) {
        late.discard(); // a run refused before it starts leaves the late file as it was
      }
      throw e;
    }
    lateLog = late;
  }

  /**
   * Opens the late and rejected files of a live run in place, appended to: after the bytes
   * {@code committed} (the state's outputs, by path, the files already cut back to them) holds
   * for a file, else started empty.
   */
  public void openOutputsInPlace(Map<String, Long> committed) {
    RowLog late = lateFile == null ? null : RowLog.openInPlace(lateFile, committed.containsKey(path(lateFile)));
    try {
      rejectedLog = rejectedFile == null ? null
          : RowLog.openInPlace(rejectedFile, committed.containsKey(path(rejectedFile)));
    } catch (RuntimeException e) {
      if (late != null) {
        late.discard();
      }
      throw e;
    }
    lateLog = late;
  }

  /** The path of an output file as the state's outputs name it. */
  public static String path(OutputFile file) {
    return file.target().toString();
  }

  /** Forces the late and rejected files (written in place) and adds their lengths to {@code lengths}, by path. */
  public void committedLengths(Map<String, Long> lengths) {
    for (RowLog log : new RowLog[] {lateLog, rejectedLog}) {
      if (log != null) {
        lengths.put(log.path(), log.committedLength());
      }
    }
  }

  /** A late row of a file (partition -1: {@code line} is the file's line) or of a Kafka partition (at offset {@code line}). */
  public void late(String source, int partition, long line, long eventTime, String reason, byte[] buf, int off,
      int len) {
    if (lateLog != null) {
      lateLog.late(source, partition, line, eventTime, reason, buf, off, len);
    }
  }

  /** A rejected row, its position as {@link #late}'s. */
  public void rejected(String source, int partition, long line, String field, String reason, byte[] buf, int off,
      int len, boolean isJson) {
    if (rejectedLog != null) {
      rejectedLog.rejected(source, partition, line, field, reason, buf, off, len, isJson);
    }
    if (rejectedTold++ < REJECTIONS_TOLD) {
      String where = partition < 0 ? "line " + line + " of " + source
          : "offset " + line + " of partition " + partition + " of " + source;
      err.println("eventtime: rejected " + where + (field == null ? "" : ", field " + field) + ": " + reason);
    }
  }

  /**
   * Ends a run that succeeded, in the one order that never reports a success that is not one:
   * the result rows flushed to stdout, the late and rejected files on disk and moved into place,
   * the state stored ({@code storeState}, null without a state), and only then the stats line.
   * A failure at any step before the last leaves the state as it was and prints no stats line.
   */
  public void finish(ResultWriter writer, Stats stats, Runnable storeState) {
    writer.flush();
    if (lateLog != null) {
      lateLog.commit();
    }
    if (rejectedLog != null) {
      rejectedLog.commit();
    }
    summarizeRejections();
    if (storeState != null) {
      storeState.run();
    }
    writer.writeStats(stats, storeState != null);
  }

  /**
   * After a run that failed (a no-op after {@link #finish}): the late and rejected rows counted
   * before the failure are moved into place all the same, so that none is lost.
   */
  public void keepAfterFailure() {
    for (RowLog log : new RowLog[] {lateLog, rejectedLog}) {
      String problem = log == null ? null : log.keepAfterFailure();
      if (problem != null) {
        err.println("eventtime: " + problem);
      }
    }
  }

  /** Tells how many rejections stderr did not show, once the run is over. */
  private void summarizeRejections() {
    if (rejectedTold > REJECTIONS_TOLD) {
      err.println("eventtime: " + (rejectedTold - REJECTIONS_TOLD) + " more rows rejected"
          + (rejectedLog == null ? " (keep every rejected row with --rejected-output file://rejected.ndjson)" : ""));
    }
  }
}
