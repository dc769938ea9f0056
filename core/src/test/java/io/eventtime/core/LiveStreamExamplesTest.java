package io.eventtime.core;

import static io.eventtime.core.contract.WorkedExamples.A;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.eventtime.core.PartitionedRuns.Late;
import io.eventtime.core.PartitionedRuns.Row;
import io.eventtime.core.PartitionedRuns.Run;
import io.eventtime.core.contract.WorkedExamples;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The worked examples of the live-streams design (docs/design/live-streams.md, 1.2 and 1.3) for
 * grid windows, to the row, through {@link PartitionedWindowProcessor}: window rows, late rows with
 * their reasons, stats, and when a window is emitted.
 */
class LiveStreamExamplesTest {
  private static final long MINUTE = 60_000;

  private static long at(String hhmm) {
    return WorkedExamples.millis("2026-03-01 " + hhmm + ":00");
  }

  private static List<Row> rows(String... hhmm) {
    List<Row> rows = new ArrayList<>();
    for (String t : hhmm) {
      rows.add(Row.at(at(t)));
    }
    return rows;
  }

  private static WindowQuery count(WindowSpec spec, long delay, LatePolicy policy) {
    return WindowQuery.of(spec).withDelay(delay).withLatePolicy(policy).withAggregates(AggregateSpec.countAll("n"));
  }

  /** L1: example A as one partition gives example A's windows for every kind; 00:05 is late. */
  @Test
  void oneLiveStreamIsTheReplay() {
    List<List<Row>> one = List.of(A.times().stream().map(t -> Row.at(WorkedExamples.millis(t))).toList());
    LatePolicy policy = LatePolicy.parse(A.policy());
    for (WorkedExamples.Case c : List.of(A.tumbling(), A.hopping(), A.session())) {
      WindowSpec spec = switch (c.kind()) {
        case "tumbling" -> WindowSpec.tumbling(c.sizeMillis());
        case "hopping" -> WindowSpec.hopping(c.slideMillis(), c.sizeMillis());
        default -> WindowSpec.session(c.gapMillis());
      };
      Run run = PartitionedRuns.run(count(spec, A.delayMillis(), policy), one, PartitionedRuns.oneAfterAnother(one));
      assertThat(PartitionedRuns.texts(run.windows())).as(c.kind()).isEqualTo(c.texts());
      assertThat(run.late()).as(c.kind()).containsExactly(new Late(0, 4,
          "event time 2026-03-01 00:05:00 is behind the watermark 2026-03-01 00:07:00 (late policy event)"));
      assertThat(run.stats()).as(c.kind())
          .isEqualTo(new Stats(8, c.texts().size(), 1, c.texts().size(), 7, 0));
    }
  }

  private static final List<List<Row>> L2 = List.of(
      rows("00:01", "00:12", "00:03", "00:22"),
      rows("00:02", "00:05", "00:14", "00:08"));
  private static final WindowQuery L2_QUERY = count(WindowSpec.tumbling(10 * MINUTE), 0, LatePolicy.WINDOW);

  /** L2: each row is late against its own partition's watermark; window 00:00 holds 3 rows. */
  @Test
  void lateByTheRowsOwnPartition() {
    for (int[] order : List.of(PartitionedRuns.oneAfterAnother(L2), new int[] {1, 1, 1, 1, 0, 0, 0, 0},
        new int[] {0, 1, 0, 1, 0, 1, 0, 1})) {
      Run run = PartitionedRuns.run(L2_QUERY, L2, order);
      assertThat(PartitionedRuns.texts(run.windows())).containsExactly(
          "2026-03-01 00:00:00|2026-03-01 00:10:00|3",
          "2026-03-01 00:10:00|2026-03-01 00:20:00|2",
          "2026-03-01 00:20:00|2026-03-01 00:30:00|1");
      assertThat(run.late()).containsExactlyInAnyOrder(
          new Late(0, 2, "every window of event time 2026-03-01 00:03:00 had closed at watermark "
              + "2026-03-01 00:12:00 (late policy window)"),
          new Late(1, 3, "every window of event time 2026-03-01 00:08:00 had closed at watermark "
              + "2026-03-01 00:14:00 (late policy window)"));
      assertThat(run.stats()).isEqualTo(new Stats(8, 3, 2, 3, 6, 0));
    }
  }

  /**
   * L2: window 00:00 is emitted once both P0's 00:12 and P1's 00:14 are taken in, whichever comes
   * last; the others stay open, each partition holding its own part, until the drain.
   */
  @Test
  void aWindowWaitsForEveryPartition() {
    List<int[]> orders = List.of(PartitionedRuns.oneAfterAnother(L2), new int[] {1, 1, 1, 1, 0, 0, 0, 0},
        new int[] {0, 1, 0, 1, 0, 1, 0, 1});
    List<String> closingRows = List.of("P1#2", "P0#1", "P1#2");
    for (int i = 0; i < orders.size(); i++) {
      int[] order = orders.get(i);
      List<String> emittedAfter = new ArrayList<>();
      List<String> streamWatermarks = new ArrayList<>();
      PartitionedRuns.run(L2_QUERY, L2, order, (partition, position, p, emitted) -> {
        if (!emitted.isEmpty() && emittedAfter.isEmpty()) {
          emittedAfter.add("P" + partition + "#" + position + " " + PartitionedRuns.texts(emitted));
        }
        streamWatermarks.add(p.watermark() == null ? "none" : TimeText.format(p.watermark()));
        if (streamWatermarks.size() == order.length) {
          assertThat(p.watermark(0)).isEqualTo(at("00:22"));
          assertThat(p.watermark(1)).isEqualTo(at("00:14"));
          assertThat(p.heldBy(0)).extracting(w -> TimeText.format(w.start()))
              .containsExactly("2026-03-01 00:10:00", "2026-03-01 00:20:00");
          assertThat(p.heldBy(1)).extracting(w -> TimeText.format(w.start())).containsExactly("2026-03-01 00:10:00");
          assertThat(p.openWindowCount()).isEqualTo(3);
        }
      });
      assertThat(emittedAfter).containsExactly(closingRows.get(i) + " [2026-03-01 00:00:00|2026-03-01 00:10:00|3]");
      assertThat(streamWatermarks.get(streamWatermarks.size() - 1)).isEqualTo("2026-03-01 00:14:00");
      assertThat(streamWatermarks.get(0)).isEqualTo("none");
    }
  }

  /**
   * L5's outcome with the idle advance given (the timeout that decides it from the wall clock is
   * not built yet): once P1 goes to now - D = 00:39, the stream's watermark is 00:24.
   */
  @Test
  void anAdvancedPartitionStopsHoldingWindowsBack() {
    List<WindowResult> windows = new ArrayList<>();
    PartitionedWindowProcessor p = new PartitionedWindowProcessor(
        count(WindowSpec.tumbling(10 * MINUTE), MINUTE, LatePolicy.WINDOW), 2, windows::add);
    for (String t : List.of("00:01", "00:12", "00:25")) {
      assertThat(p.process(0, Key.GLOBAL, at(t), new Object[] {null})).isTrue();
    }
    assertThat(p.process(1, Key.GLOBAL, at("00:05"), new Object[] {null})).isTrue();
    assertThat(windows).isEmpty();
    assertThat(p.watermark()).isEqualTo(at("00:04"));

    p.advanceWatermarkTo(1, at("00:40") - MINUTE);
    assertThat(p.watermark()).isEqualTo(at("00:24"));
    assertThat(PartitionedRuns.texts(windows)).containsExactly(
        "2026-03-01 00:00:00|2026-03-01 00:10:00|2",
        "2026-03-01 00:10:00|2026-03-01 00:20:00|1");

    assertThat(p.process(1, Key.GLOBAL, at("00:15"), new Object[] {null})).isFalse();
    assertThat(p.lateReason(1, at("00:15"))).isEqualTo("every window of event time 2026-03-01 00:15:00 had closed "
        + "at watermark 2026-03-01 00:39:00 (late policy window)");
    p.finish();
    assertThat(PartitionedRuns.texts(windows)).endsWith("2026-03-01 00:20:00|2026-03-01 00:30:00|1");
    assertThat(p.stats()).isEqualTo(new Stats(5, 3, 1, 3, 4, 0));
  }

  /** A rejected row counts in rows_in and takes its place among its partition's positions. */
  @Test
  void aRejectedRowCountsInItsPartition() {
    List<List<Row>> parts = List.of(
        List.of(Row.at(at("00:01")), new Row(Key.GLOBAL, null, new Object[] {null}), Row.at(at("00:12"))),
        List.of(new Row(Key.GLOBAL, null, new Object[] {null}), Row.at(at("00:03"))));
    Run run = PartitionedRuns.run(L2_QUERY, parts, new int[] {1, 0, 0, 0, 1});
    assertThat(PartitionedRuns.texts(run.windows())).containsExactly(
        "2026-03-01 00:00:00|2026-03-01 00:10:00|2",
        "2026-03-01 00:10:00|2026-03-01 00:20:00|1");
    assertThat(run.late()).isEmpty();
    assertThat(run.stats()).isEqualTo(new Stats(5, 2, 0, 2, 3, 2));
  }

  /**
   * The partials of one window merge in partition order whatever order the rows came in: 0.1 +
   * 0.2 + 0.3 in that order is 0.6000000000000001, in the order of arrival here it would be 0.6.
   */
  @Test
  void partialsMergeInPartitionOrder() {
    WindowQuery q = WindowQuery.of(WindowSpec.tumbling(10 * MINUTE))
        .withAggregates(AggregateSpec.of(AggregateKind.SUM, "d", "sum_d"));
    List<List<Row>> parts = List.of(
        List.of(new Row(Key.GLOBAL, at("00:01"), new Object[] {0.1})),
        List.of(new Row(Key.GLOBAL, at("00:02"), new Object[] {0.2})),
        List.of(new Row(Key.GLOBAL, at("00:03"), new Object[] {0.3})));
    Run run = PartitionedRuns.run(q, parts, new int[] {2, 1, 0});
    assertThat(run.windows()).singleElement().satisfies(w -> assertThat(w.values()).containsExactly(0.1 + 0.2 + 0.3));
    assertThat(0.1 + 0.2 + 0.3).isNotEqualTo(0.3 + 0.2 + 0.1);
  }

  @Test
  void sessionsAcrossPartitionsAreRefusedForNow() {
    assertThatThrownBy(() -> new PartitionedWindowProcessor(count(WindowSpec.session(5 * MINUTE), 0,
        LatePolicy.EVENT), 2, r -> {}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("a stream of 2 partitions cannot be windowed by this query: session windows do not join their "
            + "sessions across partitions yet; read it as one partition");
  }

  @Test
  void firstAndLastAcrossPartitionsAreRefusedForNow() {
    WindowQuery q = WindowQuery.of(WindowSpec.tumbling(MINUTE))
        .withAggregates(AggregateSpec.countAll("n"), AggregateSpec.of(AggregateKind.LAST, "s", "last_s"));
    assertThatThrownBy(() -> new PartitionedWindowProcessor(q, 3, r -> {}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("a stream of 3 partitions cannot be windowed by this query: the aggregate 'last_s' (last) cannot "
            + "yet tell which partition's row came first or last; read it as one partition");
    assertThat(new PartitionedWindowProcessor(q, 1, r -> {}).partitions()).isEqualTo(1);
  }

  @Test
  void aPartitionOutsideTheStreamIsRefused() {
    PartitionedWindowProcessor p = new PartitionedWindowProcessor(L2_QUERY, 2, r -> {});
    assertThatThrownBy(() -> p.process(2, Key.GLOBAL, at("00:01"), new Object[] {null}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("partition 2 is not one of this stream's partitions 0 to 1");
    assertThatThrownBy(() -> new PartitionedWindowProcessor(L2_QUERY, 0, r -> {}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("a stream has at least one partition, got 0");
  }
}
