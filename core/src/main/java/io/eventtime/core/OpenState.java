package io.eventtime.core;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a run hands on to the next one instead of emitting: for each partition of the stream, in
 * partition order, the latest event time seen (its watermark is that less the delay), its idle
 * watermark, its next arrival position and where reading goes on; every window still open with
 * its partial aggregates, each a part held by one partition; with sessions over several
 * partitions, the <b>waiting</b> sessions: partition sessions that their partition's watermark has
 * closed but that are not emitted yet, since the stream's watermark has not closed them or another
 * partition's open session could still join them (docs/design/live-streams.md 1.4), in the order
 * their partitions closed them; and the committed length of each output file, by path, in path
 * order. For a session, {@code end} is its last event time plus the gap.
 *
 * <p>A bounded replay is one partition, {@code "0"}: {@link #maxEventTime()} and
 * {@link #nextArrival()} are its values, and {@link #OpenState(Long, long, List)} builds such a
 * state.
 */
public record OpenState(List<Partition> partitions, List<OpenWindow> windows, List<OpenWindow> waiting,
    Map<String, Long> outputs) {

  /** The id of the one partition of a bounded replay, and of a version-1 state file. */
  public static final String FIRST_PARTITION = "0";

  public OpenState {
    if (partitions.isEmpty()) {
      throw new IllegalArgumentException("a state holds at least one partition");
    }
    partitions = List.copyOf(partitions);
    windows = List.copyOf(windows);
    waiting = List.copyOf(waiting);
    outputs = Collections.unmodifiableSortedMap(new TreeMap<>(outputs));
  }

  /** A state with no waiting session. */
  public OpenState(List<Partition> partitions, List<OpenWindow> windows, Map<String, Long> outputs) {
    this(partitions, windows, List.of(), outputs);
  }

  /** The state of one partition, {@code "0"}, with no position and no outputs. */
  public OpenState(Long maxEventTime, long nextArrival, List<OpenWindow> windows) {
    this(List.of(new Partition(FIRST_PARTITION, maxEventTime, null, nextArrival, null)), windows, Map.of());
  }

  /** The state before any run: no watermark and no windows. */
  public static OpenState empty() {
    return new OpenState(null, 0, List.of());
  }

  /** The latest event time seen in the one partition of this state, or null before its first row. */
  public Long maxEventTime() {
    return onlyPartition("max_event_time").maxEventTime();
  }

  /** The next arrival position of the one partition of this state. */
  public long nextArrival() {
    return onlyPartition("next_arrival").nextArrival();
  }

  /** This state with {@code position} as where reading partition number {@code partition} (its index) goes on. */
  public OpenState withPosition(int partition, Position position) {
    List<Partition> changed = new ArrayList<>(partitions);
    Partition p = changed.get(partition);
    changed.set(partition, new Partition(p.id(), p.maxEventTime(), p.idleWatermark(), p.nextArrival(), position));
    return new OpenState(changed, windows, waiting, outputs);
  }

  /** This state with {@code committed}, the length in bytes of each output file by its path, as its outputs. */
  public OpenState withOutputs(Map<String, Long> committed) {
    return new OpenState(partitions, windows, waiting, committed);
  }

  private Partition onlyPartition(String what) {
    if (partitions.size() != 1) {
      throw new IllegalStateException("this state holds " + partitions.size() + " partitions, each with its own "
          + what + ": it is for a stream of as many partitions, not for a run of one");
    }
    return partitions.get(0);
  }

  /**
   * One partition's part of the state: its id, the latest event time of its rows (null before
   * its first row), the watermark an idle timeout moved it to (null when none did), the arrival
   * position of its next row, and where reading it goes on (null when the source cannot go back
   * to a position, such as standard input, or the run does not say).
   */
  public record Partition(String id, Long maxEventTime, Long idleWatermark, long nextArrival, Position position)
      implements Serializable {
    public Partition {
      if (id == null || id.isEmpty()) {
        throw new IllegalArgumentException("a partition needs a non-empty id");
      }
      if (nextArrival < 0) {
        throw new IllegalArgumentException("partition " + id + ": the next arrival must not be negative, got "
            + nextArrival);
      }
    }
  }

  /** Where reading a partition goes on. */
  public sealed interface Position extends Serializable {}

  /** A Kafka partition: the offset of the next record to read. */
  public record NextOffset(long nextOffset) implements Position {
    public NextOffset {
      if (nextOffset < 0) {
        throw new IllegalArgumentException("an offset must not be negative, got " + nextOffset);
      }
    }
  }

  /**
   * A file being followed: the file, the number of the next line to read (from 1) and the byte
   * offset in the file where that line starts.
   */
  public record FileLine(String file, long line, long byteOffset) implements Position {
    public FileLine {
      if (file == null || file.isEmpty() || line < 1 || byteOffset < 0) {
        throw new IllegalArgumentException("a file position needs a file, a line from 1 and a byte offset from 0, got "
            + file + ", line " + line + ", byte " + byteOffset);
      }
    }
  }

  /** One open window of one key, the part of it that partition {@code partition} (its id) holds. */
  public record OpenWindow(Key key, long start, long end, Accumulator[] accumulators, String partition)
      implements Serializable {

    /** A window of partition {@code "0"}, the one partition of a bounded replay. */
    public OpenWindow(Key key, long start, long end, Accumulator[] accumulators) {
      this(key, start, end, accumulators, FIRST_PARTITION);
    }

    /** The same window, held by partition {@code id}. */
    public OpenWindow inPartition(String id) {
      return new OpenWindow(key, start, end, accumulators, id);
    }
  }
}
