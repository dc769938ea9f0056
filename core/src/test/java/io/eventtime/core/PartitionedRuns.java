package io.eventtime.core;

import java.util.ArrayList;
import java.util.List;

/**
 * Runs a {@link PartitionedWindowProcessor} over one interleaving of its partitions' rows and
 * records everything it gives: the window rows in emission order, the late rows with their
 * partition, position and reason, and the stats.
 */
final class PartitionedRuns {
  private PartitionedRuns() {}

  /** One row of a partition: its key, its event time (null: no usable time, rejected) and its inputs. */
  record Row(Key key, Long ts, Object[] inputs) {
    static Row at(long ts) {
      return new Row(Key.GLOBAL, ts, new Object[] {null});
    }
  }

  /** A late row: its partition, its position in the partition and the reason. */
  record Late(int partition, int position, String reason) {
    @Override
    public String toString() {
      return "P" + partition + "#" + position + ": " + reason;
    }
  }

  /** What a run gave. */
  record Run(List<WindowResult> windows, List<Late> late, Stats stats) {}

  /**
   * Feeds the partitions' rows in the order {@code order} names (each entry a partition: its next
   * row), then finishes the run. {@code afterEach}, when not null, is told after each row.
   */
  static Run run(WindowQuery query, List<List<Row>> partitions, int[] order, Observer afterEach) {
    List<WindowResult> windows = new ArrayList<>();
    List<Late> late = new ArrayList<>();
    PartitionedWindowProcessor p = new PartitionedWindowProcessor(query, partitions.size(), windows::add);
    int[] next = new int[partitions.size()];
    for (int partition : order) {
      int position = next[partition]++;
      take(p, partition, position, partitions.get(partition).get(position), late);
      if (afterEach != null) {
        afterEach.taken(partition, position, p, windows);
      }
    }
    for (int partition = 0; partition < next.length; partition++) {
      if (next[partition] != partitions.get(partition).size()) {
        throw new IllegalArgumentException("the order takes " + next[partition] + " rows of partition " + partition
            + ", which has " + partitions.get(partition).size());
      }
    }
    p.finish();
    return new Run(windows, late, p.stats());
  }

  /** Hands {@code row}, the row at {@code position} of {@code partition}, to {@code p}; a late row goes to {@code late}. */
  static void take(PartitionedWindowProcessor p, int partition, int position, Row row, List<Late> late) {
    if (row.ts() == null) {
      p.reject(partition);
    } else if (!p.process(partition, row.key(), row.ts(), row.inputs())) {
      late.add(new Late(partition, position, p.lateReason(partition, row.ts())));
    }
  }

  static Run run(WindowQuery query, List<List<Row>> partitions, int[] order) {
    return run(query, partitions, order, null);
  }

  /** Sees the processor after each row. */
  @FunctionalInterface
  interface Observer {
    void taken(int partition, int position, PartitionedWindowProcessor processor, List<WindowResult> emitted);
  }

  /** The order that takes every row of partition 0, then of 1, and so on. */
  static int[] oneAfterAnother(List<List<Row>> partitions) {
    List<Integer> order = new ArrayList<>();
    for (int p = 0; p < partitions.size(); p++) {
      for (int i = 0; i < partitions.get(p).size(); i++) {
        order.add(p);
      }
    }
    return order.stream().mapToInt(Integer::intValue).toArray();
  }

  /** A window row as start|end|values, times as TimeText, the key first when there is one. */
  static String text(WindowResult r) {
    StringBuilder b = new StringBuilder();
    if (r.key().size() > 0) {
      b.append(r.key().values()).append('|');
    }
    b.append(TimeText.format(r.start())).append('|').append(TimeText.format(r.end()));
    for (Object v : r.values()) {
      b.append('|').append(v);
    }
    return b.toString();
  }

  static List<String> texts(List<WindowResult> windows) {
    return windows.stream().map(PartitionedRuns::text).toList();
  }
}
