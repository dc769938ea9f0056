package io.eventtime.core.bind;

/**
 * Why a query cannot bind to its input: the part of the query at fault, the field it names
 * (null for a clash of output names when no input field is involved) and a message that says
 * what is wrong and how to fix it. {@code index} is the position of the key or aggregate in the
 * query, or of the column among the output names, so that a surface can point at its own line.
 */
public record BindProblem(Subject subject, int index, String field, Kind kind, String message) {
  /** The part of the query a problem is in. */
  public enum Subject {
    TIME,
    KEY,
    AGGREGATE,
    OUTPUT_NAME
  }

  /** What kind of mistake it is, so that a surface can pick its error code. */
  public enum Kind {
    /** A field the query names is not in the input. */
    MISSING_FIELD,
    /** A field is of a type its role cannot take. */
    WRONG_TYPE,
    /** Two output columns have the same name. */
    NAME_CLASH
  }
}
