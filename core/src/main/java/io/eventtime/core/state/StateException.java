package io.eventtime.core.state;

/**
 * A state location that cannot be used: not writable, in use by another run, written for another
 * query, by a newer version, or corrupt. The message names the directory or file, says what is
 * wrong and how to go on. Nothing has been read from or written to the state when it is thrown.
 */
public class StateException extends RuntimeException {
  public StateException(String message) {
    super(message);
  }

  public StateException(String message, Throwable cause) {
    super(message, cause);
  }
}
