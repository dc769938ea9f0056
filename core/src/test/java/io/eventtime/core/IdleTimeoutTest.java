package io.eventtime.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.eventtime.core.contract.WorkedExamples;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The idle timeout (docs/semantics.md, "Idle partitions") driven by a test clock: a partition
 * that never had a row, rejected rows, one partition, and the settings refused.
 */
class IdleTimeoutTest {
  private static final long SECOND = 1000;
  private static final long MINUTE = 60 * SECOND;
  private static final WindowQuery QUERY = WindowQuery.of(WindowSpec.tumbling(10 * MINUTE)).withDelay(MINUTE)
      .withLatePolicy(LatePolicy.EVENT).withAggregates(AggregateSpec.countAll("n"));

  private static long at(String hhmm) {
    return WorkedExamples.millis("2026-03-01 " + hhmm + ":00");
  }

  /**
   * A partition that never had a row holds every window back until the timeout has run from the
   * start; a rejected row moves no watermark and does not keep it from going idle.
   */
  @Test
  void aPartitionWithoutRowsGoesIdleFromTheStart() {
    AtomicLong wall = new AtomicLong(at("01:00"));
    List<String> windows = new ArrayList<>();
    PartitionedWindowProcessor p = new PartitionedWindowProcessor(QUERY, 2, r -> windows.add(PartitionedRuns.text(r)))
        .withIdleTimeout(20 * SECOND, wall::get);
    wall.addAndGet(5 * SECOND);
    p.process(0, Key.GLOBAL, at("00:02"), new Object[] {null});
    p.process(0, Key.GLOBAL, at("00:31"), new Object[] {null});
    p.reject(1);
    assertThat(p.advanceIdle(at("01:00") + 20 * SECOND - 1)).isFalse();
    assertThat(p.watermark()).isNull();
    assertThat(p.watermark(1)).isNull();

    assertThat(p.advanceIdle(at("01:00") + 20 * SECOND)).isTrue();
    assertThat(p.watermark(1)).isEqualTo(at("00:59") + 20 * SECOND);
    assertThat(p.watermark()).isEqualTo(at("00:30"));
    assertThat(windows).containsExactly("2026-03-01 00:00:00|2026-03-01 00:10:00|1");

    assertThat(p.process(1, Key.GLOBAL, at("00:40"), new Object[] {null})).isFalse();
    assertThat(p.lateReason(1, at("00:40"))).isEqualTo("event time 2026-03-01 00:40:00 is behind the watermark "
        + "2026-03-01 00:59:20 (late policy event); that watermark is the wall clock 2026-03-01 01:00:20 less the "
        + "delay, set by the idle timeout after partition 1 had no row for 20 s");
    // a row that moves the watermark further takes the idle timeout out of the reason
    p.process(1, Key.GLOBAL, at("01:05"), new Object[] {null});
    assertThat(p.idleWatermark(1)).isNull();
    assertThat(p.process(1, Key.GLOBAL, at("01:00"), new Object[] {null})).isFalse();
    assertThat(p.lateReason(1, at("01:00"))).isEqualTo("event time 2026-03-01 01:00:00 is behind the watermark "
        + "2026-03-01 01:04:00 (late policy event)");
    p.finish();
    assertThat(p.stats()).isEqualTo(new Stats(6, 3, 2, 3, 3, 1));
  }

  /** Partitions named by their own ids (Kafka's, say 3 and 7): the reason and the held state use the id, not the place. */
  @Test
  void theReasonNamesThePartitionById() {
    AtomicLong wall = new AtomicLong(at("01:00"));
    PartitionedWindowProcessor p = new PartitionedWindowProcessor(QUERY, List.of("3", "7"), r -> { })
        .withIdleTimeout(20 * SECOND, wall::get);
    p.process(0, Key.GLOBAL, at("00:31"), new Object[] {null});
    assertThat(p.advanceIdle(at("01:00") + 20 * SECOND)).isTrue();
    assertThat(p.process(1, Key.GLOBAL, at("00:40"), new Object[] {null})).isFalse();
    assertThat(p.lateReason(1, at("00:40"))).endsWith("set by the idle timeout after partition 7 had no row for 20 s");
    assertThat(p.hold().partitions()).extracting(OpenState.Partition::id).containsExactly("3", "7");
  }

  /** With one partition the stream itself goes idle; the reason says so. */
  @Test
  void oneQuietStreamGoesIdle() {
    AtomicLong wall = new AtomicLong(at("02:00"));
    List<String> windows = new ArrayList<>();
    WindowProcessor p = new WindowProcessor(QUERY, r -> windows.add(PartitionedRuns.text(r)))
        .withIdleTimeout(MINUTE, wall::get);
    p.process(Key.GLOBAL, at("00:05"), new Object[] {null});
    assertThat(p.advanceIdle(at("02:01"))).isTrue();
    assertThat(windows).containsExactly("2026-03-01 00:00:00|2026-03-01 00:10:00|1");
    assertThat(p.process(Key.GLOBAL, at("00:06"), new Object[] {null})).isFalse();
    assertThat(p.lateReason(at("00:06"))).isEqualTo("event time 2026-03-01 00:06:00 is behind the watermark "
        + "2026-03-01 02:00:00 (late policy event); that watermark is the wall clock 2026-03-01 02:01:00 less the "
        + "delay, set by the idle timeout after the stream had no row for 60 s");
  }

  @Test
  void badSettingsAreRefused() {
    assertThatThrownBy(() -> new PartitionedWindowProcessor(QUERY, 2, r -> {}).withIdleTimeout(0, () -> 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the idle timeout must be positive, got 0 ms: give a duration greater than zero (e.g. 30 SECOND), "
            + "or none for no idle timeout");
    PartitionedWindowProcessor started = new PartitionedWindowProcessor(QUERY, 2, r -> {});
    started.process(0, Key.GLOBAL, at("00:01"), new Object[] {null});
    assertThatThrownBy(() -> started.withIdleTimeout(SECOND, () -> 0))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("the idle timeout is set once, before the first row of the run");
    assertThatThrownBy(() -> started.advanceIdle(at("00:02")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("this processor has no idle timeout: set one with withIdleTimeout first");
  }

  /**
   * An idle advance decided elsewhere (advanceIdleTo): the stream's watermark moves, a late row's
   * reason names the idle timeout, a processor resumed from the held state is told again and still
   * names it, and a processor with its own wall clock refuses it.
   */
  @Test
  void anIdleAdvanceDecidedElsewhereIsRecorded() {
    List<String> windows = new ArrayList<>();
    PartitionedWindowProcessor p = new PartitionedWindowProcessor(QUERY, 2, r -> windows.add(PartitionedRuns.text(r)));
    p.process(0, Key.GLOBAL, at("00:02"), new Object[] {null});
    p.process(0, Key.GLOBAL, at("00:31"), new Object[] {null});
    assertThat(p.advanceIdleTo(1, at("00:39"), 30 * SECOND)).isTrue();
    assertThat(p.watermark()).isEqualTo(at("00:30"));
    assertThat(windows).containsExactly("2026-03-01 00:00:00|2026-03-01 00:10:00|1");
    assertThat(p.advanceIdleTo(1, at("00:20"), 30 * SECOND)).isFalse();
    assertThat(p.idleWatermark(1)).isEqualTo(at("00:39"));

    OpenState held = p.hold();
    assertThat(held.partitions().get(1).idleWatermark()).isEqualTo(at("00:39"));
    PartitionedWindowProcessor resumed = PartitionedWindowProcessor.resume(QUERY, r -> windows.add(PartitionedRuns.text(r)), held);
    assertThat(resumed.advanceIdleTo(1, at("00:39"), 30 * SECOND)).isFalse();
    assertThat(resumed.process(1, Key.GLOBAL, at("00:15"), new Object[] {null})).isFalse();
    assertThat(resumed.lateReason(1, at("00:15"))).isEqualTo("event time 2026-03-01 00:15:00 is behind the watermark "
        + "2026-03-01 00:39:00 (late policy event); that watermark is the wall clock 2026-03-01 00:40:00 less the "
        + "delay, set by the idle timeout after partition 1 had no row for 30 s");

    PartitionedWindowProcessor clocked = new PartitionedWindowProcessor(QUERY, 2, r -> { })
        .withIdleTimeout(30 * SECOND, () -> at("00:40"));
    assertThatThrownBy(() -> clocked.advanceIdleTo(1, at("00:39"), 30 * SECOND))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("reads its own wall clock");
    PartitionedWindowProcessor told = new PartitionedWindowProcessor(QUERY, 2, r -> { });
    told.advanceIdleTo(1, at("00:39"), 30 * SECOND);
    assertThatThrownBy(() -> told.withIdleTimeout(30 * SECOND, () -> at("00:40")))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("advanceIdleTo");
  }
}
