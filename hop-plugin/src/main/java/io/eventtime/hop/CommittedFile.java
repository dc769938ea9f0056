package io.eventtime.hop;

/**
 * An output file that a stateful Event Time Window commits with its state: the window counts the
 * rows it sent, and before each commit asks for the file's length once exactly those rows are
 * written and forced to disk. On a restart the file is cut back to the committed length, so the
 * rows written after the last commit are not there twice.
 */
public interface CommittedFile {
  /** The file's absolute local path, as the state names it. */
  String committedPath();

  /**
   * Waits until {@code rows} rows are written, forces the file to disk and returns its length in
   * bytes; -1 when the output ended with another number of rows written (it failed, or was stopped
   * before it wrote them), so the commit must not happen.
   */
  long lengthAfter(long rows);

  /** Makes {@code window} the one whose state holds this file: called by the window at its init. */
  void commitWith(SharedState window);
}
