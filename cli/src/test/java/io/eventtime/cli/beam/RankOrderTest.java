package io.eventtime.cli.beam;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RankOrderTest {
  @Test
  void anItemWaitsForEveryItemRankedBeforeIt() {
    RankOrder<String> order = new RankOrder<>();
    List<String> out = new ArrayList<>();
    order.add(2, "c");
    order.add(1, "b");
    order.drain(out::add);
    assertThat(out).isEmpty();
    order.add(0, "a");
    order.add(4, "e");
    order.drain(out::add);
    assertThat(out).containsExactly("a", "b", "c");
    order.add(3, "d");
    order.drain(out::add);
    assertThat(out).containsExactly("a", "b", "c", "d", "e");
    order.requireNoGap();
  }

  @Test
  void aGapAtTheEndFailsNamingTheMissingRank() {
    RankOrder<String> order = new RankOrder<>();
    order.add(0, "a");
    order.add(2, "c");
    order.drain(s -> { });
    assertThatThrownBy(order::requireNoGap).isInstanceOf(IllegalStateException.class)
        .hasMessage("the job ended without window row 1 in close order, though 1 rows ranked after it came (the first 2)");
  }

  @Test
  void aRankTakenTwiceFails() {
    RankOrder<String> order = new RankOrder<>();
    order.add(0, "a");
    order.drain(s -> { });
    assertThatThrownBy(() -> order.add(0, "a")).hasMessage("window row 0 in close order came twice");
    order.add(1, "b");
    assertThatThrownBy(() -> order.add(1, "b")).hasMessage("window row 1 in close order came twice");
  }
}
