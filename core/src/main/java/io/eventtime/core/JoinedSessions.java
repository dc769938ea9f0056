package io.eventtime.core;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The sessions of a stream of several partitions (docs/design/live-streams.md 1.4), between the
 * partitions' own sessions and the sessions emitted. Each partition forms its <b>partition
 * sessions</b> alone, in its own {@link OpenSessionWindows} at its own watermark; once its
 * watermark closes one, it comes here. Here partition sessions of one key from <b>different</b>
 * partitions that overlap or lie at most one gap apart are one session, joined transitively; two
 * of the same partition are joined only through another partition's. A joined session is emitted
 * once the stream's watermark has closed it and no partition still holds an open session of the
 * key that starts at most one gap after the last event time of the joined session's parts from the
 * other partitions (that session would join it). Sessions leave in close order: one that waits
 * holds back every session, of any key, that closes after it. A run stopped with its state hands
 * the partition sessions waiting here on ({@link #held}, the state's {@code waiting}); the next
 * run takes them back through {@link #add}, in the same order.
 */
final class JoinedSessions {

  /** One partition session, closed in its partition: the {@code seq}-th handed here. */
  private record Part(int partition, long seq, long start, long last, Accumulator[] accumulators) {}

  /** Partition sessions joined into one session of one key. */
  private static final class Joined {
    final Key key;
    final long start;
    final long last;
    final List<Part> parts;

    Joined(Key key, List<Part> parts) {
      this.key = key;
      this.parts = parts;
      this.start = parts.stream().mapToLong(Part::start).min().orElseThrow();
      this.last = parts.stream().mapToLong(Part::last).max().orElseThrow();
    }
  }

  private static final Comparator<Joined> CLOSE_ORDER = Comparator.<Joined>comparingLong(j -> j.last)
      .thenComparingLong(j -> j.start)
      .thenComparing(j -> j.key);

  private final WindowSpec.Session spec;
  private final Aggregates aggregates;
  private final OpenSessionWindows[] partitions;
  private final Map<Key, List<Joined>> byKey = new HashMap<>();
  private final TreeSet<Joined> byEnd = new TreeSet<>(CLOSE_ORDER);
  private long handed;
  private int parts;

  /** The joined sessions of the partitions' sessions {@code partitions}, in partition order. */
  JoinedSessions(WindowSpec.Session spec, Aggregates aggregates, OpenSessionWindows[] partitions) {
    this.spec = spec;
    this.aggregates = aggregates;
    this.partitions = partitions;
  }

  /** Takes a session that {@code partition}'s watermark has closed: {@link OpenWindows.Closed}'s arguments. */
  void add(int partition, Key key, long start, long end, Accumulator[] accumulators) {
    Part part = new Part(partition, handed++, start, end - spec.gapMillis(), accumulators);
    parts++;
    List<Joined> ofKey = byKey.computeIfAbsent(key, k -> new ArrayList<>());
    List<Part> joinedParts = new ArrayList<>();
    joinedParts.add(part);
    for (var it = ofKey.iterator(); it.hasNext(); ) {
      Joined j = it.next();
      if (touches(j, part)) {
        it.remove();
        byEnd.remove(j);
        joinedParts.addAll(j.parts);
      }
    }
    Joined joined = new Joined(key, joinedParts);
    ofKey.add(joined);
    byEnd.add(joined);
  }

  /**
   * Emits, in close order, the joined sessions that the stream's watermark {@code watermark}
   * closes and no partition's open session could still join; every one at {@link Long#MAX_VALUE}.
   */
  void closeUpTo(long watermark, OpenWindows.Closed closed) {
    while (!byEnd.isEmpty()) {
      Joined j = byEnd.first();
      long end = j.last + spec.gapMillis();
      if (watermark != Long.MAX_VALUE && (!spec.isClosed(end, watermark) || awaited(j))) {
        break;
      }
      byEnd.pollFirst();
      List<Joined> ofKey = byKey.get(j.key);
      ofKey.remove(j);
      if (ofKey.isEmpty()) {
        byKey.remove(j.key);
      }
      parts -= j.parts.size();
      closed.window(j.key, j.start, end, merged(j));
    }
  }

  /**
   * The partition sessions that wait here, in the order they were handed here, each labelled
   * with its partition's id in {@code partitionIds}: what {@link #add} takes back, in that order,
   * to rebuild these joined sessions (a joined session is the connected parts, whatever the order).
   */
  List<OpenState.OpenWindow> held(String[] partitionIds) {
    List<Map.Entry<Part, Key>> all = new ArrayList<>();
    byKey.forEach((key, joinedOfKey) -> joinedOfKey.forEach(j -> j.parts.forEach(p -> all.add(Map.entry(p, key)))));
    all.sort(Comparator.comparingLong(e -> e.getKey().seq()));
    List<OpenState.OpenWindow> held = new ArrayList<>(all.size());
    for (Map.Entry<Part, Key> e : all) {
      Part p = e.getKey();
      held.add(new OpenState.OpenWindow(e.getValue(), p.start(), p.last() + spec.gapMillis(), p.accumulators(),
          partitionIds[p.partition()]));
    }
    return held;
  }

  /**
   * The earliest-handed part of the joined session that {@link #closeUpTo} at {@code watermark}
   * would emit first (its place among the sessions handed here), or -1 when it would emit none:
   * sessions restored from a state must not include one the run that held them would have emitted.
   */
  long firstDue(long watermark) {
    if (byEnd.isEmpty()) {
      return -1;
    }
    Joined j = byEnd.first();
    if (!spec.isClosed(j.last + spec.gapMillis(), watermark) || awaited(j)) {
      return -1;
    }
    return j.parts.stream().mapToLong(Part::seq).min().orElseThrow();
  }

  /** How many partition sessions wait here to be emitted. */
  int count() {
    return parts;
  }

  /** Whether a partition session of another partition than {@code part}'s overlaps it or lies at most a gap away. */
  private boolean touches(Joined j, Part part) {
    long gap = spec.gapMillis();
    for (Part p : j.parts) {
      if (p.partition != part.partition && part.start <= p.last + gap && p.start <= part.last + gap) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether a partition holds an open session of the key that could still join {@code j}: one
   * that starts at most a gap after the latest part of {@code j} from another partition. (An open
   * session ends after the stream's watermark, so after every part's end: starting early enough is
   * all it takes.)
   */
  private boolean awaited(Joined j) {
    for (int q = 0; q < partitions.length; q++) {
      Long start = partitions[q].earliestOpenStart(j.key);
      if (start == null) {
        continue;
      }
      long lastOther = Long.MIN_VALUE;
      for (Part p : j.parts) {
        if (p.partition != q) {
          lastOther = Math.max(lastOther, p.last);
        }
      }
      if (lastOther != Long.MIN_VALUE && start <= lastOther + spec.gapMillis()) {
        return true;
      }
    }
    return false;
  }

  /**
   * The joined session's accumulators: each partition's parts merged in the order its watermark
   * closed them, then the partitions' merged in partition order, so that the result does not
   * depend on how the partitions interleaved.
   */
  private Accumulator[] merged(Joined j) {
    List<Part> ordered = new ArrayList<>(j.parts);
    ordered.sort(Comparator.comparingInt(Part::partition).thenComparingLong(Part::seq));
    List<Accumulator[]> byPartition = new ArrayList<>();
    int partition = -1;
    for (Part p : ordered) {
      if (p.partition == partition) {
        aggregates.merge(byPartition.get(byPartition.size() - 1), p.accumulators);
      } else {
        byPartition.add(p.accumulators);
        partition = p.partition;
      }
    }
    Accumulator[] all = byPartition.get(0);
    for (int i = 1; i < byPartition.size(); i++) {
      aggregates.mergeAcrossPartitions(all, byPartition.get(i));
    }
    return all;
  }
}
