package io.eventtime.hop;

import io.eventtime.core.EventTimeException;
import io.eventtime.core.EventTimeParser;
import java.math.BigDecimal;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.List;
import java.util.Locale;
import org.apache.hop.i18n.BaseMessages;

/**
 * Reads the event time of a row from a Hop value: a Date or Timestamp, a whole epoch number
 * (Integer, or a whole Number or BigNumber), or a String in ISO-8601 form or in a pattern. The
 * reading itself is the core's {@link EventTimeParser}; this class only takes Hop's value types
 * to it.
 */
public final class EventTimeReader {
  private static final Class<?> PKG = EventTimeReader.class;

  private final EventTimeParser parser;

  private EventTimeReader(EventTimeParser parser) {
    this.parser = parser;
  }

  /**
   * A reader for the settings as the user wrote them (variables resolved): a pattern for strings
   * (blank for ISO-8601), the unit of epoch numbers (blank for milliseconds) and the zone of
   * times written without one (blank for UTC). Each setting that is wrong adds a problem that
   * says how to fix it; the result is null when there is any.
   */
  public static EventTimeReader of(String format, String epochUnit, String timeZone, List<String> problems) {
    EventTimeParser parser = EventTimeParser.defaults();
    int before = problems.size();
    String formatLabel = BaseMessages.getString(PKG, "EventTimeReader.Setting.TimeFormat");
    String unitLabel = BaseMessages.getString(PKG, "EventTimeReader.Setting.EpochUnit");
    String zoneLabel = BaseMessages.getString(PKG, "EventTimeReader.Setting.TimeZone");
    if (!isBlank(format) && !Settings.undefinedVariable(formatLabel, format, problems)) {
      try {
        parser = parser.withPattern(format.trim());
      } catch (IllegalArgumentException e) {
        problems.add(BaseMessages.getString(PKG, "Settings.Problem.Setting", formatLabel, e.getMessage()));
      }
    }
    if (!isBlank(epochUnit) && !Settings.undefinedVariable(unitLabel, epochUnit, problems)) {
      try {
        parser = parser.withEpochUnit(EventTimeParser.EpochUnit.parse(epochUnit));
      } catch (IllegalArgumentException e) {
        problems.add(BaseMessages.getString(PKG, "Settings.Problem.Setting", unitLabel, e.getMessage()));
      }
    }
    if (!isBlank(timeZone) && !Settings.undefinedVariable(zoneLabel, timeZone, problems)) {
      try {
        parser = parser.withZone(ZoneId.of(timeZone.trim()));
      } catch (DateTimeException e) {
        problems.add(BaseMessages.getString(PKG, "EventTimeReader.Problem.TimeZone", timeZone));
      }
    }
    return problems.size() == before ? new EventTimeReader(parser) : null;
  }

  /** The core parser behind this reader, for engines that read the times themselves (Beam). */
  public EventTimeParser parser() {
    return parser;
  }

  /** The event time in epoch milliseconds; {@link EventTimeException} says why a value is not one. */
  public long read(Object value) {
    if (value instanceof Double d) {
      return parser.parse(wholeNumber(d, d.toString()));
    }
    if (value instanceof BigDecimal b) {
      try {
        return parser.parse(b.longValueExact());
      } catch (ArithmeticException e) {
        throw new EventTimeException("the number " + b.toPlainString() + " is not a whole epoch "
            + parser.epochUnit().name().toLowerCase(Locale.ROOT));
      }
    }
    return parser.parse(value);
  }

  private Long wholeNumber(double d, String text) {
    if (d != Math.rint(d) || Double.isInfinite(d) || Math.abs(d) > 9.0e18) {
      throw new EventTimeException("the number " + text + " is not a whole epoch "
          + parser.epochUnit().name().toLowerCase(Locale.ROOT));
    }
    return (long) d;
  }

  static boolean isBlank(String s) {
    return s == null || s.isBlank();
  }
}
