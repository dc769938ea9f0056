package io.eventtime.beam;

import io.eventtime.core.OpenState;
import io.eventtime.core.WindowQuery;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The state a live run with {@link EventTimeWindow#withState} goes on from, and how it hands its
 * own on (docs/design/live-streams.md 3.3 step 5): the state file's format, read when the pipeline
 * is built as the bounded path reads it, split here by key bucket so that each bucket's
 * {@code PartitionedWindowProcessor} resumes from its keys' windows with every partition's
 * watermark; at the end of the input the buckets' held states are joined back into one
 * ({@link #handedOn}).
 *
 * <p>Positions: a row's arrival field is its position in its partition (a Kafka offset). The
 * state hands on each partition's next position ({@code {"next_offset": last + 1}}) and, like the
 * bounded path, numbers the rows of the next run on after the stored {@code next_arrival}. A row
 * of the next run at a position below its partition's stored one was taken in by the run that
 * stored the state: it is rejected with that reason ({@link #takenInAlready}), never counted twice.
 */
final class LiveState implements Serializable {
  private final String handoff;
  private final List<String> ids;
  /** Each partition's place, watermark and next arrival as the state holds them, without positions. */
  private final List<OpenState.Partition> partitions;
  /** Where each partition's reading went on when the state was stored, null where it does not say. */
  private final OpenState.Position[] positions;
  /** Each key bucket's part of the stored windows and waiting sessions, encoded with {@link OpenStateCoder}. */
  private final byte[][] bucketParts;

  private LiveState(String handoff, List<String> ids, List<OpenState.Partition> partitions,
      OpenState.Position[] positions, byte[][] bucketParts) {
    this.handoff = handoff;
    this.ids = ids;
    this.partitions = partitions;
    this.positions = positions;
    this.bucketParts = bucketParts;
  }

  /**
   * The live run's view of {@code restored} (the state as the previous run left it, or the empty
   * state before the first), handing on to {@code handoff}. Refuses, before the run, a state of
   * other partitions than this run's.
   */
  static LiveState of(WindowPlan plan, LivePartitions live, OpenState restored, String handoff, int buckets) {
    List<String> ids = live.names();
    List<OpenState.Partition> parts = new ArrayList<>();
    OpenState.Position[] positions = new OpenState.Position[ids.size()];
    if (restored.equals(OpenState.empty())) {
      ids.forEach(id -> parts.add(new OpenState.Partition(id, null, null, 0, null)));
    } else {
      List<String> stored = restored.partitions().stream().map(OpenState.Partition::id).toList();
      if (!stored.equals(ids)) {
        throw new IllegalArgumentException("the state holds the partitions " + String.join(", ", stored)
            + " and this run reads " + String.join(", ", ids) + " (withPartitions): a live run goes on from a state"
            + " of the same partitions, in the same order; give a stream of other partitions its own state");
      }
      for (int p = 0; p < ids.size(); p++) {
        OpenState.Partition s = restored.partitions().get(p);
        parts.add(new OpenState.Partition(s.id(), s.maxEventTime(), s.idleWatermark(), s.nextArrival(), null));
        positions[p] = s.position();
      }
    }
    List<List<OpenState.OpenWindow>> windows = new ArrayList<>();
    List<List<OpenState.OpenWindow>> waiting = new ArrayList<>();
    for (int b = 0; b < buckets; b++) {
      windows.add(new ArrayList<>());
      waiting.add(new ArrayList<>());
    }
    restored.windows().forEach(w -> windows.get(bucketOf(w, buckets)).add(w));
    restored.waiting().forEach(w -> waiting.get(bucketOf(w, buckets)).add(w));
    OpenStateCoder coder = OpenStateCoder.of(plan.query.aggregates());
    byte[][] encoded = new byte[buckets][];
    for (int b = 0; b < buckets; b++) {
      encoded[b] = encode(coder, new OpenState(parts, windows.get(b), waiting.get(b), Map.of()));
    }
    return new LiveState(handoff, List.copyOf(ids), List.copyOf(parts), positions, encoded);
  }

  /** The key bucket of a stored window: that of its key's rows ({@code OrderPartitionFn}). */
  private static int bucketOf(OpenState.OpenWindow w, int buckets) {
    return w.key().hashCode() & (buckets - 1);
  }

  /** Where the run writes the state it hands on (a Beam file system resource). */
  String handoff() {
    return handoff;
  }

  /** The state bucket {@code bucket} starts from: every partition's watermark and next arrival, its keys' windows. */
  OpenState bucketPart(int bucket, OpenStateCoder coder) {
    try {
      return coder.decode(new ByteArrayInputStream(bucketParts[bucket]));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Partition {@code partition}'s (its place) latest event time in the state, null before its first row. */
  Long maxEventTime(int partition) {
    return partitions.get(partition).maxEventTime();
  }

  /** The watermark an idle timeout had moved partition {@code partition} to, null when none had. */
  Long idleWatermark(int partition) {
    return partitions.get(partition).idleWatermark();
  }

  /**
   * Why a row of partition {@code partition} (its place) at {@code position} is not taken in: the
   * run that stored the state read that partition up to a later position. Null when it is new.
   */
  String takenInAlready(int partition, long position) {
    if (!(positions[partition] instanceof OpenState.NextOffset next) || position >= next.nextOffset()) {
      return null;
    }
    return "the run that stored the state took this partition in up to position " + (next.nextOffset() - 1)
        + " (the state goes on at " + next.nextOffset() + "), so this row is in it already: read each partition on"
        + " from the state's positions";
  }

  /**
   * The state the run hands on, from every bucket's held state: each partition's latest event
   * time (every bucket heard each of its watermark steps, so they agree), its idle watermark while
   * it is the partition's watermark, its next arrival (the stored one and every row the buckets
   * took in this run) and its next position (one past the last row's; the stored one when the
   * partition sent no row); every window in close order (end, start, key, then partition order,
   * as the core's {@code hold()}), the waiting sessions bucket by bucket (their order matters only
   * within a key, which one bucket holds).
   */
  OpenState handedOn(WindowQuery query, List<HeldBucket> held) {
    List<HeldBucket> buckets = new ArrayList<>(held);
    buckets.sort(Comparator.comparingInt(HeldBucket::bucket));
    List<OpenState.Partition> out = new ArrayList<>();
    for (int p = 0; p < ids.size(); p++) {
      OpenState.Partition stored = partitions.get(p);
      Long max = null;
      Long idle = null;
      long next = stored.nextArrival();
      long lastPosition = Long.MIN_VALUE;
      for (HeldBucket b : buckets) {
        OpenState.Partition part = b.state().partitions().get(p);
        if (part.maxEventTime() != null && (max == null || part.maxEventTime() > max)) {
          max = part.maxEventTime();
        }
        if (part.idleWatermark() != null && (idle == null || part.idleWatermark() > idle)) {
          idle = part.idleWatermark();
        }
        next += part.nextArrival() - stored.nextArrival();
        lastPosition = Math.max(lastPosition, b.lastPositions().get(p));
      }
      // the idle advance is held as a later maximum too: it is still the watermark while they agree
      if (idle != null && (max == null || max - query.delayMillis() != idle)) {
        idle = null;
      }
      OpenState.Position position = lastPosition < -1 || lastPosition == Long.MAX_VALUE
          ? positions[p] : new OpenState.NextOffset(lastPosition + 1);
      out.add(new OpenState.Partition(ids.get(p), max, idle, next, position));
    }
    List<OpenState.OpenWindow> windows = new ArrayList<>();
    List<OpenState.OpenWindow> waiting = new ArrayList<>();
    for (HeldBucket b : buckets) {
      windows.addAll(b.state().windows());
      waiting.addAll(b.state().waiting());
    }
    windows.sort(Comparator.comparingLong(OpenState.OpenWindow::end).thenComparingLong(OpenState.OpenWindow::start)
        .thenComparing(OpenState.OpenWindow::key).thenComparingInt(w -> ids.indexOf(w.partition())));
    return new OpenState(out, windows, waiting, Map.of());
  }

  private static byte[] encode(OpenStateCoder coder, OpenState state) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try {
      coder.encode(state, bytes);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }
}
