package io.eventtime.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The one late rule, {@link LatePolicy#admits}, per policy, and the grid and session paths that
 * both go through it.
 */
class LateRuleTest {
  private static final WindowSpec.Tumbling TUMBLING = WindowSpec.tumbling(10);
  private static final WindowSpec.Session SESSION = WindowSpec.session(5);
  private static final Aggregates COUNT = new Aggregates(List.of(AggregateSpec.countAll("n")));
  private static final Object[] ROW = {null};

  /** One row's question to the rule: may it go into its window ending at {@code end}? */
  private record Case(LatePolicy policy, WindowSpec spec, long eventTime, long end, long watermark, boolean admitted) {}

  @Test
  void eventLeavesOutARowBehindTheWatermarkAndWindowOnlyARowWhoseWindowIsClosed() {
    List<Case> cases = List.of(
        // the grid window [0, 10), open at watermark 5 and 9, closed at 10
        new Case(LatePolicy.EVENT, TUMBLING, 3, 10, 5, false),
        new Case(LatePolicy.EVENT, TUMBLING, 5, 10, 5, true),
        new Case(LatePolicy.EVENT, TUMBLING, 12, 20, 5, true),
        new Case(LatePolicy.WINDOW, TUMBLING, 3, 10, 5, true),
        new Case(LatePolicy.WINDOW, TUMBLING, 3, 10, 9, true),
        new Case(LatePolicy.WINDOW, TUMBLING, 3, 10, 10, false),
        // the session [3, 8) a row at 3 forms alone: it closes only once the watermark passes 8
        new Case(LatePolicy.EVENT, SESSION, 3, 8, 5, false),
        new Case(LatePolicy.EVENT, SESSION, 5, 10, 5, true),
        new Case(LatePolicy.WINDOW, SESSION, 3, 8, 5, true),
        new Case(LatePolicy.WINDOW, SESSION, 3, 8, 8, true),
        new Case(LatePolicy.WINDOW, SESSION, 3, 8, 9, false));
    for (Case c : cases) {
      assertThat(c.policy().admits(c.spec(), c.eventTime(), c.end(), c.watermark())).as(c.toString())
          .isEqualTo(c.admitted());
    }
  }

  @Test
  void theLateReasonSaysWhichRuleLeftTheRowOut() {
    assertThat(LatePolicy.EVENT.lateReason(3, 5)).isEqualTo(
        "event time 1970-01-01 00:00:00.003 is behind the watermark 1970-01-01 00:00:00.005 (late policy event)");
    assertThat(LatePolicy.WINDOW.lateReason(3, 10)).isEqualTo(
        "every window of event time 1970-01-01 00:00:00.003 had closed at watermark 1970-01-01 00:00:00.010"
            + " (late policy window)");
    assertThat(WindowAssigner.lateReason(LatePolicy.WINDOW, 3, 10)).isEqualTo(LatePolicy.WINDOW.lateReason(3, 10));
  }

  @Test
  void aGridRowLandsInTheWindowsTheRuleAdmits() {
    long[] starts = new long[2];
    // a row at 7 is in [0, 10) and [5, 15); at watermark 10 the first is closed
    WindowAssigner window = new WindowAssigner(WindowSpec.hopping(5, 10), LatePolicy.WINDOW);
    assertThat(window.landing(7, 10, starts)).isEqualTo(1);
    assertThat(starts[0]).isEqualTo(5);
    assertThat(window.landing(7, 9, starts)).isEqualTo(2);
    assertThat(starts).containsExactly(0, 5);
    assertThat(window.landing(2, 10, starts)).isZero();

    WindowAssigner event = new WindowAssigner(WindowSpec.hopping(5, 10), LatePolicy.EVENT);
    assertThat(event.landing(7, 10, starts)).isZero();
    assertThat(event.landing(10, 10, starts)).isEqualTo(2);
    assertThat(starts).containsExactly(5, 10);

    WindowAssigner tumbling = new WindowAssigner(TUMBLING, LatePolicy.WINDOW);
    assertThat(tumbling.landing(19, 10, starts)).isEqualTo(1);
    assertThat(starts[0]).isEqualTo(10);
    assertThat(tumbling.landing(9, 10, starts)).isZero();
  }

  @Test
  void aSessionRowIsJudgedByTheSessionItForms() {
    // alone, a row at 0 forms [0, 5): open at watermark 5, closed at 6
    assertThat(sessions(LatePolicy.WINDOW).fold(0, ROW, 0, 5)).isTrue();
    assertThat(sessions(LatePolicy.WINDOW).fold(0, ROW, 0, 6)).isFalse();

    // next to the open session [0, 9) (last event 4), a row at 2 joins it under window, not under event
    SessionSet window = sessions(LatePolicy.WINDOW);
    window.restore(0, 4, COUNT.create());
    assertThat(window.fold(2, ROW, 1, 6)).isTrue();
    assertThat(window.sessions()).extracting(s -> s.start() + ".." + s.last()).containsExactly("0..4");
    SessionSet event = sessions(LatePolicy.EVENT);
    event.restore(0, 4, COUNT.create());
    assertThat(event.fold(2, ROW, 1, 6)).isFalse();
    assertThat(event.fold(6, ROW, 1, 6)).isTrue();
    assertThat(event.sessions()).extracting(s -> s.start() + ".." + s.last()).containsExactly("0..6");
  }

  @Test
  void aRowThatBridgesTwoSessionsJoinsThemUnderWindowOnly() {
    for (LatePolicy policy : LatePolicy.values()) {
      SessionSet set = sessions(policy);
      set.restore(0, 4, COUNT.create());
      set.restore(12, 14, COUNT.create());
      boolean folded = set.fold(8, ROW, 2, 9);
      assertThat(folded).as(policy.label()).isEqualTo(policy == LatePolicy.WINDOW);
      assertThat(set.sessions()).as(policy.label()).extracting(s -> s.start() + ".." + s.last())
          .containsExactly(folded ? new String[] {"0..14"} : new String[] {"0..4", "12..14"});
    }
  }

  private static SessionSet sessions(LatePolicy policy) {
    return new SessionSet(Key.GLOBAL, SESSION, policy, COUNT);
  }
}
