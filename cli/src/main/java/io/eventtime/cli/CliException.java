package io.eventtime.cli;

/** A refusal or failure the command reports as one error line with a code and a message. */
public final class CliException extends RuntimeException {
  private final ErrorCode code;

  public CliException(ErrorCode code, String message) {
    super(message);
    this.code = code;
  }

  public CliException(ErrorCode code, String message, Throwable cause) {
    super(message, cause);
    this.code = code;
  }

  public ErrorCode code() {
    return code;
  }
}
