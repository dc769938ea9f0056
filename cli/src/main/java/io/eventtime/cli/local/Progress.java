package io.eventtime.cli.local;

import io.eventtime.core.TimeText;
import java.io.PrintStream;

/**
 * The progress line of a live run on stderr, rewritten in place at most once a second: rows read,
 * rows per second since the last line, the stream's watermark, the open windows and the late rows
 * so far. Only when stderr is a terminal (the launcher tells, {@value #TERMINAL_PROPERTY}) and
 * {@code --quiet} is not given; {@link #OFF} otherwise.
 */
public final class Progress {
  /** Set to true by the launchers when stderr is a terminal: Java cannot tell it by itself. */
  public static final String TERMINAL_PROPERTY = "eventtime.stderr.terminal";
  /** No progress line. */
  public static final Progress OFF = new Progress(null);
  private static final long EVERY_NANOS = 1_000_000_000L;

  private final PrintStream err;
  private long lastAt = System.nanoTime();
  private long lastRows;
  private boolean shown;

  private Progress(PrintStream err) {
    this.err = err;
  }

  /** The progress line on {@code err} unless {@code quiet} or stderr is not a terminal. */
  public static Progress on(PrintStream err, boolean quiet) {
    return quiet || !Boolean.getBoolean(TERMINAL_PROPERTY) ? OFF : new Progress(err);
  }

  /** Rewrites the line when a second has passed since the last one. */
  void update(long rows, Long watermark, int openWindows, long late) {
    if (err == null) {
      return;
    }
    long now = System.nanoTime();
    if (now - lastAt < EVERY_NANOS) {
      return;
    }
    long perSecond = (rows - lastRows) * 1_000_000_000L / (now - lastAt);
    lastAt = now;
    lastRows = rows;
    shown = true;
    err.print("\r\033[Keventtime: " + rows + " rows read, " + perSecond + " rows/s, watermark "
        + (watermark == null ? "none yet" : TimeText.format(watermark)) + ", " + openWindows + " open windows, "
        + late + " late");
    err.flush();
  }

  /** Ends the line, so that what stderr says next starts on a line of its own. */
  void end() {
    if (shown) {
      err.println();
    }
  }
}
