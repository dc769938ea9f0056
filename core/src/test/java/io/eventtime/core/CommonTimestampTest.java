package io.eventtime.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The fast path for the common timestamp shape agrees with java.time on every string it takes. */
class CommonTimestampTest {

  private static long javaTime(String s) {
    String t = s.replace(' ', 'T').replace('t', 'T').replace('z', 'Z');
    return t.endsWith("Z") ? OffsetDateTime.parse(t).toInstant().toEpochMilli()
        : LocalDateTime.parse(t).toInstant(ZoneOffset.UTC).toEpochMilli();
  }

  @Test
  void agreesWithJavaTimeOnRandomTimes() {
    Random random = new Random(42);
    DateTimeFormatter f = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");
    for (int i = 0; i < 200_000; i++) {
      long ms = (long) (random.nextDouble() * 8_000_000_000_000L) - 2_000_000_000_000L;
      LocalDateTime t = LocalDateTime.ofEpochSecond(Math.floorDiv(ms, 1000), 0, ZoneOffset.UTC);
      String text = f.format(t);
      switch (i % 4) {
        case 1 -> text = text.replace(' ', 'T') + "Z";
        case 2 -> text = text + "." + String.format("%03d", Math.floorMod(ms, 1000));
        case 3 -> text = text + "." + Math.floorMod(ms, 10);
        default -> { }
      }
      assertThat(CommonTimestamp.parse(text, true)).as(text).isEqualTo(javaTime(text));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"2024-02-29 23:59:59", "2000-02-29T00:00:00Z", "1969-12-31 23:59:59.999",
      "2026-07-18 10:00:03.123456789", "2026-07-18t10:00:03z", "0001-01-01 00:00:00"})
  void edges(String text) {
    assertThat(CommonTimestamp.parse(text, true)).isEqualTo(javaTime(text));
    assertThat(EventTimeParser.defaults().parse(text)).isEqualTo(javaTime(text));
  }

  @ParameterizedTest
  @ValueSource(strings = {"2026-02-29 10:00:00", "1900-02-29 00:00:00", "2026-13-01 00:00:00", "2026-07-18 24:00:00",
      "2026-07-18 10:60:00", "2026-07-18 10:00:60", "2026-07-18 10:00", "2026-07-18", "2026-07-18 10:00:03+02:00",
      "2026-07-18 10:00:03.", "2026-07-18 10:00:03.1234567891", "2026-07-18  10:00:03", "2026-7-18 10:00:03",
      "2026-07-18 10:00:03 "})
  void leavesEverythingElseToTheGeneralParser(String text) {
    assertThat(CommonTimestamp.parse(text, true)).isEqualTo(CommonTimestamp.NOT_COMMON);
  }

  /** The parser reads a common time before trimming it: one with spaces around it is still read, trimmed. */
  @ParameterizedTest
  @ValueSource(strings = {" 2026-07-18 10:00:03", "2026-07-18 10:00:03 ", "\t2026-07-18T10:00:03.5Z\n",
      "  2026-07-18 10:00:03.123  "})
  void aTimeWithSpacesAroundItIsReadTrimmed(String text) {
    assertThat(EventTimeParser.defaults().parse(text)).isEqualTo(javaTime(text.trim()));
  }

  @Test
  void aLocalTimeInAnotherZoneIsNotCommon() {
    assertThat(CommonTimestamp.parse("2026-07-18 10:00:03", false)).isEqualTo(CommonTimestamp.NOT_COMMON);
    assertThat(CommonTimestamp.parse("2026-07-18 10:00:03Z", false)).isEqualTo(javaTime("2026-07-18 10:00:03Z"));
  }
}
