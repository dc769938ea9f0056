package io.eventtime.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The watermark as a running maximum, and as a function of a maximum kept elsewhere. */
class WatermarkTest {
  @Test
  void afterIsWhatTheRunningWatermarkShowsForTheSameMaximum() {
    Watermark running = new Watermark(300_000);
    assertThat(running.current()).isEqualTo(Long.MIN_VALUE);
    assertThat(Watermark.after(Long.MIN_VALUE, 300_000)).isEqualTo(Long.MIN_VALUE);
    running.observe(1_000_000);
    running.observe(400_000);
    assertThat(running.current()).isEqualTo(700_000);
    assertThat(Watermark.after(1_000_000, 300_000)).isEqualTo(700_000);
  }

  @Test
  void afterTheEarliestEventTimeWithNoDelayIsThatTime() {
    assertThat(Watermark.after(TimeRange.MIN_MILLIS, 0)).isEqualTo(TimeRange.MIN_MILLIS);
    assertThat(new Watermark(0, TimeRange.MIN_MILLIS).current()).isEqualTo(TimeRange.MIN_MILLIS);
  }
}
