package io.eventtime.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The edges of the contract, row by row: a session gap of exactly G and of G + 1, a late row
 * bridging two open sessions, a hopping row that lands in its open window and misses the closed
 * one, grid windows closing when the watermark reaches their end.
 */
class WindowProcessorScenarioTest {

  /**
   * What a run gave: each window as {@code key [start,end) n=.. sum=.. @rows} (sum of the rows'
   * arrival numbers 1, 2, 3.., and the number of rows in when it was emitted), whether each row
   * was folded, the open windows after each row, and the processor.
   */
  record Outcome(List<String> windows, List<Boolean> folded, List<Integer> open, WindowProcessor processor) {}

  /** Runs rows written {@code key@time} through the query, with count(*) and sum(arrival number). */
  private static Outcome run(WindowSpec spec, long delay, LatePolicy policy, String... rows) {
    WindowQuery q = new WindowQuery(spec, List.of("k"),
        List.of(AggregateSpec.countAll("n"), AggregateSpec.of(AggregateKind.SUM, "v", "sum")), delay, policy);
    List<String> windows = new ArrayList<>();
    WindowProcessor[] holder = new WindowProcessor[1];
    WindowProcessor p = new WindowProcessor(q, r -> windows.add(r.key().get(0) + " [" + r.start() + "," + r.end()
        + ") n=" + r.values()[0] + " sum=" + r.values()[1] + " @" + holder[0].stats().rowsIn()));
    holder[0] = p;
    List<Boolean> folded = new ArrayList<>();
    List<Integer> open = new ArrayList<>();
    long arrival = 0;
    for (String row : rows) {
      String[] kt = row.split("@");
      arrival++;
      folded.add(p.process(Key.of(kt[0]), Long.parseLong(kt[1]), new Object[] {null, arrival}));
      open.add(p.openWindowCount());
    }
    p.finish();
    return new Outcome(windows, folded, open, p);
  }

  @Test
  void aSessionGapOfExactlyGKeepsOneSession() {
    for (LatePolicy policy : LatePolicy.values()) {
      // B@10 takes the watermark to 10 = A's last + G: A's session is still open, and A@10 joins it
      Outcome o = run(WindowSpec.session(10), 0, policy, "A@0", "B@10", "A@10");
      assertThat(o.folded()).containsExactly(true, true, true);
      assertThat(o.open()).containsExactly(1, 2, 2);
      assertThat(o.windows()).containsExactly("A [0,20) n=2 sum=4 @3", "B [10,20) n=1 sum=2 @3");

      Outcome chain = run(WindowSpec.session(10), 0, policy, "A@0", "A@10", "A@20", "A@31");
      assertThat(chain.windows()).containsExactly("A [0,30) n=3 sum=6 @4", "A [31,41) n=1 sum=4 @4");
    }
  }

  @Test
  void aSessionGapOfGPlusOneSplits() {
    for (LatePolicy policy : LatePolicy.values()) {
      // B@11 takes the watermark past A's last + G: A's session closes at once, and A@11 starts another
      Outcome o = run(WindowSpec.session(10), 0, policy, "A@0", "B@11", "A@11");
      assertThat(o.folded()).containsExactly(true, true, true);
      assertThat(o.open()).containsExactly(1, 1, 2);
      assertThat(o.windows()).containsExactly("A [0,10) n=1 sum=1 @2", "A [11,21) n=1 sum=3 @3",
          "B [11,21) n=1 sum=2 @3");
      assertThat(o.processor().stats()).isEqualTo(new Stats(3, 3, 0, 2, 3, 0));
    }
  }

  @Test
  void aLateRowBridgingTwoOpenSessionsMergesThemUnderPolicyWindow() {
    // gap 10, delay 8: after A@18 the watermark is 10, so A@9 is behind it, but both sessions
    // (A@0, ending at 10, and A@18) are still open and A@9 is within a gap of each
    Outcome window = run(WindowSpec.session(10), 8, LatePolicy.WINDOW, "A@0", "A@18", "A@9");
    assertThat(window.folded()).containsExactly(true, true, true);
    assertThat(window.open()).containsExactly(1, 2, 1);
    assertThat(window.windows()).containsExactly("A [0,28) n=3 sum=6 @3");
    assertThat(window.processor().stats()).isEqualTo(new Stats(3, 1, 0, 1, 3, 0));

    Outcome event = run(WindowSpec.session(10), 8, LatePolicy.EVENT, "A@0", "A@18", "A@9");
    assertThat(event.folded()).containsExactly(true, true, false);
    assertThat(event.open()).containsExactly(1, 2, 2);
    assertThat(event.windows()).containsExactly("A [0,10) n=1 sum=1 @3", "A [18,28) n=1 sum=2 @3");
    assertThat(event.processor().stats()).isEqualTo(new Stats(3, 2, 1, 2, 2, 0));
  }

  @Test
  void aLateSessionRowIsDroppedOnlyWhenTheSessionItWouldFormIsClosed() {
    // watermark 10 after B@18: C@3 forms [3,13), still open; C@-1 would form [-1,9), closed
    Outcome window = run(WindowSpec.session(10), 8, LatePolicy.WINDOW, "B@18", "C@3", "C@-1");
    assertThat(window.folded()).containsExactly(true, true, true);
    assertThat(window.windows()).containsExactly("C [-1,13) n=2 sum=5 @3", "B [18,28) n=1 sum=1 @3");

    Outcome alone = run(WindowSpec.session(10), 8, LatePolicy.WINDOW, "B@18", "C@-1");
    assertThat(alone.folded()).containsExactly(true, false);
    assertThat(alone.processor().lateReason(-1)).isEqualTo(
        "every window of event time 1969-12-31 23:59:59.999 had closed at watermark 1970-01-01 00:00:00.010"
            + " (late policy window)");

    Outcome event = run(WindowSpec.session(10), 8, LatePolicy.EVENT, "B@18", "C@3", "C@-1");
    assertThat(event.folded()).containsExactly(true, false, false);
    assertThat(event.processor().lateReason(3)).isEqualTo(
        "event time 1970-01-01 00:00:00.003 is behind the watermark 1970-01-01 00:00:00.010 (late policy event)");
  }

  @Test
  void aHoppingRowLandsInItsOpenWindowAndMissesTheClosedOneUnderPolicyWindow() {
    // slide 5, size 10, delay 0. @12 closes [-5,5) and [0,10); @7 belongs to [0,10) (closed) and [5,15) (open)
    Outcome window = run(WindowSpec.hopping(5, 10), 0, LatePolicy.WINDOW, "A@3", "A@12", "A@7");
    assertThat(window.folded()).containsExactly(true, true, true);
    assertThat(window.open()).containsExactly(2, 2, 2);
    assertThat(window.windows()).containsExactly("A [-5,5) n=1 sum=1 @2", "A [0,10) n=1 sum=1 @2",
        "A [5,15) n=2 sum=5 @3", "A [10,20) n=1 sum=2 @3");
    assertThat(window.processor().stats()).isEqualTo(new Stats(3, 4, 0, 4, 3, 0));

    Outcome event = run(WindowSpec.hopping(5, 10), 0, LatePolicy.EVENT, "A@3", "A@12", "A@7");
    assertThat(event.folded()).containsExactly(true, true, false);
    assertThat(event.windows()).containsExactly("A [-5,5) n=1 sum=1 @2", "A [0,10) n=1 sum=1 @2",
        "A [5,15) n=1 sum=2 @3", "A [10,20) n=1 sum=2 @3");
    assertThat(event.processor().stats()).isEqualTo(new Stats(3, 4, 1, 4, 2, 0));
  }

  @Test
  void aHoppingSlideThatDoesNotDivideTheSizePutsARowInTwoOrThreeWindows() {
    // slide 3, size 7: windows start at multiples of 3; 6 is in [0,7), [3,10), [6,13); 2 only in [-3,4), [0,7)
    Outcome o = run(WindowSpec.hopping(3, 7), 100, LatePolicy.WINDOW, "A@6", "A@2");
    assertThat(o.open()).containsExactly(3, 4);
    assertThat(o.windows()).containsExactly("A [-3,4) n=1 sum=2 @2", "A [0,7) n=2 sum=3 @2",
        "A [3,10) n=1 sum=1 @2", "A [6,13) n=1 sum=1 @2");
  }

  @Test
  void aGridWindowClosesWhenTheWatermarkReachesItsEnd() {
    for (LatePolicy policy : LatePolicy.values()) {
      // @10 takes the watermark to 10, the end of [0,10): it is emitted then, and @9 is late for it
      Outcome o = run(WindowSpec.tumbling(10), 0, policy, "A@5", "A@10", "A@9");
      assertThat(o.folded()).containsExactly(true, true, false);
      assertThat(o.windows()).containsExactly("A [0,10) n=1 sum=1 @2", "A [10,20) n=1 sum=2 @3");
    }
  }

  @Test
  void aTumblingRowBehindTheWatermarkCountsInItsOpenWindowUnderPolicyWindowOnly() {
    Outcome window = run(WindowSpec.tumbling(10), 0, LatePolicy.WINDOW, "A@5", "A@8", "A@3", "A@-1");
    assertThat(window.folded()).containsExactly(true, true, true, false);
    assertThat(window.windows()).containsExactly("A [0,10) n=3 sum=6 @4");

    Outcome event = run(WindowSpec.tumbling(10), 0, LatePolicy.EVENT, "A@5", "A@8", "A@3", "A@-1", "A@8");
    assertThat(event.folded()).containsExactly(true, true, false, false, true);
    assertThat(event.windows()).containsExactly("A [0,10) n=3 sum=8 @5");
    assertThat(event.processor().stats()).isEqualTo(new Stats(5, 1, 2, 1, 3, 0));
  }

  @Test
  void anOffsetShiftsTheGrid() {
    Outcome tumbling = run(new WindowSpec.Tumbling(10, 3), 0, LatePolicy.WINDOW, "A@2", "A@3", "A@12", "A@13");
    assertThat(tumbling.windows()).containsExactly("A [-7,3) n=1 sum=1 @2", "A [3,13) n=2 sum=5 @4",
        "A [13,23) n=1 sum=4 @4");
    // an offset larger than the size, or negative, is the same grid as its remainder
    Outcome large = run(new WindowSpec.Tumbling(10, 23), 0, LatePolicy.WINDOW, "A@2", "A@3", "A@12", "A@13");
    Outcome negative = run(new WindowSpec.Tumbling(10, -7), 0, LatePolicy.WINDOW, "A@2", "A@3", "A@12", "A@13");
    assertThat(large.windows()).isEqualTo(tumbling.windows());
    assertThat(negative.windows()).isEqualTo(tumbling.windows());

    Outcome hopping = run(new WindowSpec.Hopping(5, 10, 1), 100, LatePolicy.WINDOW, "A@0", "A@6");
    assertThat(hopping.windows()).containsExactly("A [-9,1) n=1 sum=1 @2", "A [-4,6) n=1 sum=1 @2",
        "A [1,11) n=1 sum=2 @2", "A [6,16) n=1 sum=2 @2");
  }

  @Test
  void theFirstRowIsNeverLateAndTheWatermarkNeverMovesBack() {
    WindowProcessor p = new WindowProcessor(WindowQuery.of(WindowSpec.tumbling(10)).withDelay(3)
        .withLatePolicy(LatePolicy.EVENT).withAggregates(AggregateSpec.countAll("n")), r -> { });
    assertThat(p.watermark()).isNull();
    assertThat(p.process(Key.GLOBAL, -1_000_000, new Object[] {null})).isTrue();
    assertThat(p.watermark()).isEqualTo(-1_000_003L);
    assertThat(p.process(Key.GLOBAL, 50, new Object[] {null})).isTrue();
    assertThat(p.watermark()).isEqualTo(47L);
    assertThat(p.process(Key.GLOBAL, 47, new Object[] {null})).isTrue();
    assertThat(p.process(Key.GLOBAL, 46, new Object[] {null})).isFalse();
    assertThat(p.watermark()).isEqualTo(47L);
  }

  @Test
  void rejectedRowsAreCountedAndKeepTheInvariant() {
    List<WindowResult> out = new ArrayList<>();
    WindowProcessor p = new WindowProcessor(WindowQuery.of(WindowSpec.tumbling(10))
        .withAggregates(AggregateSpec.countAll("n")), out::add);
    p.reject();
    p.process(Key.GLOBAL, 4, new Object[] {null});
    p.reject();
    p.process(Key.GLOBAL, 30, new Object[] {null});
    p.process(Key.GLOBAL, 1, new Object[] {null});
    p.finish();
    assertThat(p.stats()).isEqualTo(new Stats(5, 2, 1, 2, 2, 2));
    assertThat(p.stats().balanced()).isTrue();
    assertThat(p.stats().toJson()).isEqualTo("{\"stats\":{\"rows_in\":5,\"rows_out\":2,\"late_dropped\":1,"
        + "\"windows_closed\":2,\"rows_folded\":2,\"rows_rejected\":2}}");
    assertThat(out).containsExactly(new WindowResult(Key.GLOBAL, 0, 10, new Object[] {1L}),
        new WindowResult(Key.GLOBAL, 30, 40, new Object[] {1L}));
  }

  @Test
  void windowsClosedCountsDistinctIntervalsAcrossKeys() {
    Outcome o = run(WindowSpec.tumbling(10), 0, LatePolicy.WINDOW, "A@1", "B@2", "C@15", "A@16", "B@40");
    assertThat(o.windows()).containsExactly("A [0,10) n=1 sum=1 @3", "B [0,10) n=1 sum=2 @3",
        "A [10,20) n=1 sum=4 @5", "C [10,20) n=1 sum=3 @5", "B [40,50) n=1 sum=5 @5");
    assertThat(o.processor().stats()).isEqualTo(new Stats(5, 5, 0, 3, 5, 0));
  }

  @Test
  void aProcessorThatHasEndedRefusesMoreRows() {
    WindowProcessor p = new WindowProcessor(WindowQuery.of(WindowSpec.session(5)), r -> { });
    p.finish();
    assertThatThrownBy(() -> p.process(Key.GLOBAL, 1, new Object[0]))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("this run has ended");
    WindowProcessor q = new WindowProcessor(WindowQuery.of(WindowSpec.session(5)), r -> { });
    q.hold();
    assertThatThrownBy(q::reject).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(q::finish).isInstanceOf(IllegalStateException.class);
  }
}
