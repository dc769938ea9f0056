package io.eventtime.hop;

/**
 * The error codes the Event time transforms give the rows they send to their error hop (Hop's
 * error code field), on the local engine and on Beam alike.
 */
public final class ErrorCodes {
  /** A line of an event file, or a Kafka record, that is not a readable record (Event File Input, Event Kafka Input). */
  public static final String UNREADABLE = "EVENTTIME-UNREADABLE";
  /** A row whose event time is missing or cannot be read (Event Time Stamp, Event Time Window). */
  public static final String REJECTED = "EVENTTIME-REJECTED";

  private ErrorCodes() {}
}
