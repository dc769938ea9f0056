package io.eventtime.core;

import java.io.Serializable;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.time.temporal.ChronoField;
import java.time.temporal.TemporalAccessor;
import java.util.Date;
import java.util.Locale;
import java.util.Objects;

/**
 * Reads an event time from a field value into epoch milliseconds: a date-time object, a whole
 * number of epoch milliseconds or seconds, or a string in ISO-8601 form
 * ({@code 2026-07-18T10:00:03Z}, {@code 2026-07-18 10:00:03.250}, {@code 2026-07-18}) or in a
 * given pattern. Times without a zone are read in the parser's zone (UTC unless set).
 * A value it cannot read raises {@link EventTimeException} saying why.
 */
public final class EventTimeParser implements Serializable {

  /** The unit of event times given as whole numbers. */
  public enum EpochUnit {
    MILLISECONDS,
    SECONDS;

    public static EpochUnit parse(String text) {
      String t = text == null ? "" : text.trim().toUpperCase(Locale.ROOT);
      if (t.equals("MILLIS") || t.equals("MS") || t.startsWith("MILLISECOND")) {
        return MILLISECONDS;
      }
      if (t.equals("S") || t.equals("SECS") || t.startsWith("SECOND")) {
        return SECONDS;
      }
      throw new IllegalArgumentException("unknown epoch unit '" + text + "': use milliseconds or seconds");
    }
  }

  private static final DateTimeFormatter ISO = new DateTimeFormatterBuilder()
      .parseCaseInsensitive()
      .append(DateTimeFormatter.ISO_LOCAL_DATE)
      .optionalStart()
      .appendLiteral('T')
      .optionalEnd()
      .optionalStart()
      .appendLiteral(' ')
      .optionalEnd()
      .optionalStart()
      .append(DateTimeFormatter.ISO_LOCAL_TIME)
      .optionalStart()
      .appendOffset("+HH:MM", "Z")
      .optionalEnd()
      .optionalStart()
      .appendOffset("+HHMM", "Z")
      .optionalEnd()
      .optionalEnd()
      .toFormatter(Locale.ROOT)
      .withResolverStyle(ResolverStyle.STRICT); // a day that does not exist (02-30) is an error, not the month's end

  private final ZoneId zone;
  private final EpochUnit epochUnit;
  private final String pattern;
  private transient DateTimeFormatter formatter;

  private EventTimeParser(ZoneId zone, EpochUnit epochUnit, String pattern) {
    this.zone = Objects.requireNonNull(zone, "zone");
    this.epochUnit = Objects.requireNonNull(epochUnit, "epochUnit");
    this.pattern = pattern == null || pattern.isBlank() ? null : pattern;
    this.formatter = formatterFor(this.pattern);
  }

  private static DateTimeFormatter formatterFor(String pattern) {
    if (pattern == null) {
      return ISO;
    }
    try {
      // strict, so that 30/02 is refused rather than moved to 28/02; strict needs an era for yyyy
      return new DateTimeFormatterBuilder().appendPattern(pattern)
          .parseDefaulting(ChronoField.ERA, 1)
          .toFormatter(Locale.ROOT)
          .withResolverStyle(ResolverStyle.STRICT);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("the time pattern '" + pattern + "' is not valid (" + e.getMessage()
          + "): write it as java.time.format.DateTimeFormatter does, e.g. yyyy-MM-dd HH:mm:ss");
    }
  }

  /** ISO-8601 strings, epoch milliseconds, UTC. */
  public static EventTimeParser defaults() {
    return new EventTimeParser(ZoneOffset.UTC, EpochUnit.MILLISECONDS, null);
  }

  public EventTimeParser withZone(ZoneId z) {
    return new EventTimeParser(z, epochUnit, pattern);
  }

  public EventTimeParser withEpochUnit(EpochUnit unit) {
    return new EventTimeParser(zone, unit, pattern);
  }

  /** Strings in this {@link DateTimeFormatter} pattern instead of ISO-8601; null or blank for ISO. */
  public EventTimeParser withPattern(String p) {
    return new EventTimeParser(zone, epochUnit, p);
  }

  public ZoneId zone() {
    return zone;
  }

  public EpochUnit epochUnit() {
    return epochUnit;
  }

  public String pattern() {
    return pattern;
  }

  /**
   * The event time of {@code value} in epoch milliseconds, within {@link TimeRange}: a time
   * outside it is refused like any other value that is not a usable time.
   */
  public long parse(Object value) {
    long millis;
    try {
      millis = read(value);
    } catch (ArithmeticException beyondLong) {
      throw TimeRange.outside(describe(value));
    }
    if (!TimeRange.contains(millis)) {
      throw TimeRange.outside(describe(value));
    }
    return millis;
  }

  private String describe(Object value) {
    if (value instanceof CharSequence s) {
      return "'" + abbreviate(s.toString().trim()) + "'";
    }
    if (value instanceof Long || value instanceof Integer || value instanceof Short) {
      return "the epoch time " + value + " (in " + epochUnit.name().toLowerCase(Locale.ROOT) + ")";
    }
    return "the time " + value;
  }

  private long read(Object value) {
    if (value == null) {
      throw new EventTimeException("the time is null");
    }
    if (value instanceof Instant i) {
      return i.toEpochMilli();
    }
    if (value instanceof Long || value instanceof Integer || value instanceof Short) {
      long n = ((Number) value).longValue();
      if (epochUnit == EpochUnit.MILLISECONDS) {
        return n;
      }
      return Math.multiplyExact(n, 1000L);
    }
    if (value instanceof CharSequence s) {
      return parseText(s.toString());
    }
    if (value instanceof LocalDateTime t) {
      return t.atZone(zone).toInstant().toEpochMilli();
    }
    if (value instanceof OffsetDateTime t) {
      return t.toInstant().toEpochMilli();
    }
    if (value instanceof ZonedDateTime t) {
      return t.toInstant().toEpochMilli();
    }
    if (value instanceof LocalDate d) {
      return d.atStartOfDay(zone).toInstant().toEpochMilli();
    }
    if (value instanceof Date d) {
      return d.getTime();
    }
    throw new EventTimeException("a value of type " + value.getClass().getSimpleName()
        + " is not a time: give a timestamp, whole epoch " + epochUnit.name().toLowerCase(Locale.ROOT)
        + " or a date-time string");
  }

  private long parseText(String text) {
    boolean utc = ZoneOffset.UTC.equals(zone);
    if (pattern == null) {
      // a common time starts and ends with no space, so trimming it first would change nothing
      long common = CommonTimestamp.parse(text, utc);
      if (common != CommonTimestamp.NOT_COMMON) {
        return common;
      }
    }
    String s = text.trim();
    if (s.isEmpty()) {
      throw new EventTimeException("the time is an empty string");
    }
    if (pattern == null && s.length() != text.length()) {
      long common = CommonTimestamp.parse(s, utc);
      if (common != CommonTimestamp.NOT_COMMON) {
        return common;
      }
    }
    if (formatter == null) {
      formatter = formatterFor(pattern); // not serialized: rebuilt after the parser travels to a worker
    }
    try {
      TemporalAccessor t = formatter.parse(s);
      if (!t.isSupported(ChronoField.HOUR_OF_DAY)) {
        if (t.isSupported(ChronoField.HOUR_OF_AMPM) || t.isSupported(ChronoField.MINUTE_OF_HOUR)) {
          // a 12-hour clock without AM/PM: reading it as the date's midnight would lose the time silently
          throw new EventTimeException("'" + abbreviate(s) + "' has a time of day but no hour of day: in the pattern "
              + pattern + " write HH for hours 0-23, or add a (AM/PM) after hh");
        }
        return LocalDate.from(t).atStartOfDay(zone).toInstant().toEpochMilli();
      }
      if (t.isSupported(ChronoField.OFFSET_SECONDS)) {
        return OffsetDateTime.from(t).toInstant().toEpochMilli();
      }
      if (t.query(java.time.temporal.TemporalQueries.zoneId()) != null) {
        return ZonedDateTime.from(t).toInstant().toEpochMilli();
      }
      return LocalDateTime.from(t).atZone(zone).toInstant().toEpochMilli();
    } catch (DateTimeParseException e) {
      throw new EventTimeException("'" + abbreviate(s) + "' is not a time in "
          + (pattern == null ? "ISO-8601 form (e.g. 2026-07-18 10:00:03 or 2026-07-18T10:00:03Z)" : "the pattern " + pattern));
    } catch (DateTimeException e) {
      throw new EventTimeException("'" + abbreviate(s) + "' is not a complete time: " + e.getMessage());
    }
  }

  private static String abbreviate(String s) {
    return s.length() <= 60 ? s : s.substring(0, 57) + "...";
  }
}
