package io.eventtime.hop.beam;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Late rows' reasons on the late target: the Beam transform's, without its arrival position. */
class ProblemRowFnsTest {
  @Test
  void theLocalEnginesReasonIsTheBeamTransformsWithoutTheArrivalPosition() {
    assertThat(ProblemRowFns.localReason("arrival 1207: every window of event time 2026-07-18 10:00:30 had closed at"
        + " watermark 2026-07-18 10:02:05 (late policy window)"))
        .isEqualTo("every window of event time 2026-07-18 10:00:30 had closed at watermark 2026-07-18 10:02:05"
            + " (late policy window)");
    assertThat(ProblemRowFns.localReason("arrival 0: event time 2026-07-18 10:00:30 is behind the watermark"
        + " 2026-07-18 10:02:05 (late policy event)"))
        .isEqualTo("event time 2026-07-18 10:00:30 is behind the watermark 2026-07-18 10:02:05 (late policy event)");
    assertThat(ProblemRowFns.localReason("a reason without an arrival 3: in front"))
        .isEqualTo("a reason without an arrival 3: in front");
  }
}
