package io.eventtime.hop.window;

import io.eventtime.core.RecentKeys;
import io.eventtime.core.PartitionedWindowProcessor;
import io.eventtime.core.Stats;
import io.eventtime.core.state.StateStore;
import io.eventtime.core.OpenState;
import io.eventtime.hop.CommittedFile;
import io.eventtime.hop.fileinput.LineStarts;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledExecutorService;
import org.apache.hop.core.IRowSet;
import org.apache.hop.core.row.IRowMeta;
import org.apache.hop.core.row.IValueMeta;
import org.apache.hop.pipeline.transform.BaseTransformData;
import org.apache.hop.pipeline.transform.ITransformData;

/**
 * The running state of one Event Time Window transform: the core processor and its open windows
 * (one partition without a partition field).
 */
public class EventTimeWindowData extends BaseTransformData implements ITransformData {
  WindowSettings settings;
  PartitionedWindowProcessor processor;
  IRowMeta outputRowMeta;
  IValueMeta timeMeta;
  IValueMeta partitionMeta;
  IValueMeta offsetMeta;
  IValueMeta[] keyMetas;
  /** A row's key values, in canonical form: filled for each row, a key made only for values not seen lately. */
  Object[] keyValues;
  final RecentKeys recentKeys = new RecentKeys();
  IValueMeta[] inputMetas;

  /** Where late rows go, taken out of the main outputs; null to count and log them only. */
  IRowSet lateRowSet;
  IRowMeta lateRowMeta;
  long lateToTarget;

  /** The state carried between runs, when a state folder is set; its new state once staged. */
  StateStore store;
  StateStore.Staged staged;

  /**
   * With a partition field and a state folder (a live run, design 4.2): the next offset of each
   * partition after the last row taken in (-1 for none yet), what the state loaded at the start
   * holds, the files committed with the state (the window rows' and the late rows'), the rows sent
   * to each, and when the last commit was.
   */
  boolean live;
  long[] nextOffsets;
  Map<Integer, Long> storedOffsets = Map.of();
  Map<String, Long> storedOutputs = Map.of();
  List<CommittedFile> windowFiles = List.of();
  List<CommittedFile> lateFiles = List.of();
  /**
   * After an Event File Input that follows its files (a live run too): the fields that give each
   * row's file and line, the last row's taken in, the position the state loaded at the start holds,
   * and where the lines start (the byte the state stores with the next line).
   */
  FollowedFields followed;
  String followedFile;
  long followedLine;
  OpenState.FileLine storedFollowPosition;
  /** The position the next commit stores: after the last row taken in, else the stored one. */
  OpenState.FileLine followPosition;
  LineStarts lineStarts;
  long windowRowsSent;
  long windowRowsAtCommit;
  long lastCommitNanos;
  boolean uncommitted;
  /** The stats of the processors a commit handed on from. */
  Stats before = new Stats(0, 0, 0, 0, 0, 0);
  volatile boolean emittingDone;
  /** After a stop: until when rows are handed on through the hops. */
  long stopDeadline;
  Thread stopOnShutdown;
  final CountDownLatch stopped = new CountDownLatch(1);

  /** The processor is shared with the idle watch: both hold this lock while they use it. */
  final Object lock = new Object();
  ScheduledExecutorService idleWatch;
  /** With an idle timeout: the wall time (epoch ms) at which each partition next counts as idle, unless a row comes. */
  long[] idleDueAt;
  boolean finished;

  /** The file name and line number fields of a followed input, and where they are in the rows. */
  record FollowedFields(String file, String line, int fileIndex, int lineIndex, IValueMeta fileMeta,
      IValueMeta lineMeta) {}

  /** The processor, for callers that read its stats after a run. */
  public PartitionedWindowProcessor processor() {
    return processor;
  }

  /** The stats of this run: of the processor, and of those a commit handed on from in a live run. */
  public Stats stats() {
    Stats s = processor.stats();
    return new Stats(before.rowsIn() + s.rowsIn(), before.rowsOut() + s.rowsOut(),
        before.lateDropped() + s.lateDropped(), before.windowsClosed() + s.windowsClosed(),
        before.rowsFolded() + s.rowsFolded(), before.rowsRejected() + s.rowsRejected());
  }
}
