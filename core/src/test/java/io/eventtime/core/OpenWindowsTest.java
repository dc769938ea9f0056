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
    assertThat(open.fold(B, 2, ROW, 0, Long.MIN_VALUE)).isTrue();
    assertThat(open.fold(A, 15, ROW, 1, Long.MIN_VALUE)).isTrue();
    assertThat(open.fold(A, 1, ROW, 2, 5)).isTrue();
    assertThat(open.fold(A, 3, ROW, 3, 10)).isFalse();
    assertThat(open.count()).isEqualTo(3);
    assertThat(described(open.held())).containsExactly("[a] 0-10:1", "[b] 0-10:1", "[a] 10-20:1");

    List<String> closed = new ArrayList<>();
    open.closeUpTo(9, collect(closed));
    assertThat(closed).isEmpty();
    open.closeUpTo(10, collect(closed));
    assertThat(closed).containsExactly("[a] 0-10:1", "[b] 0-10:1");

    OpenWindows restored = WindowSpec.tumbling(10).openWindows(LatePolicy.WINDOW, COUNT);
    open.held().forEach(restored::restore);
    assertThat(described(restored.held())).containsExactly("[a] 10-20:1");
    restored.closeUpTo(Long.MAX_VALUE, collect(closed));
    assertThat(closed).containsExactly("[a] 0-10:1", "[b] 0-10:1", "[a] 10-20:1");
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
    assertThat(open.fold(A, 0, ROW, 0, Long.MIN_VALUE)).isTrue();
    assertThat(open.fold(B, 1, ROW, 1, Long.MIN_VALUE)).isTrue();
    assertThat(open.fold(A, 3, ROW, 2, 1)).isTrue();
    assertThat(open.fold(B, 0, ROW, 3, 1)).isFalse();
    assertThat(open.count()).isEqualTo(2);
    assertThat(described(open.held())).containsExactly("[b] 1-6:1", "[a] 0-8:2");

    List<String> closed = new ArrayList<>();
    open.closeUpTo(6, collect(closed));
    assertThat(closed).isEmpty();
    open.closeUpTo(7, collect(closed));
    assertThat(closed).containsExactly("[b] 1-6:1");

    OpenWindows restored = WindowSpec.session(5).openWindows(LatePolicy.EVENT, COUNT);
    open.held().forEach(restored::restore);
    assertThat(restored.fold(A, 8, ROW, 4, 7)).isTrue();
    assertThat(described(restored.held())).containsExactly("[a] 0-13:3");
    restored.closeUpTo(Long.MAX_VALUE, collect(closed));
    assertThat(closed).containsExactly("[b] 1-6:1", "[a] 0-13:3");
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

  private static OpenWindows.Closed collect(List<String> out) {
    return (key, start, end, accs) -> out.add(describe(key, start, end, accs));
  }

  private static List<String> described(List<OpenState.OpenWindow> windows) {
    return windows.stream().map(w -> describe(w.key(), w.start(), w.end(), w.accumulators())).toList();
  }

  private static String describe(Key key, long start, long end, Accumulator[] accs) {
    return key + " " + start + "-" + end + ":" + COUNT.results(accs)[0];
  }
}
