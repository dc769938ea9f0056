package io.eventtime.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Arrival positions: what goes in comes back, the limits are refused by name, the order is arrival order. */
class ArrivalPositionTest {
  @Test
  void fileAndLineComeBackFromTheirPosition() {
    long[][] cases = {{0, 0}, {0, 1}, {3, 17}, {1, ArrivalPosition.MAX_LINE}, {ArrivalPosition.MAX_FILES - 1, 1},
        {ArrivalPosition.MAX_FILES - 1, ArrivalPosition.MAX_LINE}};
    for (long[] c : cases) {
      long position = ArrivalPosition.of((int) c[0], c[1]);
      assertThat(position).isNotNegative();
      assertThat(ArrivalPosition.file(position)).isEqualTo((int) c[0]);
      assertThat(ArrivalPosition.line(position)).isEqualTo(c[1]);
    }
    assertThat(ArrivalPosition.of(3, 17)).isEqualTo((3L << 36) | 17);
  }

  @Test
  void aFanOutComesBackToItsPositionAndIndex() {
    long line = ArrivalPosition.of(2, 9);
    long twice = ArrivalPosition.fanOut(ArrivalPosition.fanOut(line, 5), 255);
    assertThat(ArrivalPosition.fanOutIndex(twice)).isEqualTo(255);
    assertThat(ArrivalPosition.fanOutIndex(ArrivalPosition.fannedFrom(twice))).isEqualTo(5);
    assertThat(ArrivalPosition.fannedFrom(ArrivalPosition.fannedFrom(twice))).isEqualTo(line);
  }

  @Test
  void theWidthsAreTheDocumentedOnes() {
    assertThat(ArrivalPosition.LINE_BITS + ArrivalPosition.FILE_BITS).isEqualTo(63);
    assertThat(ArrivalPosition.MAX_FILES).isEqualTo(134_217_728);
    assertThat(ArrivalPosition.MAX_LINE).isEqualTo(68_719_476_735L);
    assertThat(ArrivalPosition.MAX_FAN_OUT).isEqualTo(256);
  }

  @Test
  void aFileOrLineThatDoesNotFitIsRefusedByItsNumber() {
    assertThatThrownBy(() -> ArrivalPosition.of(134_217_728, 1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("file index 134217728 is not an arrival position's: positions number at most 134217728 files"
            + " (indexes 0 to 134217727): read fewer files at once");
    assertThatThrownBy(() -> ArrivalPosition.of(-1, 1)).hasMessageStartingWith("file index -1 is not");
    assertThatThrownBy(() -> ArrivalPosition.of(4, 68_719_476_736L)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("line 68719476736 of file index 4 is beyond the 68719476735 lines an arrival position numbers in"
            + " one file: split the file into smaller ones");
    assertThatThrownBy(() -> ArrivalPosition.of(0, -1)).hasMessageStartingWith("line -1 of file index 0 is beyond");
    ArrivalPosition.requireFiles(134_217_728);
    assertThatThrownBy(() -> ArrivalPosition.requireFiles(134_217_729)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("134217729 files are more than the 134217728 an arrival position numbers: read fewer files at once");
  }

  @Test
  void aFanOutThatDoesNotFitIsRefused() {
    assertThatThrownBy(() -> ArrivalPosition.fanOut(7, 256)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("row 256 of one arrival position is beyond the 256 rows a position fans out to (indexes 0 to 255)");
    assertThatThrownBy(() -> ArrivalPosition.fanOut(7, -1)).hasMessageStartingWith("row -1 of one arrival position");
    assertThat(ArrivalPosition.fanOut((1L << 55) - 1, 255)).isEqualTo(Long.MAX_VALUE);
    assertThatThrownBy(() -> ArrivalPosition.fanOut(1L << 55, 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the arrival position 36028797018963968 takes more than the 55 bits that leave room for a fan-out"
            + " of 8 bits");
    assertThatThrownBy(() -> ArrivalPosition.fanOut(-1, 0)).hasMessageStartingWith("the arrival position -1 takes");
  }

  @Test
  void positionsOrderAsFileThenLineThenFanOut() {
    Random random = new Random(10);
    List<long[]> triples = new ArrayList<>();
    for (int i = 0; i < 2000; i++) {
      triples.add(new long[] {random.nextInt(4) == 0 ? random.nextInt(1 << 19) : random.nextInt(3),
          random.nextInt(3) == 0 ? random.nextInt(Integer.MAX_VALUE) : random.nextInt(5), random.nextInt(256)});
    }
    triples.add(new long[] {(1 << 19) - 1, ArrivalPosition.MAX_LINE, 255});
    triples.add(new long[] {0, 0, 0});
    List<long[]> byTriple = new ArrayList<>(triples);
    byTriple.sort(Comparator.<long[]>comparingLong(t -> t[0]).thenComparingLong(t -> t[1]).thenComparingLong(t -> t[2]));
    List<long[]> byPosition = new ArrayList<>(triples);
    byPosition.sort(Comparator.comparingLong(t -> ArrivalPosition.fanOut(ArrivalPosition.of((int) t[0], t[1]), (int) t[2])));
    assertThat(byPosition).containsExactlyElementsOf(byTriple);
  }
}
