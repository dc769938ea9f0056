package io.eventtime.core;

/**
 * The counts of a run, as the contract names them. Every row in is folded into a window,
 * counted late or rejected: {@code rowsIn == rowsFolded + lateDropped + rowsRejected}.
 */
public record Stats(long rowsIn, long rowsOut, long lateDropped, long windowsClosed, long rowsFolded,
    long rowsRejected) {

  public boolean balanced() {
    return rowsIn == rowsFolded + lateDropped + rowsRejected;
  }

  /** The stats as the one-line JSON object the command line prints. */
  public String toJson() {
    return "{\"stats\":{\"rows_in\":" + rowsIn + ",\"rows_out\":" + rowsOut + ",\"late_dropped\":" + lateDropped
        + ",\"windows_closed\":" + windowsClosed + ",\"rows_folded\":" + rowsFolded + ",\"rows_rejected\":"
        + rowsRejected + "}}";
  }
}
