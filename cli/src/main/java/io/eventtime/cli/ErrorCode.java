package io.eventtime.cli;

/**
 * The codes of the one-line errors the command prints ({@code {"error":{"code":..,"message":..}}}),
 * each with the exit status it ends the command with.
 */
public enum ErrorCode {
  /** The SQL does not parse. */
  SYNTAX_ERROR(1),
  /** SQL outside the subset the command runs, and malformed window calls. */
  NOT_SUPPORTED(1),
  /** FROM names a table that is not the source. */
  UNKNOWN_TABLE(1),
  /** A column that the source's rows do not have. */
  UNKNOWN_COLUMN(1),
  /**
   * A column of the wrong type for where it is used (a time column that is not a TIMESTAMP), or a
   * sum of whole numbers that overflows a 64-bit whole number.
   */
  TYPE_MISMATCH(1),
  /** A query that parses and binds but does not make sense (a selected column not grouped). */
  INVALID_QUERY(1),
  /** A bad flag or flag value. */
  INVALID_ARGUMENT(2),
  /** A source file that is missing or cannot be read. */
  UNREADABLE_SOURCE(1),
  /** The --state directory or the state in it was refused (another query's, damaged, not writable). */
  STATE_REFUSED(1),
  /** Reading a source or writing an output failed during the run. */
  IO_ERROR(1),
  /** A bug: something the command did not expect. */
  INTERNAL_ERROR(3);

  private final int exitStatus;

  ErrorCode(int exitStatus) {
    this.exitStatus = exitStatus;
  }

  public int exitStatus() {
    return exitStatus;
  }
}
