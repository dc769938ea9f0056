package io.eventtime.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A number is a number: keys of equal numbers in any spelling or Java type are one key, held as
 * a whole number when they are one; and keys that compare equal are equal, so no window is lost
 * between the hash maps and the sorted sets that hold them.
 */
class KeyIdentityTest {

  @Test
  void equalNumbersOfAnyTypeAreOneKeyHeldInCanonicalForm() {
    Key one = Key.of(1L);
    for (Object same : List.of(1.0, 1, (short) 1, 1.0f, new BigDecimal("1.00"), BigInteger.ONE)) {
      Key k = Key.of(same);
      assertThat(k).as("%s (%s)", same, same.getClass().getSimpleName()).isEqualTo(one).hasSameHashCodeAs(one);
      assertThat(k.get(0)).isEqualTo(1L);
    }
    assertThat(Key.of(-0.0)).isEqualTo(Key.of(0L));
    assertThat(Key.of(-0.0).get(0)).isEqualTo(0L);
    assertThat(Key.of(1.5).get(0)).isEqualTo(1.5);
    assertThat(Key.of(1.5)).isNotEqualTo(one);
    // beyond the 64-bit range a whole number stays a double
    assertThat(Key.of(0x1p63).get(0)).isEqualTo(0x1p63);
    assertThat(Key.of(-0x1p63).get(0)).isEqualTo(Long.MIN_VALUE);
    assertThat(Key.of("1")).isNotEqualTo(one);
  }

  @Test
  void aWholeNumberBeyond64BitsIsADoubleNotItsLow64Bits() {
    assertThat(Values.normalize(BigInteger.TWO.pow(64))).isEqualTo(0x1p64);
    assertThat(Key.of(BigInteger.TWO.pow(64))).isNotEqualTo(Key.of(0L));
  }

  @Test
  void keysCompareEqualExactlyWhenTheyAreEqual() {
    List<Object> values = List.of(0L, 1L, 1.0, 1.5, -1.5, -2L, (1L << 53), (1L << 53) + 1, 0x1p53, Long.MAX_VALUE,
        0x1p63, Long.MIN_VALUE, -0x1p63, -0x1p64, 1e300, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY,
        Double.NaN, "1", true);
    List<Key> keys = new ArrayList<>();
    values.forEach(v -> keys.add(Key.of(v)));
    for (Key a : keys) {
      for (Key b : keys) {
        assertThat(a.compareTo(b) == 0).as("%s vs %s", a, b).isEqualTo(a.equals(b));
        assertThat(Integer.signum(a.compareTo(b))).as("%s vs %s", a, b).isEqualTo(-Integer.signum(b.compareTo(a)));
      }
    }
    assertThat(Key.of((1L << 53) + 1).compareTo(Key.of(0x1p53))).isPositive();
    assertThat(Key.of(Long.MAX_VALUE).compareTo(Key.of(0x1p63))).isNegative();
    assertThat(Key.of(-0x1p64).compareTo(Key.of(Long.MIN_VALUE))).isNegative();
    assertThat(Key.of(-1.5).compareTo(Key.of(-2L))).isPositive();
    assertThat(Key.of(1L).compareTo(Key.of(1.5))).isNegative();
  }

  private static List<String> sessions(Object... keys) {
    WindowQuery q = new WindowQuery(WindowSpec.session(10), List.of("k"), List.of(AggregateSpec.countAll("n")), 0,
        LatePolicy.WINDOW);
    List<String> out = new ArrayList<>();
    WindowProcessor p = new WindowProcessor(q, r -> out.add(r.key().get(0) + " [" + r.start() + "," + r.end() + ") n="
        + r.values()[0]));
    for (Object k : keys) {
      assertThat(p.process(Key.of(k), 0, new Object[] {null})).isTrue();
    }
    p.finish();
    assertThat(p.stats().rowsFolded()).isEqualTo(keys.length);
    return out;
  }

  @Test
  void oneAndOnePointZeroMakeOneSession() {
    assertThat(sessions(1L, 1.0, 2L)).containsExactly("1 [0,10) n=2", "2 [0,10) n=1");
  }

  @Test
  void twoKeysThatADoubleCastWouldConfuseMakeTwoSessionsBothEmitted() {
    // 2^53 + 1 and 2^53 are one double: sessions of both keys, alike in start and end, were one set entry
    assertThat(sessions((1L << 53) + 1, 0x1p53)).containsExactly("9007199254740992 [0,10) n=1",
        "9007199254740993 [0,10) n=1");
  }
}
