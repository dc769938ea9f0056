package io.eventtime.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each kind's {@link OpenWindows}: what the processor folds into, closes, holds and restores. */
class OpenWindowsTest {
  private static final Aggregates COUNT = new Aggregates(List.of(AggregateSpec.countAll("n")));
  private static final Object[] ROW = {null};
  private static final Key A = Key.of("a");
  private static final Key B = Key.of("b");

  @Test
  void gridWindowsCloseByEndThenKeyAndHoldTheRest() {
    OpenWindows open = WindowSpec.tumbling(10).openWindows(LatePolicy.WINDOW, COUNT);
    // key, event time, watermark: the last is late, its window [0, 10) closed at 10
    assertThat(foldAll(open, B, 2, Long.MIN_VALUE, A, 15, Long.MIN_VALUE, A, 1, 5, A, 3, 10))
        .containsExactly(true, true, true, false);
    assertThat(described(open.held())).containsExactly("[a] 0-10:1", "[b] 0-10:1", "[a] 10-20:1");
    assertThat(open.count()).isEqualTo(3);
    assertThat(closedAt(open, 9)).isEmpty();
    assertThat(closedAt(open, 10)).containsExactly("[a] 0-10:1", "[b] 0-10:1");

    OpenWindows restored = restore(WindowSpec.tumbling(10), LatePolicy.WINDOW, open.held());
    assertThat(described(restored.held())).containsExactly("[a] 10-20:1");
    assertThat(closedAt(restored, Long.MAX_VALUE)).containsExactly("[a] 10-20:1");
    assertThat(restored.count()).isZero();
  }

  @Test
  void hoppingWindowsTakeARowIntoEachOpenWindowThatCoversIt() {
    OpenWindows open = WindowSpec.hopping(5, 10).openWindows(LatePolicy.WINDOW, COUNT);
    assertThat(open.fold(A, 7, ROW, 0, 10)).isTrue();
    assertThat(described(open.held())).containsExactly("[a] 5-15:1");
    assertThat(open.fold(A, 12, ROW, 1, 10)).isTrue();
    assertThat(described(open.held())).containsExactly("[a] 5-15:2", "[a] 10-20:1");
  }

  @Test
  void sessionsCloseByEndOnceTheWatermarkPassesIt() {
    OpenWindows open = WindowSpec.session(5).openWindows(LatePolicy.EVENT, COUNT);
    // the last is behind the watermark 1
    assertThat(foldAll(open, A, 0, Long.MIN_VALUE, B, 1, Long.MIN_VALUE, A, 3, 1, B, 0, 1))
        .containsExactly(true, true, true, false);
    assertThat(open.count()).isEqualTo(2);
    assertThat(described(open.held())).containsExactly("[b] 1-6:1", "[a] 0-8:2");
    assertThat(closedAt(open, 6)).isEmpty();
    assertThat(closedAt(open, 7)).containsExactly("[b] 1-6:1");

    // a row at 8 is one gap after the restored session's last event, 3: it joins it
    OpenWindows restored = restore(WindowSpec.session(5), LatePolicy.EVENT, open.held());
    assertThat(restored.fold(A, 8, ROW, 4, 7)).isTrue();
    assertThat(described(restored.held())).containsExactly("[a] 0-13:3");
    assertThat(closedAt(restored, Long.MAX_VALUE)).containsExactly("[a] 0-13:3");
    assertThat(restored.count()).isZero();
  }

  @Test
  void aGridKindSaysWhichWindowsCoverARow() {
    long[] starts = new long[3];
    WindowSpec.Grid tumbling = new WindowSpec.Tumbling(10, 3);
    assertThat(tumbling.maxWindowsPerRow()).isEqualTo(1);
    assertThat(tumbling.startsOf(2, starts)).isEqualTo(1);
    assertThat(starts[0]).isEqualTo(-7);
    WindowSpec.Grid hopping = WindowSpec.hopping(3, 7);
    assertThat(hopping.maxWindowsPerRow()).isEqualTo(3);
    assertThat(hopping.startsOf(6, starts)).isEqualTo(3);
    assertThat(starts).containsExactly(0, 3, 6);
  }

  /** Folds rows given as key, event time, watermark, in arrival order; whether each was folded. */
  private static List<Boolean> foldAll(OpenWindows open, Object... rows) {
    List<Boolean> folded = new ArrayList<>();
    for (int i = 0; i < rows.length; i += 3) {
      folded.add(open.fold((Key) rows[i], ((Number) rows[i + 1]).longValue(), ROW, i / 3,
          ((Number) rows[i + 2]).longValue()));
    }
    return folded;
  }

  /** The windows that closing at {@code watermark} hands on, in the order it hands them on. */
  private static List<String> closedAt(OpenWindows open, long watermark) {
    List<String> closed = new ArrayList<>();
    open.closeUpTo(watermark, (key, start, end, accs) -> closed.add(describe(key, start, end, accs)));
    return closed;
  }

  private static OpenWindows restore(WindowSpec spec, LatePolicy policy, List<OpenState.OpenWindow> held) {
    OpenWindows open = spec.openWindows(policy, COUNT);
    held.forEach(open::restore);
    return open;
  }

  private static List<String> described(List<OpenState.OpenWindow> windows) {
    return windows.stream().map(w -> describe(w.key(), w.start(), w.end(), w.accumulators())).toList();
  }

  private static String describe(Key key, long start, long end, Accumulator[] accs) {
    return key + " " + start + "-" + end + ":" + COUNT.results(accs)[0];
  }
}
