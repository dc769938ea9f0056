package io.eventtime.core.ndjson;

import java.io.IOException;

/** A line of an NDJSON file that is not one JSON object; the message says what is wrong. */
public final class MalformedLineException extends IOException {
  public MalformedLineException(String reason) {
    super(reason);
  }
}
