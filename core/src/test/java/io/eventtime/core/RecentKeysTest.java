package io.eventtime.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

class RecentKeysTest {
  @Test
  void valuesSeenLatelyGetTheSameKey_andTheCallersArrayIsNotKept() {
    RecentKeys recent = new RecentKeys();
    Object[] values = {"m1", 7L};
    Key first = recent.of(values);
    values[0] = "m2"; // the caller reuses its array for the next row
    Key second = recent.of(values);
    assertThat(first).isEqualTo(Key.of("m1", 7L)).isNotEqualTo(second);
    assertThat(second).isEqualTo(Key.of("m2", 7L));
    values[0] = "m1";
    assertThat(recent.of(values)).isSameAs(first);
  }

  /** Many keys sharing the table's slots: each key has exactly its own values, whichever slot it lost. */
  @Test
  void everyKeyHoldsItsOwnValues_whateverKeysShareItsSlot() {
    RecentKeys recent = new RecentKeys();
    Random random = new Random(42);
    Object[] values = new Object[2];
    for (int i = 0; i < 200_000; i++) {
      values[0] = "m" + random.nextInt(50_000);
      values[1] = (long) random.nextInt(3);
      Key key = recent.of(values);
      assertThat(key).isEqualTo(Key.of(values[0], values[1]));
      assertThat(key.hashCode()).isEqualTo(Key.hashOf(values));
    }
  }
}
