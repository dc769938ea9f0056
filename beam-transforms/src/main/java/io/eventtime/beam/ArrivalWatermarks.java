package io.eventtime.beam;

import io.eventtime.core.Watermark;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The watermark before each row, worked out from arrival positions and event times: core's
 * {@link Watermark#after} of the latest event time of the rows that arrived before it. The
 * {@link WatermarkIndex} gives the latest time before each block; within a group of consecutive
 * blocks the rows' own positions and times give the rest, so each group is settled apart.
 */
final class ArrivalWatermarks {
  /**
   * Rows whose exact watermark is needed (sessions: all; grid windows: those their block's bounds
   * leave undecided) are settled in groups of 2^6 consecutive blocks: few groups, each of many
   * rows, as a runner handles them best.
   */
  private static final int GROUP_BITS = 6;

  private ArrivalWatermarks() {}

  /** The group of blocks that {@code block} belongs to. */
  static long groupOfBlock(long block) {
    return block >> GROUP_BITS;
  }

  /** The first block of {@code group}. */
  static long firstBlock(long group) {
    return group << GROUP_BITS;
  }

  /**
   * The rows of one group of blocks in arrival order, each with the watermark before it;
   * {@code maxBefore} is the latest event time before the group.
   */
  static List<ArrivedRow> inArrivalOrder(Iterable<ArrivedRow> rows, long maxBefore, long delay) {
    List<ArrivedRow> sorted = new ArrayList<>();
    rows.forEach(sorted::add);
    sorted.sort(Comparator.comparingLong(r -> r.position));
    long max = maxBefore;
    for (int i = 0; i < sorted.size(); i++) {
      ArrivedRow r = sorted.get(i);
      sorted.set(i, r.withWatermark(Watermark.after(max, delay)));
      max = Math.max(max, r.eventTime);
    }
    return sorted;
  }

  /**
   * The watermark before each of {@code rows} (sorted by position), from the times of all rows
   * of their group of blocks and the latest time before the group.
   */
  static long[] exact(List<ArrivedRow> rows, Iterable<ArrivalTimes> groupTimes, long maxBefore, long delay) {
    long[] positions = rows.stream().mapToLong(r -> r.position).toArray();
    // latestIn[k]: the latest time of the rows that arrived after k of the given rows, before the next
    long[] latestIn = new long[positions.length + 1];
    Arrays.fill(latestIn, ArrivedRow.NO_WATERMARK);
    for (ArrivalTimes times : groupTimes) {
      for (int i = 0; i < times.size(); i++) {
        int k = rowsAtOrBefore(positions, times.position(i));
        latestIn[k] = Math.max(latestIn[k], times.time(i));
      }
    }
    long[] watermarks = new long[positions.length];
    long max = maxBefore;
    for (int i = 0; i < positions.length; i++) {
      max = Math.max(max, latestIn[i]);
      watermarks[i] = Watermark.after(max, delay);
    }
    return watermarks;
  }

  /** How many of the sorted {@code positions} are at or before {@code position}. */
  private static int rowsAtOrBefore(long[] positions, long position) {
    int low = 0;
    int high = positions.length;
    while (low < high) {
      int mid = (low + high) >>> 1;
      if (positions[mid] <= position) {
        low = mid + 1;
      } else {
        high = mid;
      }
    }
    return low;
  }

  /** Fails the run when two of the rows, given by their group's positions and times, have one arrival position. */
  static void requireDistinctPositions(WindowPlan plan, Iterable<ArrivalTimes> groupTimes) {
    int n = 0;
    for (ArrivalTimes times : groupTimes) {
      n += times.size();
    }
    long[] positions = new long[n];
    int i = 0;
    for (ArrivalTimes times : groupTimes) {
      for (int j = 0; j < times.size(); j++) {
        positions[i++] = times.position(j);
      }
    }
    Arrays.sort(positions);
    for (i = 1; i < n; i++) {
      if (positions[i] == positions[i - 1]) {
        throw collision(plan, positions[i]);
      }
    }
  }

  /** Fails the run when two of {@code sorted} (in arrival order) have one arrival position. */
  static void requireDistinctSorted(WindowPlan plan, List<ArrivedRow> sorted) {
    for (int i = 1; i < sorted.size(); i++) {
      if (sorted.get(i).position == sorted.get(i - 1).position) {
        throw collision(plan, sorted.get(i).position);
      }
    }
  }

  /**
   * Two rows with one arrival position: the order of arrival, and so lateness, is not known. It
   * comes of several sources read apart (each numbering its rows from the start) and put together.
   */
  private static IllegalArgumentException collision(WindowPlan plan, long position) {
    return new IllegalArgumentException("two rows have the same arrival position (" + plan.where(position) + "), so the"
        + " order in which they arrived, which decides what is late, is not known: each row needs its own position."
        + " To read several files as one stream, read them with one NdjsonIO.read of a pattern that matches them all"
        + " (a glob such as \"events-*.ndjson\", or more patterns added with .and(...)) or one"
        + " ArrivalPositions.ofLines, rather than flattening several reads; rows of another source need positions"
        + " that go on where the others end");
  }
}
