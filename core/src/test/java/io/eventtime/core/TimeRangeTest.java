package io.eventtime.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The supported range of event times and durations (issue 14, item 8): what lies outside it is
 * refused with the limit, and what lies inside it is computed exactly, edges included.
 */
class TimeRangeTest {
  private static final EventTimeParser ISO = EventTimeParser.defaults();
  private static final String RANGE = " is outside the supported range 0001-01-01 00:00:00 to 9999-12-31 23:59:59.999"
      + " (UTC): give a time of the years 0001 to 9999";
  private static final long DAY = 86_400_000L;

  @Test
  void theEdgesOfTheRangeAreReadAndPrintedExactly() {
    assertThat(ISO.parse("0001-01-01 00:00:00")).isEqualTo(TimeRange.MIN_MILLIS);
    assertThat(ISO.parse("0001-01-01T00:00:00Z")).isEqualTo(TimeRange.MIN_MILLIS);
    assertThat(ISO.parse("9999-12-31 23:59:59.999")).isEqualTo(TimeRange.MAX_MILLIS);
    assertThat(ISO.parse("9999-12-31T23:59:59.999Z")).isEqualTo(TimeRange.MAX_MILLIS);
    assertThat(ISO.parse(TimeRange.MAX_MILLIS)).isEqualTo(TimeRange.MAX_MILLIS);
    assertThat(TimeText.format(TimeRange.MIN_MILLIS)).isEqualTo("0001-01-01 00:00:00");
    assertThat(TimeText.format(TimeRange.MAX_MILLIS)).isEqualTo("9999-12-31 23:59:59.999");
  }

  @Test
  void aTimeOutsideTheRangeIsRefusedAsAValueNotACrash() {
    for (String text : new String[] {"+292278995-01-01T00:00:00Z", "+292278994-08-17T07:12:55.807Z",
        "-292275055-05-16T16:47:04.192Z", "0000-12-31 23:59:59.999", "+10000-01-01T00:00:00Z",
        "-0001-06-01T00:00:00Z", "9999-12-31T23:59:59.999-01:00"}) {
      assertThatThrownBy(() -> ISO.parse(text)).as(text).isInstanceOf(EventTimeException.class)
          .hasMessage("'" + text + "'" + RANGE);
    }
    assertThatThrownBy(() -> ISO.parse(TimeRange.MAX_MILLIS + 1)).isInstanceOf(EventTimeException.class)
        .hasMessage("the epoch time 253402300800000 (in milliseconds)" + RANGE);
    assertThatThrownBy(() -> ISO.parse(Long.MIN_VALUE)).isInstanceOf(EventTimeException.class)
        .hasMessage("the epoch time -9223372036854775808 (in milliseconds)" + RANGE);
    assertThatThrownBy(() -> ISO.parse(java.time.Instant.MAX)).isInstanceOf(EventTimeException.class)
        .hasMessage("the time +1000000000-12-31T23:59:59.999999999Z" + RANGE);
  }

  @Test
  void yearsBeforeOneAndAfter9999PrintAsTheirOwnYears() {
    // window bounds may lie outside the range of event times: each prints as ISO-8601 reads it back
    long year0 = java.time.Instant.parse("0000-01-01T00:00:00Z").toEpochMilli();
    long yearMinus1 = java.time.Instant.parse("-0001-01-01T00:00:00Z").toEpochMilli();
    assertThat(TimeText.format(year0)).isEqualTo("0000-01-01 00:00:00");
    assertThat(TimeText.format(yearMinus1)).isEqualTo("-0001-01-01 00:00:00");
    assertThat(TimeText.format(TimeRange.MAX_MILLIS + 1)).isEqualTo("+10000-01-01 00:00:00");
    assertThat(TimeText.format(year0 - 1)).isEqualTo("-0001-12-31 23:59:59.999");
  }

  @Test
  void aWindowSizeSlideGapOrDelayLongerThanTenThousandYearsIsRefusedNamingTheLimit() {
    long tooLong = TimeRange.MAX_DURATION_MILLIS + 1;
    String limit = " (315569520000001 ms) is longer than the longest supported duration, 3652425 DAYS (10,000 years):"
        + " give a shorter one";
    assertThatThrownBy(() -> WindowSpec.tumbling(tooLong)).hasMessage("the tumbling window size" + limit);
    assertThatThrownBy(() -> WindowSpec.session(Long.MAX_VALUE)).hasMessage("the session gap (9223372036854775807 ms)"
        + " is longer than the longest supported duration, 3652425 DAYS (10,000 years): give a shorter one");
    assertThatThrownBy(() -> WindowSpec.hopping(tooLong, tooLong)).hasMessage("the hopping window slide" + limit);
    assertThatThrownBy(() -> WindowQuery.of(WindowSpec.tumbling(DAY)).withDelay(tooLong))
        .hasMessage("the watermark delay" + limit);
    assertThatThrownBy(() -> new Watermark(tooLong)).hasMessage("the watermark delay" + limit);
    assertThat(WindowSpec.session(TimeRange.MAX_DURATION_MILLIS).gapMillis()).isEqualTo(TimeRange.MAX_DURATION_MILLIS);
  }

  @Test
  void aHoppingWindowOfMoreThanTenThousandSlidesIsRefused() {
    assertThat(WindowSpec.hopping(1, 10_000).maxWindowsPerRow()).isEqualTo(10_000);
    assertThatThrownBy(() -> WindowSpec.hopping(1, 10_001)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the hopping window size (10001 ms) is 10001 times its slide (1 ms), so each row would land in"
            + " 10001 windows; at most 10000 are supported: make the slide at least the size / 10000 (2 ms), or the"
            + " size smaller");
    assertThatThrownBy(() -> WindowSpec.hopping(1, 100_000 * DAY))
        .hasMessage("the hopping window size (8640000000000 ms) is 8640000000000 times its slide (1 ms), so each row"
            + " would land in 8640000000000 windows; at most 10000 are supported: make the slide at least the size /"
            + " 10000 (864000000 ms), or the size smaller");
  }

  @Test
  void theLatestTimeIsOnTimeAndItsWindowEndsAfterIt() {
    List<WindowResult> out = new ArrayList<>();
    WindowProcessor p = new WindowProcessor(WindowQuery.of(WindowSpec.tumbling(DAY))
        .withAggregates(AggregateSpec.countAll("n")), out::add);
    assertThat(p.process(Key.GLOBAL, TimeRange.MIN_MILLIS, new Object[1])).isTrue();
    assertThat(p.process(Key.GLOBAL, TimeRange.MAX_MILLIS, new Object[1])).isTrue();
    p.finish();
    assertThat(out).extracting(r -> TimeText.format(r.start()) + " " + TimeText.format(r.end()) + " " + r.values()[0])
        .containsExactly("0001-01-01 00:00:00 0001-01-02 00:00:00 1", "9999-12-31 00:00:00 +10000-01-01 00:00:00 1");
    assertThat(p.stats().lateDropped()).isZero();
  }

  @Test
  void theLongestGapAndDelayKeepRowsAcrossTheWholeRangeOnTime() {
    long longest = TimeRange.MAX_DURATION_MILLIS;
    List<WindowResult> out = new ArrayList<>();
    WindowProcessor p = new WindowProcessor(WindowQuery.of(WindowSpec.session(longest)).withDelay(longest)
        .withAggregates(AggregateSpec.countAll("n")), out::add);
    assertThat(p.process(Key.GLOBAL, TimeRange.MAX_MILLIS, new Object[1])).isTrue();
    assertThat(p.process(Key.GLOBAL, TimeRange.MIN_MILLIS, new Object[1])).isTrue();
    p.finish();
    assertThat(out).extracting(r -> TimeText.format(r.start()) + " " + TimeText.format(r.end()) + " " + r.values()[0])
        .containsExactly("0001-01-01 00:00:00 +19999-12-31 23:59:59.999 2");
  }

  @Test
  void theLongestHoppingWindowsCoverTheEdgesExactly() {
    long size = TimeRange.MAX_DURATION_MILLIS;
    long slide = size / WindowSpec.Hopping.MAX_WINDOWS_PER_ROW;
    List<WindowResult> out = new ArrayList<>();
    WindowProcessor p = new WindowProcessor(WindowQuery.of(WindowSpec.hopping(slide, size))
        .withAggregates(AggregateSpec.countAll("n")), out::add);
    assertThat(p.process(Key.GLOBAL, TimeRange.MAX_MILLIS, new Object[1])).isTrue();
    p.finish();
    assertThat(out).hasSize(WindowSpec.Hopping.MAX_WINDOWS_PER_ROW);
    for (WindowResult r : out) {
      assertThat(r.end() - r.start()).isEqualTo(size);
      assertThat(r.start()).isLessThanOrEqualTo(TimeRange.MAX_MILLIS);
      assertThat(r.end()).isGreaterThan(TimeRange.MAX_MILLIS);
    }
  }
}
