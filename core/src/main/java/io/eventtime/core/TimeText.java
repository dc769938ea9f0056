package io.eventtime.core;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * Writes event times the way every surface shows them: {@code 2026-07-18 10:00:00[.250]}, UTC.
 * The year is the proleptic one, as ISO-8601 reads it back: a window bound before the year 1
 * prints as {@code 0000-...} or {@code -0001-...}, one after 9999 as {@code +10000-...}, so two
 * different times never print alike.
 */
public final class TimeText {
  private static final DateTimeFormatter SECONDS = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss");
  private static final DateTimeFormatter MILLIS = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss.SSS");

  private TimeText() {}

  /** The time in UTC, with milliseconds only when they are not zero. */
  public static String format(long epochMillis) {
    LocalDateTime t = LocalDateTime.ofInstant(Instant.ofEpochMilli(epochMillis), ZoneOffset.UTC);
    return (Math.floorMod(epochMillis, 1000L) == 0 ? SECONDS : MILLIS).format(t);
  }
}
