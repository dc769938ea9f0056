package io.eventtime.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link TimeText#format} against {@link DateTimeFormatter}'s text for the same patterns, the rule it keeps. */
class TimeTextTest {
  private static final DateTimeFormatter SECONDS = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss");
  private static final DateTimeFormatter MILLIS = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss.SSS");

  private static String expected(long epochMillis) {
    LocalDateTime t = LocalDateTime.ofInstant(Instant.ofEpochMilli(epochMillis), ZoneOffset.UTC);
    return (Math.floorMod(epochMillis, 1000L) == 0 ? SECONDS : MILLIS).format(t);
  }

  @Test
  void writesTheTimesOfTheContract() {
    assertEquals("2026-07-18 10:00:00", TimeText.format(LocalDateTime.of(2026, 7, 18, 10, 0).toInstant(ZoneOffset.UTC).toEpochMilli()));
    assertEquals("2026-07-18 10:00:00.250",
        TimeText.format(LocalDateTime.of(2026, 7, 18, 10, 0).toInstant(ZoneOffset.UTC).toEpochMilli() + 250));
    assertEquals("1970-01-01 00:00:00", TimeText.format(0));
    assertEquals("1969-12-31 23:59:59.999", TimeText.format(-1));
    assertEquals("0000-01-01 00:00:00", TimeText.format(LocalDate.of(0, 1, 1).toEpochDay() * 86_400_000L));
    assertEquals("-0001-12-31 23:59:59.999", TimeText.format(LocalDate.of(0, 1, 1).toEpochDay() * 86_400_000L - 1));
    assertEquals("9999-12-31 23:59:59.999", TimeText.format(LocalDate.of(10000, 1, 1).toEpochDay() * 86_400_000L - 1));
    assertEquals("+10000-01-01 00:00:00", TimeText.format(LocalDate.of(10000, 1, 1).toEpochDay() * 86_400_000L));
  }

  @Test
  void writesWhatTheFormatterWritesAroundEveryEdge() {
    long[] edges = {Long.MIN_VALUE, Long.MAX_VALUE, 0, LocalDate.of(0, 1, 1).toEpochDay() * 86_400_000L,
        LocalDate.of(10000, 1, 1).toEpochDay() * 86_400_000L, LocalDate.of(2000, 2, 29).toEpochDay() * 86_400_000L,
        LocalDate.of(1900, 3, 1).toEpochDay() * 86_400_000L, LocalDate.of(2100, 2, 28).toEpochDay() * 86_400_000L};
    for (long edge : edges) {
      for (long d = -2_000; d <= 2_000; d++) {
        long t = edge + d;
        if ((d < 0 && t > edge) || (d > 0 && t < edge)) {
          continue; // past the end of a long
        }
        assertEquals(expected(t), TimeText.format(t), "at " + t);
      }
    }
  }

  @Test
  void writesWhatTheFormatterWritesForRandomTimes() {
    SplittableRandom random = new SplittableRandom(20261206);
    long tenThousandYears = 10_000L * 366 * 86_400_000L;
    for (int i = 0; i < 200_000; i++) {
      long t = switch (i % 4) {
        case 0 -> random.nextLong(-tenThousandYears, tenThousandYears);
        case 1 -> random.nextLong(-tenThousandYears, tenThousandYears) / 1000 * 1000;
        case 2 -> random.nextLong(-4 * tenThousandYears, 4 * tenThousandYears);
        default -> random.nextLong();
      };
      assertEquals(expected(t), TimeText.format(t), "at " + t);
    }
  }
}
