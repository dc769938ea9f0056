package io.eventtime.core.ndjson;

import java.io.IOException;

/**
 * A line of an NDJSON file that cannot be taken as a row; the message says why. Either the line
 * is not one JSON object ({@link #field} is null), or it is one but a field it has cannot be
 * read (a number beyond the range of a double, a field name written twice): then
 * {@link #field} names that field and the line is well-formed JSON.
 */
public final class MalformedLineException extends IOException {
  private final String field;

  public MalformedLineException(String reason) {
    this(null, reason);
  }

  public MalformedLineException(String field, String reason) {
    super(reason);
    this.field = field;
  }

  /** The field at fault, or null when the line itself is not one JSON object. */
  public String field() {
    return field;
  }
}
