package io.eventtime.core;

import java.util.Locale;

/**
 * The event times and durations every surface supports. Event times are the instants of the
 * years 0001 to 9999 (UTC), which print and read back exactly as four-digit years; a duration
 * (a window size, slide or gap, a watermark delay) is at most 10,000 years. Within these bounds
 * no sum or difference the windowing makes (a start plus a size, a time plus a gap, a time less
 * a delay) comes near the 64-bit limit, so none of them can wrap.
 */
public final class TimeRange {
  /** 0001-01-01 00:00:00 UTC, the earliest event time. */
  public static final long MIN_MILLIS = -62_135_596_800_000L;
  /** 9999-12-31 23:59:59.999 UTC, the latest event time. */
  public static final long MAX_MILLIS = 253_402_300_799_999L;
  /** The longest duration in days: 10,000 Gregorian years. */
  public static final long MAX_DURATION_DAYS = 3_652_425L;
  /** The longest duration, {@value #MAX_DURATION_DAYS} days, in milliseconds. */
  public static final long MAX_DURATION_MILLIS = MAX_DURATION_DAYS * 86_400_000L;
  /** The longest duration as people write it, quoted by every refusal of a longer one. */
  public static final String MAX_DURATION_TEXT = MAX_DURATION_DAYS + " DAYS (10,000 years)";

  private TimeRange() {}

  /** Whether {@code epochMillis} is a supported event time. */
  public static boolean contains(long epochMillis) {
    return epochMillis >= MIN_MILLIS && epochMillis <= MAX_MILLIS;
  }

  /** The refusal of a time, {@code what} as the value was given, that lies outside the range. */
  static EventTimeException outside(String what) {
    return new EventTimeException(what + " is outside the supported range " + TimeText.format(MIN_MILLIS) + " to "
        + TimeText.format(MAX_MILLIS) + " (UTC): give a time of the years 0001 to 9999");
  }

  /**
   * Refuses a duration longer than the longest one (in either direction) with an
   * {@link IllegalArgumentException} naming {@code what} and the limit.
   */
  public static void requireDuration(String what, long millis) {
    if (millis > MAX_DURATION_MILLIS || millis < -MAX_DURATION_MILLIS) {
      throw new IllegalArgumentException(String.format(Locale.ROOT,
          "the %s (%d ms) is longer than the longest supported duration, %s: give a shorter one", what, millis,
          MAX_DURATION_TEXT));
    }
  }
}
