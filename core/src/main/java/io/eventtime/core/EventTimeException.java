package io.eventtime.core;

/** A value that is not a usable event time; the message says what was wrong with it. */
public final class EventTimeException extends IllegalArgumentException {
  public EventTimeException(String message) {
    super(message);
  }
}
