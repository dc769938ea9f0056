package io.eventtime.hop.beam;

import io.eventtime.core.ArrivalPosition;

/**
 * The arrival positions of translated rows: numbers that order the rows the way Hop's local
 * engine passes them along, so that a window downstream decides lateness and a file is written
 * in the same order on every runner.
 *
 * <ul>
 *   <li>Event File Input: the core's {@link ArrivalPosition#of}: the file's index in name order
 *       above {@value ArrivalPosition#LINE_BITS} bits of line number.
 *   <li>Event Kafka Input: the record's offset in its partition (the partition is a field of the
 *       row: an Event Time Window orders each partition's rows apart), taken as {@value #OFFSET_BITS} bits.
 *   <li>Event Time Window: each window row's rank in close order (window end, start, keys), on a
 *       live stream too: 0, 1, ... with no gap ({@link HopStream#ranked}).
 *   <li>Other Hop transforms: the core's {@link ArrivalPosition#fanOut}: the input row's position
 *       shifted by {@value ArrivalPosition#FAN_OUT_BITS} bits, plus the index of each row it gave
 *       for that input row.
 *   <li>Several inputs flattened: the input's index (in the order of the hops) above the widest
 *       input's positions: the rows of the first hop, then of the second.
 * </ul>
 *
 * A stream knows how many bits its positions take ({@code width}) and by how many bits
 * consecutive rows are spread apart ({@code spread}), so that the translation refuses a
 * pipeline whose positions would not fit in {@value #MAX_BITS} bits, and a window groups as many
 * rows per block whatever the spread.
 */
final class Arrivals {
  static final int RANK_BITS = 36;
  /** Kafka offsets: 2^48 records of one partition, room left for the transforms after the input. */
  static final int OFFSET_BITS = 48;
  static final int MAX_BITS = 62;

  private Arrivals() {}

  static long flattened(int input, int widthBits, long position) {
    return ((long) input << widthBits) | position;
  }

  /** Bits to number {@code n} things (0 for one). */
  static int bitsFor(long n) {
    return n <= 1 ? 0 : 64 - Long.numberOfLeadingZeros(n - 1);
  }
}
