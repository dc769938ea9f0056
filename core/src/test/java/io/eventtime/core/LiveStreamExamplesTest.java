package io.eventtime.core;

import static io.eventtime.core.contract.WorkedExamples.A;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.eventtime.core.PartitionedRuns.Late;
import io.eventtime.core.PartitionedRuns.Row;
import io.eventtime.core.PartitionedRuns.Run;
import io.eventtime.core.contract.WorkedExamples;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The live examples of the contract (docs/semantics.md, "Live, partitioned streams", L1 to L5),
 * to the row, through {@link PartitionedWindowProcessor}: window rows, late rows with their
 * reasons, stats, and when a window is emitted; grid windows, first/last and sessions across
 * partitions, and the idle timeout on a test clock.
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
   * L5's outcome with the advance given by the caller: once P1 goes to now - D = 00:39, the
   * stream's watermark is 00:24; the late row's reason is the plain one.
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

  /**
   * L5 with a test clock: P1 goes quiet after 00:05; once it has had no row for 30 s of wall
   * clock, it takes the wall clock 00:40:00 less the delay, 00:39, and the stream's watermark
   * becomes 00:24. A later P1 row of 00:15 is late, the reason naming the idle timeout. Again
   * every 30 s while a partition stays quiet.
   */
  @Test
  void anIdlePartitionTakesTheWallClockLessTheDelay() {
    long second = 1000;
    AtomicLong wall = new AtomicLong(at("00:39"));
    List<WindowResult> windows = new ArrayList<>();
    PartitionedWindowProcessor p = new PartitionedWindowProcessor(
        count(WindowSpec.tumbling(10 * MINUTE), MINUTE, LatePolicy.WINDOW), 2, windows::add)
        .withIdleTimeout(30 * second, wall::get);
    wall.set(at("00:39") + 30 * second);
    assertThat(p.process(1, Key.GLOBAL, at("00:05"), new Object[] {null})).isTrue();
    for (String t : List.of("00:01", "00:12", "00:25")) {
      wall.addAndGet(second);
      assertThat(p.process(0, Key.GLOBAL, at(t), new Object[] {null})).isTrue();
    }
    assertThat(p.advanceIdle(at("00:40") - 1)).isFalse();
    assertThat(windows).isEmpty();
    assertThat(p.watermark()).isEqualTo(at("00:04"));

    wall.set(at("00:40"));
    assertThat(p.advanceIdle()).isTrue();
    assertThat(p.watermark(1)).isEqualTo(at("00:39"));
    assertThat(p.idleWatermark(1)).isEqualTo(at("00:39"));
    assertThat(p.idleWatermark(0)).isNull();
    assertThat(p.watermark()).isEqualTo(at("00:24"));
    assertThat(PartitionedRuns.texts(windows)).containsExactly(
        "2026-03-01 00:00:00|2026-03-01 00:10:00|2",
        "2026-03-01 00:10:00|2026-03-01 00:20:00|1");

    wall.set(at("00:40") + second);
    assertThat(p.process(1, Key.GLOBAL, at("00:15"), new Object[] {null})).isFalse();
    assertThat(p.lateReason(1, at("00:15"))).isEqualTo("every window of event time 2026-03-01 00:15:00 had closed "
        + "at watermark 2026-03-01 00:39:00 (late policy window); that watermark is the wall clock 2026-03-01 "
        + "00:40:00 less the delay, set by the idle timeout after partition 1 had no row for 30 s");

    // P0's last row came at 00:39:33: at 00:40:03 it is idle too, and window 00:20 closes
    assertThat(p.advanceIdle(at("00:40") + 2 * second)).isFalse();
    assertThat(p.advanceIdle(at("00:40") + 3 * second)).isTrue();
    assertThat(p.watermark()).isEqualTo(at("00:39"));
    assertThat(PartitionedRuns.texts(windows)).endsWith("2026-03-01 00:20:00|2026-03-01 00:30:00|1");
    // the late row was a row: P1 is quiet again from 00:40:01, and moves again 30 s later
    assertThat(p.advanceIdle(at("00:40") + 30 * second)).isFalse();
    assertThat(p.advanceIdle(at("00:40") + 31 * second)).isTrue();
    assertThat(p.watermark(1)).isEqualTo(at("00:39") + 31 * second);
    p.finish();
    assertThat(windows).hasSize(3);
    assertThat(p.stats()).isEqualTo(new Stats(5, 3, 1, 3, 4, 0));
  }

  /** The contract's live examples quote the late reasons this processor gives, word for word. */
  @Test
  void theContractQuotesTheseReasons() throws IOException {
    String page = Files.readString(Path.of("../docs/semantics.md")).replaceAll("\\s+", " ");
    String live = page.substring(page.indexOf("## Live, partitioned streams"));
    AtomicLong wall = new AtomicLong(at("00:39") + 30_000);
    PartitionedWindowProcessor p = new PartitionedWindowProcessor(
        count(WindowSpec.tumbling(10 * MINUTE), MINUTE, LatePolicy.WINDOW), 2, r -> {})
        .withIdleTimeout(30_000, wall::get);
    p.process(0, Key.GLOBAL, at("00:25"), new Object[] {null});
    p.process(1, Key.GLOBAL, at("00:05"), new Object[] {null});
    wall.set(at("00:40"));
    p.advanceIdle();
    assertThat(p.process(1, Key.GLOBAL, at("00:15"), new Object[] {null})).isFalse();
    assertThat(live).contains("`" + p.lateReason(1, at("00:15")) + "`");
    Run l2 = PartitionedRuns.run(L2_QUERY, L2, PartitionedRuns.oneAfterAnother(L2));
    assertThat(live).contains("`" + l2.late().get(0).reason() + "`");
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

  private static Row keyed(String key, String hhmm) {
    return new Row(Key.of(key), at(hhmm), new Object[] {null});
  }

  static final List<List<Row>> L3 = List.of(
      List.of(keyed("acme", "00:01"), keyed("globex", "00:02"), keyed("acme", "00:04"), keyed("globex", "00:20")),
      List.of(keyed("globex", "00:06"), keyed("globex", "00:09"), keyed("globex", "00:30")));
  static final WindowQuery SESSIONS_EVENT = count(WindowSpec.session(5 * MINUTE), 0, LatePolicy.EVENT)
      .withKeys("customer");

  /**
   * L3: each partition forms its own sessions; P0's globex 00:02 and P1's 00:06..00:09 are 4 min
   * apart and join; acme is P0's alone. In every interleaving the same rows, the first two emitted
   * before the drain.
   */
  @Test
  void sessionsOfOneKeyJoinAcrossPartitions() {
    List<int[]> orders = InterleavingIndependenceTest.allInterleavings(L3);
    assertThat(orders).hasSize(35);
    for (int[] order : orders) {
      List<String> beforeDrain = new ArrayList<>();
      Run run = PartitionedRuns.run(SESSIONS_EVENT, L3, order, (partition, position, p, emitted) -> {
        beforeDrain.clear();
        beforeDrain.addAll(PartitionedRuns.texts(emitted));
      });
      assertThat(PartitionedRuns.texts(run.windows())).containsExactly(
          "[acme]|2026-03-01 00:01:00|2026-03-01 00:09:00|2",
          "[globex]|2026-03-01 00:02:00|2026-03-01 00:14:00|3",
          "[globex]|2026-03-01 00:20:00|2026-03-01 00:25:00|1",
          "[globex]|2026-03-01 00:30:00|2026-03-01 00:35:00|1");
      assertThat(beforeDrain).containsExactly(
          "[acme]|2026-03-01 00:01:00|2026-03-01 00:09:00|2",
          "[globex]|2026-03-01 00:02:00|2026-03-01 00:14:00|3");
      assertThat(run.late()).isEmpty();
      assertThat(run.stats()).isEqualTo(new Stats(7, 4, 0, 4, 7, 0));
    }
    List<WindowResult> p0Alone = new ArrayList<>();
    WindowProcessor alone = new WindowProcessor(SESSIONS_EVENT, p0Alone::add);
    for (Row row : L3.get(0)) {
      alone.process(row.key(), row.ts(), row.inputs());
    }
    alone.finish();
    assertThat(PartitionedRuns.texts(p0Alone)).containsExactly(
        "[globex]|2026-03-01 00:02:00|2026-03-01 00:07:00|1",
        "[acme]|2026-03-01 00:01:00|2026-03-01 00:09:00|2",
        "[globex]|2026-03-01 00:20:00|2026-03-01 00:25:00|1");
  }

  /**
   * L4, the documented exception: under policy window P1's session grows backwards with late rows.
   * If P0's 00:40 is taken in before P1's 00:16, P0's 00:10..00:12 has left alone (once both
   * partitions were past 00:17) and P1's 00:16..00:30 leaves on its own; if after, they join. Never
   * a third outcome.
   */
  @Test
  void aSessionThatGrowsBackwardsJoinsOnlyOneStillWaiting() {
    List<List<Row>> l4 = List.of(
        List.of(keyed("k", "00:10"), keyed("k", "00:12"), keyed("k", "00:40")),
        List.of(keyed("k", "00:30"), keyed("k", "00:25"), keyed("k", "00:20"), keyed("k", "00:16")));
    WindowQuery q = count(WindowSpec.session(5 * MINUTE), 0, LatePolicy.WINDOW).withKeys("k");
    List<String> apart = List.of(
        "[k]|2026-03-01 00:10:00|2026-03-01 00:17:00|2",
        "[k]|2026-03-01 00:16:00|2026-03-01 00:35:00|4",
        "[k]|2026-03-01 00:40:00|2026-03-01 00:45:00|1");
    List<String> joined = List.of(
        "[k]|2026-03-01 00:10:00|2026-03-01 00:35:00|6",
        "[k]|2026-03-01 00:40:00|2026-03-01 00:45:00|1");
    int seenApart = 0;
    int seenJoined = 0;
    for (int[] order : InterleavingIndependenceTest.allInterleavings(l4)) {
      int p0At40 = positionOf(order, 0, 2);
      int p1At16 = positionOf(order, 1, 3);
      Run run = PartitionedRuns.run(q, l4, order);
      if (p0At40 < p1At16) {
        seenApart++;
        assertThat(PartitionedRuns.texts(run.windows())).containsExactlyElementsOf(apart);
        assertThat(run.stats()).isEqualTo(new Stats(7, 3, 0, 3, 7, 0));
      } else {
        seenJoined++;
        assertThat(PartitionedRuns.texts(run.windows())).containsExactlyElementsOf(joined);
        assertThat(run.stats()).isEqualTo(new Stats(7, 2, 0, 2, 7, 0));
      }
      assertThat(run.late()).isEmpty();
    }
    assertThat(seenApart).isEqualTo(20);
    assertThat(seenJoined).isEqualTo(15);
  }

  /** Where in {@code order} the {@code nth} row (from 0) of {@code partition} is taken. */
  private static int positionOf(int[] order, int partition, int nth) {
    for (int i = 0, seen = 0; i < order.length; i++) {
      if (order[i] == partition && seen++ == nth) {
        return i;
      }
    }
    throw new IllegalArgumentException("partition " + partition + " has no row " + nth + " in the order");
  }

  /**
   * first and last across partitions: each partition's own first (last) row of the window by
   * arrival, then the earliest (latest) event time among them; a tie goes to the earlier partition
   * for first and to the later one for last. With one partition it is the row that arrived
   * first (last), whatever its event time.
   */
  @Test
  void firstAndLastAcrossPartitionsTakeTheEventTimeOfEachPartitionsOwnRow() {
    WindowQuery q = WindowQuery.of(WindowSpec.tumbling(10 * MINUTE)).withDelay(5 * MINUTE)
        .withAggregates(AggregateSpec.countAll("n"), AggregateSpec.of(AggregateKind.FIRST, "s", "first_s"),
            AggregateSpec.of(AggregateKind.LAST, "s", "last_s"));
    List<List<Row>> parts = List.of(
        List.of(tagged("00:03", "a"), tagged("00:01", "b"), tagged("00:14", "e")),
        List.of(tagged("00:02", "c"), tagged("00:06", "d"), tagged("00:04", "f"), tagged("00:14", "g")),
        List.of(tagged("00:14", "h"), tagged("00:12", "i")));
    for (int[] order : List.of(PartitionedRuns.oneAfterAnother(parts), new int[] {2, 2, 1, 1, 1, 1, 0, 0, 0},
        new int[] {1, 0, 2, 1, 0, 2, 1, 0, 1})) {
      Run run = PartitionedRuns.run(q, parts, order);
      assertThat(PartitionedRuns.texts(run.windows())).containsExactly(
          // P0's first is a (00:03), P1's c (00:02): c; P0's last b (00:01), P1's f (00:04): f
          "2026-03-01 00:00:00|2026-03-01 00:10:00|5|c|f",
          // firsts e, g, h all at 00:14: the earliest partition's, e; lasts e, g (00:14) and i (00:12): g, the
          // later partition of the tie
          "2026-03-01 00:10:00|2026-03-01 00:20:00|4|e|g");
      assertThat(run.late()).isEmpty();
    }
    List<List<Row>> one = List.of(List.of(tagged("00:03", "a"), tagged("00:01", "b"), tagged("00:02", "c")));
    assertThat(PartitionedRuns.texts(PartitionedRuns.run(q, one, PartitionedRuns.oneAfterAnother(one)).windows()))
        .containsExactly("2026-03-01 00:00:00|2026-03-01 00:10:00|3|a|c");
  }

  private static Row tagged(String hhmm, String s) {
    return new Row(Key.GLOBAL, at(hhmm), new Object[] {null, s, s});
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
