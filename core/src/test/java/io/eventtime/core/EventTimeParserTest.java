package io.eventtime.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Date;
import org.junit.jupiter.api.Test;

/** Event times from every kind of value, and a clear refusal, naming what was wrong, for every bad one. */
class EventTimeParserTest {
  private static final EventTimeParser ISO = EventTimeParser.defaults();
  private static final ZoneId PARIS = ZoneId.of("Europe/Paris");

  // 2026-07-18 10:00:03 UTC (checked with date -u -d ... +%s)
  private static final long T = 1_784_368_803_000L;

  @Test
  void isoWithAndWithoutZoneOffsetOrFraction() {
    assertThat(ISO.parse("2026-07-18 10:00:03")).isEqualTo(T);
    assertThat(ISO.parse("2026-07-18T10:00:03")).isEqualTo(T);
    assertThat(ISO.parse("2026-07-18T10:00:03Z")).isEqualTo(T);
    assertThat(ISO.parse("2026-07-18t10:00:03z")).isEqualTo(T);
    assertThat(ISO.parse("  2026-07-18 10:00:03  ")).isEqualTo(T);
    assertThat(ISO.parse("2026-07-18T10:00")).isEqualTo(T - 3_000);
    assertThat(ISO.parse("2026-07-18T10:00:03.250")).isEqualTo(T + 250);
    assertThat(ISO.parse("2026-07-18T10:00:03.5Z")).isEqualTo(T + 500);
    assertThat(ISO.parse("2026-07-18T10:00:03.123456789Z")).isEqualTo(T + 123);
    assertThat(ISO.parse("2026-07-18T12:00:03+02:00")).isEqualTo(T);
    assertThat(ISO.parse("2026-07-18T12:00:03.250+02:00")).isEqualTo(T + 250);
    assertThat(ISO.parse("2026-07-18T12:00:03+0200")).isEqualTo(T);
    assertThat(ISO.parse("2026-07-18T05:00:03-05:00")).isEqualTo(T);
    assertThat(ISO.parse("2026-07-18 10:00:03+00:00")).isEqualTo(T);
  }

  @Test
  void aDateAloneIsItsMidnight() {
    assertThat(ISO.parse("2026-07-18")).isEqualTo(1_784_332_800_000L);
    assertThat(ISO.parse("2024-02-29")).isEqualTo(1_709_164_800_000L);
    assertThat(ISO.withZone(PARIS).parse("2026-07-18")).isEqualTo(1_784_325_600_000L);
  }

  @Test
  void timesWithoutAZoneAreReadInTheParsersZone() {
    EventTimeParser paris = ISO.withZone(PARIS);
    assertThat(paris.zone()).isEqualTo(PARIS);
    assertThat(paris.parse("2026-07-18 10:00:03")).isEqualTo(T - 2 * 3_600_000); // CEST, UTC+2
    assertThat(paris.parse("2026-01-18 10:00:03")).isEqualTo(1_768_726_803_000L); // CET, UTC+1
    assertThat(paris.parse("2026-07-18T10:00:03Z")).isEqualTo(T); // an explicit offset wins
    assertThat(paris.parse(LocalDateTime.of(2026, 7, 18, 10, 0, 3))).isEqualTo(T - 2 * 3_600_000);
    assertThat(ISO.withZone(ZoneOffset.ofHours(-5)).parse("2026-07-18 10:00:03")).isEqualTo(T + 5 * 3_600_000);
    assertThat(ISO.withZone(ZoneId.of("Asia/Kolkata")).parse("2026-07-18T15:30:03")).isEqualTo(T);
  }

  @Test
  void dateTimeObjects() {
    assertThat(ISO.parse(Instant.ofEpochMilli(T))).isEqualTo(T);
    assertThat(ISO.parse(LocalDateTime.of(2026, 7, 18, 10, 0, 3))).isEqualTo(T);
    assertThat(ISO.parse(OffsetDateTime.of(2026, 7, 18, 12, 0, 3, 0, ZoneOffset.ofHours(2)))).isEqualTo(T);
    assertThat(ISO.parse(ZonedDateTime.of(2026, 7, 18, 12, 0, 3, 0, PARIS))).isEqualTo(T);
    assertThat(ISO.parse(LocalDate.of(2026, 7, 18))).isEqualTo(1_784_332_800_000L);
    assertThat(ISO.parse(new Date(T))).isEqualTo(T);
  }

  @Test
  void wholeNumbersAreEpochMillisecondsOrSeconds() {
    assertThat(ISO.epochUnit()).isEqualTo(EventTimeParser.EpochUnit.MILLISECONDS);
    assertThat(ISO.parse(T)).isEqualTo(T);
    assertThat(ISO.parse(12)).isEqualTo(12L);
    assertThat(ISO.parse((short) -3)).isEqualTo(-3L);
    assertThat(ISO.parse(-3_600_000L)).isEqualTo(-3_600_000L);
    EventTimeParser seconds = ISO.withEpochUnit(EventTimeParser.EpochUnit.SECONDS);
    assertThat(seconds.parse(1_784_368_803L)).isEqualTo(T);
    assertThat(seconds.parse(1_784_368_803)).isEqualTo(T);
    assertThat(seconds.parse(-3600)).isEqualTo(-3_600_000L);
    assertThat(seconds.parse("2026-07-18 10:00:03")).isEqualTo(T); // strings are still read as times
    assertThatThrownBy(() -> seconds.parse(Long.MAX_VALUE)).isInstanceOf(EventTimeException.class)
        .hasMessage("the epoch time 9223372036854775807 (in seconds) is outside the supported range"
            + " 0001-01-01 00:00:00 to 9999-12-31 23:59:59.999 (UTC): give a time of the years 0001 to 9999");
  }

  @Test
  void epochUnitNames() {
    for (String ms : new String[] {"ms", "MILLIS", "milliseconds", "Millisecond", " ms "}) {
      assertThat(EventTimeParser.EpochUnit.parse(ms)).as(ms).isEqualTo(EventTimeParser.EpochUnit.MILLISECONDS);
    }
    for (String s : new String[] {"s", "SECS", "seconds", "Second"}) {
      assertThat(EventTimeParser.EpochUnit.parse(s)).as(s).isEqualTo(EventTimeParser.EpochUnit.SECONDS);
    }
    assertThatThrownBy(() -> EventTimeParser.EpochUnit.parse("minutes"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("unknown epoch unit 'minutes': use milliseconds or seconds");
    assertThatThrownBy(() -> EventTimeParser.EpochUnit.parse(null)).hasMessageContaining("unknown epoch unit 'null'");
  }

  @Test
  void nullAndEmptyAreRefusedWithTheReason() {
    assertThatThrownBy(() -> ISO.parse(null)).isInstanceOf(EventTimeException.class).hasMessage("the time is null");
    assertThatThrownBy(() -> ISO.parse("")).isInstanceOf(EventTimeException.class)
        .hasMessage("the time is an empty string");
    assertThatThrownBy(() -> ISO.parse("   ")).isInstanceOf(EventTimeException.class)
        .hasMessage("the time is an empty string");
  }

  @Test
  void unparseableStringsAreRefusedWithTheValueAndTheExpectedForm() {
    String expected = " is not a time in ISO-8601 form (e.g. 2026-07-18 10:00:03 or 2026-07-18T10:00:03Z)";
    for (String bad : new String[] {"abc", "2026-07-18 10", "2026-13-01", "2026-07-18T25:00", "18/07/2026",
        "2026-07-18T10:00:03Z[Europe/Paris]", "1784368803000", "yesterday"}) {
      assertThatThrownBy(() -> ISO.parse(bad)).as(bad).isInstanceOf(EventTimeException.class)
          .hasMessage("'" + bad + "'" + expected);
    }
    String longText = "x".repeat(100);
    assertThatThrownBy(() -> ISO.parse(longText)).hasMessage("'" + "x".repeat(57) + "...'" + expected);
  }

  @Test
  void aDayThatDoesNotExistIsRefusedNotMovedToTheEndOfTheMonth() {
    for (String bad : new String[] {"2026-02-30", "2026-02-29 10:00:00", "2026-04-31T00:00:00Z"}) {
      assertThatThrownBy(() -> ISO.parse(bad)).as(bad).isInstanceOf(EventTimeException.class)
          .hasMessageStartingWith("'" + bad + "' is not a time");
    }
    EventTimeParser dayFirst = ISO.withPattern("dd/MM/yyyy HH:mm");
    assertThatThrownBy(() -> dayFirst.parse("30/02/2026 10:30")).isInstanceOf(EventTimeException.class)
        .hasMessageStartingWith("'30/02/2026 10:30' is not a time");
  }

  @Test
  void valuesOfTheWrongTypeAreRefusedWithTheirType() {
    assertThatThrownBy(() -> ISO.parse(Boolean.TRUE)).isInstanceOf(EventTimeException.class)
        .hasMessage("a value of type Boolean is not a time: give a timestamp, whole epoch milliseconds or a"
            + " date-time string");
    assertThatThrownBy(() -> ISO.parse(1.5)).isInstanceOf(EventTimeException.class)
        .hasMessageStartingWith("a value of type Double is not a time");
    assertThatThrownBy(() -> ISO.withEpochUnit(EventTimeParser.EpochUnit.SECONDS).parse(new Object()))
        .isInstanceOf(EventTimeException.class)
        .hasMessage("a value of type Object is not a time: give a timestamp, whole epoch seconds or a date-time string");
  }

  @Test
  void aCustomPattern() {
    EventTimeParser dayFirst = ISO.withPattern("dd/MM/yyyy HH:mm:ss");
    assertThat(dayFirst.pattern()).isEqualTo("dd/MM/yyyy HH:mm:ss");
    assertThat(dayFirst.parse("18/07/2026 10:00:03")).isEqualTo(T);
    assertThat(dayFirst.withZone(PARIS).parse("18/07/2026 12:00:03")).isEqualTo(T);
    assertThat(ISO.withPattern("uuuu-MM-dd HH:mm:ss").parse("2026-07-18 10:00:03")).isEqualTo(T);
    assertThat(ISO.withPattern("yyyyMMdd").parse("20260718")).isEqualTo(1_784_332_800_000L);
    assertThat(ISO.withPattern("yyyy-MM-dd HH:mm:ss VV").parse("2026-07-18 12:00:03 Europe/Paris")).isEqualTo(T);
    assertThat(ISO.withPattern("yyyy-MM-dd HH:mm:ssXXX").parse("2026-07-18 12:00:03+02:00")).isEqualTo(T);
    assertThat(ISO.withPattern("yyyy-MM-dd hh:mm a").parse("2026-07-18 10:30 PM")).isEqualTo(1_784_413_800_000L);
    assertThat(ISO.withPattern("yyyy-MM-dd hh:mm a").parse("2026-07-18 10:30 AM")).isEqualTo(1_784_370_600_000L);
    // a blank pattern means ISO-8601
    assertThat(ISO.withPattern(" ").parse("2026-07-18T10:00:03Z")).isEqualTo(T);

    assertThatThrownBy(() -> dayFirst.parse("2026-07-18 10:00:03")).isInstanceOf(EventTimeException.class)
        .hasMessage("'2026-07-18 10:00:03' is not a time in the pattern dd/MM/yyyy HH:mm:ss");
  }

  @Test
  void aPatternWithoutADateOrAnHourOfDayIsRefusedForEveryValue() {
    assertThatThrownBy(() -> ISO.withPattern("HH:mm").parse("10:30")).isInstanceOf(EventTimeException.class)
        .hasMessageStartingWith("'10:30' is not a complete time");
    // hh without a (AM/PM) cannot tell 10:30 from 22:30: refused, never read as midnight
    assertThatThrownBy(() -> ISO.withPattern("yyyy-MM-dd hh:mm").parse("2026-07-18 10:30"))
        .isInstanceOf(EventTimeException.class)
        .hasMessageStartingWith("'2026-07-18 10:30' has a time of day but no hour of day")
        .hasMessageContaining("HH");
  }

  @Test
  void aBadPatternIsRefusedWhenTheParserIsMade() {
    assertThatThrownBy(() -> ISO.withPattern("bbbb")).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the time pattern 'bbbb' is not valid (Unknown pattern letter: b): write it as"
            + " java.time.format.DateTimeFormatter does, e.g. yyyy-MM-dd HH:mm:ss");
    assertThatThrownBy(() -> ISO.withPattern("yyyy-MM-dd {HH}")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("the time pattern 'yyyy-MM-dd {HH}' is not valid");
    assertThatThrownBy(() -> ISO.withPattern("yyyy-MM-dd 'HH")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("the time pattern 'yyyy-MM-dd 'HH' is not valid");
  }

  @Test
  void theParserIsImmutable() {
    EventTimeParser base = EventTimeParser.defaults();
    base.withZone(PARIS);
    base.withPattern("dd/MM/yyyy");
    base.withEpochUnit(EventTimeParser.EpochUnit.SECONDS);
    assertThat(base.zone()).isEqualTo(ZoneOffset.UTC);
    assertThat(base.pattern()).isNull();
    assertThat(base.epochUnit()).isEqualTo(EventTimeParser.EpochUnit.MILLISECONDS);
    assertThat(base.parse("2026-07-18 10:00:03")).isEqualTo(T);
  }
}
