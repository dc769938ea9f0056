package io.eventtime.core.state;

/** A state document that does not hold what the format says, found while reading it. */
final class BadState extends RuntimeException {
  BadState(String where, String what) {
    super(where.isEmpty() ? what : where + ": " + what);
  }
}
