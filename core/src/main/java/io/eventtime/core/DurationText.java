package io.eventtime.core;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a duration as people write it on every surface: {@code 5 MINUTE}, {@code 30 seconds},
 * {@code 1500ms}, {@code 2h}, or ISO-8601 {@code PT5M}. Units from milliseconds to days,
 * singular or plural, any case.
 */
public final class DurationText {
  private static final Pattern AMOUNT_UNIT = Pattern.compile("(-?\\d+)\\s*([a-zA-Z]+)");

  private DurationText() {}

  /** The refusal of a duration longer than {@link TimeRange#MAX_DURATION_TEXT}. */
  public static final class TooLongException extends IllegalArgumentException {
    TooLongException(String message) {
      super(message);
    }
  }

  /**
   * The duration in milliseconds; one longer than {@link TimeRange#MAX_DURATION_TEXT} (either
   * way) is refused, naming that limit.
   */
  public static long parseMillis(String text) {
    long millis = read(text);
    if (millis > TimeRange.MAX_DURATION_MILLIS || millis < -TimeRange.MAX_DURATION_MILLIS) {
      throw tooLong(text);
    }
    return millis;
  }

  private static long read(String text) {
    String t = text == null ? "" : text.trim();
    if (t.toUpperCase(Locale.ROOT).startsWith("PT") || t.toUpperCase(Locale.ROOT).startsWith("P")) {
      Duration d;
      try {
        d = Duration.parse(t);
      } catch (DateTimeParseException e) {
        throw refuse(text);
      }
      try {
        return d.toMillis();
      } catch (ArithmeticException e) {
        throw tooLong(text);
      }
    }
    Matcher m = AMOUNT_UNIT.matcher(t);
    if (!m.matches()) {
      throw refuse(text);
    }
    long unit = unitMillis(m.group(2), text);
    try {
      return Math.multiplyExact(Long.parseLong(m.group(1)), unit);
    } catch (NumberFormatException | ArithmeticException e) {
      throw tooLong(text);
    }
  }

  /** Milliseconds in one of {@code unit}, or an error naming the units there are. */
  public static long unitMillis(String unit, String whole) {
    switch (unit.toUpperCase(Locale.ROOT)) {
      case "MS": case "MILLI": case "MILLIS": case "MILLISECOND": case "MILLISECONDS":
        return 1L;
      case "S": case "SEC": case "SECS": case "SECOND": case "SECONDS":
        return 1_000L;
      case "M": case "MIN": case "MINS": case "MINUTE": case "MINUTES":
        return 60_000L;
      case "H": case "HOUR": case "HOURS":
        return 3_600_000L;
      case "D": case "DAY": case "DAYS":
        return 86_400_000L;
      default:
        throw refuse(whole);
    }
  }

  private static TooLongException tooLong(String text) {
    return new TooLongException("'" + text + "' is too long a duration: give at most "
        + TimeRange.MAX_DURATION_TEXT);
  }

  private static IllegalArgumentException refuse(String text) {
    return new IllegalArgumentException("'" + text + "' is not a duration: write an amount and a unit,"
        + " e.g. 5 MINUTE, 30 SECONDS or 1500 MILLISECONDS (units MILLISECOND, SECOND, MINUTE, HOUR, DAY)");
  }
}
