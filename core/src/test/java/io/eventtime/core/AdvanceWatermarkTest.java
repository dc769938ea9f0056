package io.eventtime.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Moving the watermark without a row, as an idle stream does. */
class AdvanceWatermarkTest {
  private static final long MIN = 60_000L;

  @Test
  void advancingClosesTheWindowsItPassesAndNoOthers() {
    List<String> out = new ArrayList<>();
    WindowProcessor p = new WindowProcessor(
        WindowQuery.of(WindowSpec.tumbling(10 * MIN)).withDelay(5 * MIN)
            .withAggregates(AggregateSpec.countAll("n")),
        r -> out.add(r.start() / MIN + "-" + r.end() / MIN + ":" + r.values()[0]));
    p.process(Key.GLOBAL, 1 * MIN, new Object[] {null});
    p.process(Key.GLOBAL, 12 * MIN, new Object[] {null});
    assertThat(out).isEmpty();

    p.advanceWatermarkTo(9 * MIN);
    assertThat(out).isEmpty();
    assertThat(p.watermark()).isEqualTo(9 * MIN);

    p.advanceWatermarkTo(10 * MIN);
    assertThat(out).containsExactly("0-10:1");

    p.advanceWatermarkTo(3 * MIN);
    assertThat(p.watermark()).isEqualTo(10 * MIN);

    assertThat(p.process(Key.GLOBAL, 9 * MIN, new Object[] {null})).isFalse();
    assertThat(p.lateReason(9 * MIN)).contains("had closed");
    p.finish();
    assertThat(out).containsExactly("0-10:1", "10-20:1");
    assertThat(p.stats().balanced()).isTrue();
  }

  @Test
  void sessionsCloseOnlyOnceTheWatermarkPassesTheirEnd() {
    List<Long> starts = new ArrayList<>();
    WindowProcessor p = new WindowProcessor(
        WindowQuery.of(WindowSpec.session(5 * MIN)).withAggregates(AggregateSpec.countAll("n")),
        r -> starts.add(r.start() / MIN));
    p.process(Key.GLOBAL, 1 * MIN, new Object[] {null});
    p.advanceWatermarkTo(6 * MIN);
    assertThat(starts).isEmpty();
    p.advanceWatermarkTo(6 * MIN + 1);
    assertThat(starts).containsExactly(1L);
  }
}
