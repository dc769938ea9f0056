package io.eventtime.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Durations as people write them, and a refusal that says how to write one. */
class DurationTextTest {
  private static final String HOW = " is not a duration: write an amount and a unit, e.g. 5 MINUTE, 30 SECONDS or"
      + " 1500 MILLISECONDS (units MILLISECOND, SECOND, MINUTE, HOUR, DAY)";

  private static void reads(long millis, String... texts) {
    for (String t : texts) {
      assertThat(DurationText.parseMillis(t)).as(t).isEqualTo(millis);
    }
  }

  @Test
  void everyUnitSingularPluralAndShortInAnyCase() {
    reads(7L, "7 ms", "7ms", "7 MS", "7 milli", "7 millis", "7 MILLISECOND", "7 milliseconds", "7 Millisecond");
    reads(7_000L, "7 s", "7s", "7 sec", "7 secs", "7 SECOND", "7 seconds", "7 Seconds");
    reads(420_000L, "7 m", "7m", "7 min", "7 mins", "7 MINUTE", "7 minutes", "7 MiNuTe");
    reads(25_200_000L, "7 h", "7h", "7 HOUR", "7 hours");
    reads(604_800_000L, "7 d", "7d", "7 DAY", "7 days");
    reads(1L, "1 MILLISECOND");
    reads(0L, "0 SECOND");
    reads(300_000L, "  5   MINUTE  ");
  }

  @Test
  void iso8601() {
    reads(300_000L, "PT5M", "pt5m");
    reads(500L, "PT0.5S");
    reads(86_400_000L, "P1D", "p1d");
    reads(5_400_000L, "PT1H30M");
  }

  @Test
  void aNegativeAmountIsReadForOffsetsAndLeftToTheSettingToRefuse() {
    reads(-300_000L, "-5 MINUTE", "PT-5M");
    assertThatThrownBy(() -> WindowSpec.tumbling(DurationText.parseMillis("-5 MINUTE")))
        .hasMessageContaining("must be positive");
  }

  @Test
  void anythingElseIsRefusedWithHowToWriteIt() {
    for (String bad : new String[] {"", "  ", "5", "MINUTE", "5.5 MINUTE", "5 FORTNIGHTS", "1 week", "2 months",
        "5 MINUTES AGO", "+5 MINUTE", "five minutes", "INTERVAL '5 MINUTE'", "P1M", "P", "PT", "P1Y"}) {
      assertThatThrownBy(() -> DurationText.parseMillis(bad)).as(bad).isInstanceOf(IllegalArgumentException.class)
          .hasMessage("'" + bad + "'" + HOW);
    }
    assertThatThrownBy(() -> DurationText.parseMillis(null)).hasMessage("'null'" + HOW);
    assertThatThrownBy(() -> DurationText.unitMillis("WEEK", "1 WEEK")).hasMessage("'1 WEEK'" + HOW);
    assertThat(DurationText.unitMillis("hours", "2 hours")).isEqualTo(3_600_000L);
  }

  @Test
  void aDurationTooLargeForMillisecondsIsRefusedClearly() {
    for (String big : new String[] {"99999999999999999 DAY", "99999999999999999999 MINUTE", "9223372036854775808 ms",
        "PT3000000000000H"}) {
      assertThatThrownBy(() -> DurationText.parseMillis(big)).as(big).isInstanceOf(IllegalArgumentException.class)
          .hasMessage("'" + big + "' is too long a duration: give at most 3652425 DAYS (10,000 years)");
    }
  }

  @Test
  void aDurationLongerThanTenThousandYearsIsRefusedEitherWay() {
    reads(TimeRange.MAX_DURATION_MILLIS, "3652425 DAYS", "315569520000000 ms");
    reads(-TimeRange.MAX_DURATION_MILLIS, "-3652425 DAYS");
    for (String big : new String[] {"3652426 DAYS", "315569520000001 ms", "-3652426 DAYS", "9223372036854775807 ms",
        "PT87658201H"}) {
      assertThatThrownBy(() -> DurationText.parseMillis(big)).as(big).isInstanceOf(IllegalArgumentException.class)
          .hasMessage("'" + big + "' is too long a duration: give at most 3652425 DAYS (10,000 years)");
    }
  }
}
