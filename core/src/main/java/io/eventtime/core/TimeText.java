package io.eventtime.core;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
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
  private static final long MILLIS_PER_DAY = 86_400_000L;
  /** The days of the years 0 to 9999, the ones written with four digits and no sign. */
  private static final long FIRST_PLAIN_DAY = LocalDate.of(0, 1, 1).toEpochDay();
  private static final long LAST_PLAIN_DAY = LocalDate.of(9999, 12, 31).toEpochDay();

  private TimeText() {}

  /** The time in UTC, with milliseconds only when they are not zero. */
  public static String format(long epochMillis) {
    long day = Math.floorDiv(epochMillis, MILLIS_PER_DAY);
    if (day < FIRST_PLAIN_DAY || day > LAST_PLAIN_DAY) {
      LocalDateTime t = LocalDateTime.ofInstant(Instant.ofEpochMilli(epochMillis), ZoneOffset.UTC);
      return (Math.floorMod(epochMillis, 1000L) == 0 ? SECONDS : MILLIS).format(t);
    }
    // the formatter's own text, written digit by digit: every window row's bounds are formatted,
    // and the formatter's machinery cost a tenth of a second of compiling in each run
    LocalDate date = LocalDate.ofEpochDay(day);
    int ofDay = (int) (epochMillis - day * MILLIS_PER_DAY);
    int millis = ofDay % 1000;
    int seconds = ofDay / 1000;
    byte[] text = new byte[millis == 0 ? 19 : 23];
    digits(text, 0, date.getYear(), 4);
    text[4] = '-';
    digits(text, 5, date.getMonthValue(), 2);
    text[7] = '-';
    digits(text, 8, date.getDayOfMonth(), 2);
    text[10] = ' ';
    digits(text, 11, seconds / 3600, 2);
    text[13] = ':';
    digits(text, 14, seconds / 60 % 60, 2);
    text[16] = ':';
    digits(text, 17, seconds % 60, 2);
    if (millis != 0) {
      text[19] = '.';
      digits(text, 20, millis, 3);
    }
    return new String(text, StandardCharsets.US_ASCII);
  }

  /** Writes {@code value} (not negative) as {@code count} decimal digits, zeros in front, at {@code at}. */
  private static void digits(byte[] text, int at, int value, int count) {
    for (int i = at + count - 1; i >= at; i--) {
      text[i] = (byte) ('0' + value % 10);
      value /= 10;
    }
  }
}
