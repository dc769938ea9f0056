package io.eventtime.hop.window;

import io.eventtime.core.EventTimeException;
import io.eventtime.core.Key;
import io.eventtime.core.Values;
import io.eventtime.core.OpenState;
import io.eventtime.core.PartitionedWindowProcessor;
import io.eventtime.core.WindowResult;
import io.eventtime.core.follow.FollowedFiles;
import io.eventtime.core.state.StateException;
import io.eventtime.core.state.CommittedOutputs;
import io.eventtime.core.state.StateSource;
import io.eventtime.core.state.StateStore;
import io.eventtime.hop.CommittedFile;
import io.eventtime.hop.Engines;
import io.eventtime.hop.ErrorCodes;
import io.eventtime.hop.HopValues;
import io.eventtime.hop.PipelineGraph;
import io.eventtime.hop.Settings;
import io.eventtime.hop.SharedState;
import io.eventtime.hop.StateSourceMeta;
import io.eventtime.hop.fileinput.EventFileInputMeta;
import io.eventtime.hop.fileinput.LineStarts;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.hop.core.IRowSet;
import org.apache.hop.core.exception.HopException;
import org.apache.hop.core.exception.HopTransformException;
import org.apache.hop.core.exception.HopValueException;
import org.apache.hop.core.row.IRowMeta;
import org.apache.hop.core.row.IValueMeta;
import org.apache.hop.core.row.RowDataUtil;
import org.apache.hop.core.row.value.ValueMetaString;
import org.apache.hop.i18n.BaseMessages;
import org.apache.hop.pipeline.Pipeline;
import org.apache.hop.pipeline.PipelineMeta;
import org.apache.hop.pipeline.engine.IPipelineEngine;
import org.apache.hop.pipeline.transform.BaseTransform;
import org.apache.hop.pipeline.transform.ITransform;
import org.apache.hop.pipeline.transform.TransformMeta;

/**
 * Event-time windows on Hop's local engine. Each row goes to the core's
 * {@link PartitionedWindowProcessor} in arrival order, in its partition when a partition field
 * is set (each partition with its own watermark, windows emitted at the least of them), else
 * all in one; a window row is sent on as soon as the watermark
 * closes its window, late rows go to the late target with the reason, and rows without a
 * readable event time go to the error handling. With a state folder, the windows still open at
 * the end are kept for the next run instead of being emitted, and the new state replaces the old
 * one only when the whole pipeline has succeeded. All the windowing is the core's.
 */
public class EventTimeWindow extends BaseTransform<EventTimeWindowMeta, EventTimeWindowData> implements SharedState {
  private static final Class<?> PKG = EventTimeWindowMeta.class;
  /** A live run commits at least this often while rows come (design 4.2). */
  private static final long COMMIT_NANOS = TimeUnit.SECONDS.toNanos(1);
  /** How long a stop waits for the rows already read upstream, and a shutdown for the state. */
  private static final long STOP_WAIT_SECONDS = 15;

  public EventTimeWindow(TransformMeta transformMeta, EventTimeWindowMeta meta, EventTimeWindowData data,
      int copyNr, PipelineMeta pipelineMeta, Pipeline pipeline) {
    super(transformMeta, meta, data, copyNr, pipelineMeta, pipeline);
  }

  @Override
  public boolean init() {
    if (!super.init() || !Engines.supportedAtInit(this, data, ON_HOPS_BEAM_ENGINES)) {
      return false;
    }
    // every setting, the input fields too where the design tells them, is checked before any row
    // is written anywhere
    IRowMeta layout = Settings.previousLayout(this);
    WindowSettings s = Settings.resolvedAtInit(this, problems -> {
      Settings.requireOneCopy(getTransformMeta(), this, EventTimeWindowMeta.copies(), problems);
      return meta.resolve(this, layout, problems);
    });
    if (s == null) {
      return false;
    }
    if (!findLateRowSet()) {
      return false;
    }
    OpenState state = OpenState.empty();
    EventFileInputMeta followedInput = s.stateFolder() != null ? followedInput() : null;
    data.live = s.stateFolder() != null && (s.partitioning().isPartitioned() || followedInput != null)
        && !getPipeline().isPreview();
    if (s.stateFolder() != null) {
      try {
        StateSource source = null;
        if (s.partitioning().isPartitioned()) {
          source = kafkaSource();
        } else if (followedInput != null) {
          source = followedInput.followedSource(this);
        }
        data.store = StateStore.open(folder(s.stateFolder()), s.query(), s.timeField(), source);
        state = data.store.load();
        int expected = s.partitioning().count();
        if (data.store.hasState() && state.partitions().size() != expected) {
          throw new IllegalArgumentException("the state holds " + state.partitions().size() + " partitions, and "
              + (s.partitioning().isPartitioned() ? "Partitions is " + expected : "a run without a partition field has"
              + " one") + ": give this run its own state folder, or set Partitions as the run that stored it had");
        }
        if (followedInput != null && !state.partitions().isEmpty()
            && state.partitions().get(0).position() instanceof OpenState.FileLine at) {
          data.storedFollowPosition = at;
        }
        if (data.live) {
          startLive(s, state, followedInput);
        }
      } catch (StateException | IllegalArgumentException e) {
        logError(Settings.refusal(getTransformName(),
            List.of(BaseMessages.getString(PKG, "EventTimeWindow.Problem.StateFolder", e.getMessage()))));
        closeStore();
        return false;
      }
      if (!data.live && !getPipeline().isPreview()) {
        getPipeline().addExecutionFinishedListener(this::commitStateIfTheRunSucceeded);
      }
    }
    data.processor = data.store != null && data.store.hasState() || !s.partitioning().isPartitioned()
        ? PartitionedWindowProcessor.resume(s.query(), this::emit, state)
        : new PartitionedWindowProcessor(s.query(), s.partitioning().count(), this::emit);
    retellIdleAdvances(state, s);
    return true;
  }

  /**
   * Tells a processor resumed from {@code held} which watermarks the idle timeout set, so that a
   * late row's reason still names it (core keeps the advance, not where it came from).
   */
  private void retellIdleAdvances(OpenState held, WindowSettings s) {
    if (held == null || s.idleTimeoutMillis() <= 0) {
      return;
    }
    for (int p = 0; p < held.partitions().size(); p++) {
      Long idle = held.partitions().get(p).idleWatermark();
      if (idle != null) {
        data.processor.advanceIdleTo(p, idle, s.idleTimeoutMillis());
      }
    }
  }

  /**
   * What the Event Kafka Input upstream reads, stored with the state; a partition field with a
   * state folder needs one, as only it starts each partition at the stored offset.
   */
  private StateSource kafkaSource() {
    for (TransformMeta t : PipelineGraph.upstream(getPipelineMeta(), getTransformMeta())) {
      if (t.getTransform() instanceof StateSourceMeta input) {
        return input.stateSource(this);
      }
    }
    throw new IllegalArgumentException(BaseMessages.getString(PKG, "EventTimeWindow.Problem.NoKafkaUpstream"));
  }

  /** The Event File Input upstream that follows its files; null when there is none. */
  private EventFileInputMeta followedInput() {
    for (TransformMeta t : PipelineGraph.upstream(getPipelineMeta(), getTransformMeta())) {
      if (t.getTransform() instanceof EventFileInputMeta input && input.isFollow()) {
        return input;
      }
    }
    return null;
  }

  /**
   * A live run: cuts the committed files back to what the state holds, takes each partition's
   * stored offset (after a followed Event File Input: the fields that give each row's file and
   * line, and the stored position), finds the Event File Outputs directly downstream whose files
   * are committed with the state, and has the JVM's shutdown (HopRun ended by a signal) stop the pipeline the way
   * HopGui's stop button does, so that the state is stored.
   */
  private void startLive(WindowSettings s, OpenState state, EventFileInputMeta followedInput) {
    CommittedOutputs.cutBack(state.outputs());
    data.storedOutputs = state.outputs();
    data.nextOffsets = new long[s.partitioning().count()];
    java.util.Arrays.fill(data.nextOffsets, -1);
    Map<Integer, Long> stored = new TreeMap<>();
    for (int p = 0; p < state.partitions().size(); p++) {
      if (state.partitions().get(p).position() instanceof OpenState.NextOffset next) {
        data.nextOffsets[p] = next.nextOffset();
        stored.put(p, next.nextOffset());
      }
    }
    data.storedOffsets = Map.copyOf(stored);
    if (followedInput != null) {
      data.followed = new EventTimeWindowData.FollowedFields(Settings.resolve(this, followedInput.getFilenameField()),
          Settings.resolve(this, followedInput.getLineNumberField()), -1, -1, null, null);
      data.followPosition = data.storedFollowPosition;
      data.lineStarts = new LineStarts();
    }
    findCommittedFiles();
    data.lastCommitNanos = System.nanoTime();
    data.stopOnShutdown = new Thread(this::stopOnShutdown, "eventtime-stop-" + getTransformName());
    Runtime.getRuntime().addShutdownHook(data.stopOnShutdown);
  }

  /**
   * The Event File Outputs on this transform's hops: the late target's file counts the late rows,
   * the others the window rows, when every window row reaches each of them (one main hop, or
   * rows copied to every hop). Any other output gets its rows at least once.
   */
  private void findCommittedFiles() {
    List<TransformMeta> next = new ArrayList<>(getPipelineMeta().findNextTransforms(getTransformMeta()));
    if (getTransformMeta().getTransformErrorMeta() != null) {
      next.remove(getTransformMeta().getTransformErrorMeta().getTargetTransform());
    }
    String lateTarget = meta.getLateTargetTransform();
    List<CommittedFile> windows = new ArrayList<>();
    List<CommittedFile> late = new ArrayList<>();
    int mainHops = 0;
    for (TransformMeta t : next) {
      boolean isLate = lateTarget != null && t.getName().equalsIgnoreCase(lateTarget);
      mainHops += isLate ? 0 : 1;
      if (PipelineGraph.running(getPipeline(), t.getName()) instanceof CommittedFile file) {
        (isLate ? late : windows).add(file);
      }
    }
    if (mainHops > 1 && getTransformMeta().isDistributes() && !windows.isEmpty()) {
      logBasic(BaseMessages.getString(PKG, "EventTimeWindow.Log.Distributed"));
      windows.clear();
    }
    windows.forEach(f -> f.commitWith(this));
    late.forEach(f -> f.commitWith(this));
    data.windowFiles = List.copyOf(windows);
    data.lateFiles = List.copyOf(late);
  }

  /** HopRun ended by a signal: stop the pipeline as HopGui's stop button does, and wait for the state. */
  private void stopOnShutdown() {
    getPipeline().stopAll();
    try {
      data.stopped.await(STOP_WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static Path folder(String name) {
    return name.startsWith("file:") ? Path.of(URI.create(name)) : Path.of(name);
  }

  /** Takes the late rows' hop out of the main outputs, so that windows never go there. */
  private boolean findLateRowSet() {
    String target = meta.getLateTargetTransform();
    if (target == null) {
      return true;
    }
    try {
      data.lateRowSet = findOutputRowSet(target);
    } catch (HopTransformException e) {
      logError(e.getMessage());
      return false;
    }
    if (data.lateRowSet == null) {
      logError(BaseMessages.getString(PKG, "EventTimeWindow.Problem.NoHopToLateTarget", getTransformName(), target));
      return false;
    }
    List<IRowSet> main = getOutputRowSets();
    main.remove(data.lateRowSet);
    setOutputRowSets(main);
    return true;
  }

  /** What would go wrong on Hop's own Beam engines, for the refusal. */
  private static final String ON_HOPS_BEAM_ENGINES =
      BaseMessages.getString(PKG, "EventTimeWindow.Problem.OnHopsBeamEngines");

  @Override
  public boolean processRow() throws HopException {
    Engines.refuseHopsOwnBeamEngines(this, data, ON_HOPS_BEAM_ENGINES);
    Object[] row = getRow();
    if (row == null) {
      if (data.live && isStopped()) {
        return false; // the stop is handled in dispose(), where Hop always comes
      }
      endOfInput();
      return false;
    }
    take(getInputRowMeta(), row);
    if (data.live) {
      commitWhenDue();
    }
    return true;
  }

  private void take(IRowMeta layout, Object[] row) throws HopException {
    if (first) {
      first = false;
      start(layout);
    }
    WindowSettings s = data.settings;
    int partition = 0;
    if (s.partitioning().isPartitioned()) {
      String why = null;
      Object value = HopValues.nativeValue(data.partitionMeta, row[s.partitioning().index()]);
      if (value == null) {
        why = "no partition: the row has no value in it";
      } else if ((Long) value < 0 || (Long) value >= s.partitioning().count()) {
        why = "partition " + value + " is not one of the " + s.partitioning().count() + " partitions 0 to "
            + (s.partitioning().count() - 1) + " set in Partitions: set Partitions to the topic's partition count";
      } else {
        partition = (int) (long) (Long) value;
      }
      if (why != null) {
        rejectForPartition(row, s.partitioning().field(), why);
        return;
      }
      if (data.live) {
        Object offset = HopValues.nativeValue(data.offsetMeta, row[s.partitioning().offsetIndex()]);
        if (offset == null || (Long) offset < 0) {
          rejectForPartition(row, s.partitioning().offsetField(), offset == null ? "no offset: the row has no value"
              + " in it, and the state records where each partition goes on from it"
              : "offset " + offset + " is negative: an offset in a partition is 0 or more");
          return;
        }
        data.nextOffsets[partition] = (Long) offset + 1;
        data.uncommitted = true;
      }
    }
    if (data.followed != null && !takeFollowedPosition(row)) {
      return;
    }
    long eventTime;
    try {
      eventTime = s.timeReader().read(HopValues.nativeValue(data.timeMeta, row[s.timeIndex()]));
    } catch (EventTimeException | HopValueException e) {
      reject(row, partition, e.getMessage());
      return;
    }
    Key key = keyOf(row);
    Object[] inputs = inputsOf(row);
    synchronized (data.lock) {
      if (data.idleDueAt != null) {
        data.idleDueAt[partition] = System.currentTimeMillis() + s.idleTimeoutMillis();
      }
      boolean folded;
      try {
        folded = data.processor.process(partition, key, eventTime, inputs);
      } catch (EmitFailed e) {
        throw e.getCause();
      }
      if (!folded) {
        late(row, data.processor.lateReason(partition, eventTime));
      }
    }
  }

  /**
   * After a followed input: notes the row's file and line, where the next commit stores the
   * following to go on from; a row without them is rejected (false).
   */
  private boolean takeFollowedPosition(Object[] row) throws HopException {
    EventTimeWindowData.FollowedFields f = data.followed;
    Object file = HopValues.nativeValue(f.fileMeta(), row[f.fileIndex()]);
    Object line = HopValues.nativeValue(f.lineMeta(), row[f.lineIndex()]);
    if (file == null || line == null || (Long) line < 1) {
      rejectForPartition(row, file == null ? f.file() : f.line(),
          BaseMessages.getString(PKG, "EventTimeWindow.Rejected.NoFollowedPosition"));
      return false;
    }
    boolean sameFile = file.equals(data.followedFile);
    if (data.followedFile != null && (sameFile ? (Long) line < data.followedLine
        : FollowedFiles.NAME_ORDER.compare(Path.of((String) file), Path.of(data.followedFile)) < 0)) {
      // the position stored is that of the last row: rows out of order would make a restart skip rows
      throw new HopException(BaseMessages.getString(PKG, "EventTimeWindow.Problem.FollowedOutOfOrder", file,
          String.valueOf(line), data.followedFile, String.valueOf(data.followedLine)));
    }
    data.followedFile = (String) file;
    data.followedLine = (Long) line;
    data.uncommitted = true;
    return true;
  }

  /**
   * On a stop, takes in the rows upstream has already read (those in the hop's buffer), so that
   * the state stored at the stop holds them and the next run does not read them again.
   */
  private void takeWhatWasRead() throws HopException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(STOP_WAIT_SECONDS);
    while (true) {
      boolean upstreamRunning = false;
      for (TransformMeta t : getPipelineMeta().findPreviousTransforms(getTransformMeta())) {
        ITransform before = PipelineGraph.running(getPipeline(), t.getName());
        upstreamRunning |= before != null && before.isRunning();
      }
      boolean took = false;
      for (IRowSet rows : getInputRowSets()) {
        for (Object[] row; (row = rows.getRowImmediate()) != null; ) {
          if (getInputRowMeta() == null) {
            setInputRowMeta(rows.getRowMeta());
          }
          take(rows.getRowMeta(), row);
          took = true;
        }
      }
      if (!upstreamRunning && !took || System.nanoTime() > deadline) {
        return;
      }
      if (!took) {
        try {
          Thread.sleep(5);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }

  /**
   * Hop's putRow drops rows once the pipeline is stopped; the rows a live run sends after a stop
   * (from the rows it takes in then) go into the hops themselves, to every one of them when the
   * rows are copied, else to the first, as the Event File Outputs there write them for the state.
   */
  private void putAfterStop(IRowMeta layout, Object[] row, List<IRowSet> rowSets) {
    List<IRowSet> targets = getTransformMeta().isDistributes() && !rowSets.isEmpty() ? rowSets.subList(0, 1)
        : rowSets;
    for (IRowSet target : targets) {
      // a stopped transform that is not an Event File Output takes no more rows: give up on it in time
      while (!target.putRowWait(layout, row, 100, TimeUnit.MILLISECONDS)) {
        if (Thread.currentThread().isInterrupted() || System.nanoTime() > data.stopDeadline) {
          return;
        }
      }
    }
    incrementLinesWritten();
  }

  /**
   * A live run commits after rows that closed windows once no more rows wait, and at least once a
   * second while rows come (design 4.2).
   */
  private void commitWhenDue() throws HopException {
    if (!data.uncommitted) {
      return;
    }
    boolean closedSome = data.windowRowsSent > data.windowRowsAtCommit;
    if (closedSome && noRowsWaiting() || System.nanoTime() - data.lastCommitNanos >= COMMIT_NANOS) {
      synchronized (data.lock) {
        commit(false);
      }
    }
  }

  private boolean noRowsWaiting() {
    for (IRowSet rows : getInputRowSets()) {
      if (rows.size() > 0) {
        return false;
      }
    }
    return true;
  }

  /**
   * Commits the open windows, each partition's next offset and the committed files' lengths once
   * they hold every row sent so far, in one atomic step of the state store; the processor goes on
   * from what it held unless this is the last commit. A file that ended without those rows
   * (failed, or stopped before it wrote them) leaves the last commit standing.
   */
  private OpenState commit(boolean last) throws HopException {
    OpenState held;
    try {
      held = data.processor.hold();
    } catch (EmitFailed e) {
      throw e.getCause();
    }
    if (last) {
      data.emittingDone = true;
    } else {
      data.before = data.stats();
      data.processor = PartitionedWindowProcessor.resume(data.settings.query(), this::emit, held);
      retellIdleAdvances(held, data.settings);
    }
    Map<String, Long> lengths = new TreeMap<>();
    if (!committedLengths(data.windowFiles, data.windowRowsSent, lengths)
        || !committedLengths(data.lateFiles, data.lateToTarget, lengths)) {
      logBasic(BaseMessages.getString(PKG, "EventTimeWindow.Log.CommitSkipped"));
      return held;
    }
    OpenState state = held.withOutputs(lengths);
    for (int p = 0; p < data.nextOffsets.length; p++) {
      if (data.nextOffsets[p] >= 0) {
        state = state.withPosition(p, new OpenState.NextOffset(data.nextOffsets[p]));
      }
    }
    if (data.followed != null) {
      state = withFollowPosition(state);
    }
    try {
      data.store.commit(state);
    } catch (StateException e) {
      throw new HopException(BaseMessages.getString(PKG, "EventTimeWindow.Problem.StateFolder", e.getMessage()), e);
    }
    data.uncommitted = false;
    data.windowRowsAtCommit = data.windowRowsSent;
    data.lastCommitNanos = System.nanoTime();
    return held;
  }

  /** The followed files' position after the last row taken in, or the stored one before any. */
  private OpenState withFollowPosition(OpenState state) throws HopException {
    if (data.followedFile != null) {
      try {
        data.followPosition = data.lineStarts.after(data.followedFile, data.followedLine);
      } catch (IOException | IllegalArgumentException e) {
        throw new HopException(BaseMessages.getString(PKG, "EventTimeWindow.Problem.StateFolder",
            BaseMessages.getString(PKG, "EventTimeWindow.Problem.FollowedPosition", data.followedFile,
                String.valueOf(data.followedLine), e.getMessage())), e);
      }
    }
    return data.followPosition == null ? state : state.withPosition(0, data.followPosition);
  }

  private static boolean committedLengths(List<CommittedFile> files, long rows, Map<String, Long> lengths) {
    for (CommittedFile f : files) {
      long length = f.lengthAfter(rows);
      if (length < 0) {
        return false;
      }
      lengths.put(f.committedPath(), length);
    }
    return true;
  }

  /** Looks the fields up in the first row's layout; a field that is not there stops the run. */
  private void start(IRowMeta input) throws HopException {
    WindowSettings s = Settings.resolvedOrRefused(getTransformName(), problems -> meta.resolve(this, input, problems));
    data.settings = s;
    data.outputRowMeta = s.outputRowMeta();
    data.timeMeta = input.getValueMeta(s.timeIndex());
    data.partitionMeta = s.partitioning().isPartitioned() ? input.getValueMeta(s.partitioning().index()) : null;
    data.offsetMeta = data.live && s.partitioning().isPartitioned()
        ? input.getValueMeta(s.partitioning().offsetIndex()) : null;
    if (data.followed != null) {
      data.followed = followedFields(input, data.followed);
    }
    data.keyMetas = new IValueMeta[s.keyIndexes().length];
    data.keyValues = new Object[data.keyMetas.length];
    for (int i = 0; i < data.keyMetas.length; i++) {
      data.keyMetas[i] = input.getValueMeta(s.keyIndexes()[i]);
    }
    data.inputMetas = new IValueMeta[s.inputIndexes().length];
    for (int i = 0; i < data.inputMetas.length; i++) {
      data.inputMetas[i] = s.inputIndexes()[i] < 0 ? null : input.getValueMeta(s.inputIndexes()[i]);
    }
    if (data.lateRowSet != null) {
      data.lateRowMeta = input.clone();
      data.lateRowMeta.addValueMeta(new ValueMetaString(s.lateReasonField()));
    }
    if (s.idleTimeoutMillis() > 0) {
      startIdleWatch(s.idleTimeoutMillis());
    }
  }

  /** Where the followed input's file name and line number fields are in the rows; a missing one stops the run. */
  private EventTimeWindowData.FollowedFields followedFields(IRowMeta input, EventTimeWindowData.FollowedFields f)
      throws HopException {
    int file = f.file() == null ? -1 : input.indexOfValue(f.file());
    int line = f.line() == null ? -1 : input.indexOfValue(f.line());
    if (file < 0 || line < 0 || input.getValueMeta(file).getType() != IValueMeta.TYPE_STRING
        || input.getValueMeta(line).getType() != IValueMeta.TYPE_INTEGER) {
      throw new HopException(Settings.refusal(getTransformName(), List.of(BaseMessages.getString(PKG,
          "EventTimeWindow.Problem.NoFollowedFields", f.file() == null ? "(none)" : f.file(),
          f.line() == null ? "(none)" : f.line()))));
    }
    return new EventTimeWindowData.FollowedFields(f.file(), f.line(), file, line, input.getValueMeta(file),
        input.getValueMeta(line));
  }

  private Key keyOf(Object[] row) throws HopValueException {
    int[] idx = data.settings.keyIndexes();
    if (idx.length == 0) {
      return Key.GLOBAL;
    }
    Object[] values = data.keyValues;
    for (int i = 0; i < idx.length; i++) {
      values[i] = Values.canonical(HopValues.nativeValue(data.keyMetas[i], row[idx[i]]));
    }
    return data.recentKeys.of(values);
  }

  private Object[] inputsOf(Object[] row) throws HopValueException {
    int[] idx = data.settings.inputIndexes();
    Object[] inputs = new Object[idx.length];
    for (int i = 0; i < idx.length; i++) {
      if (idx[i] >= 0) {
        inputs[i] = HopValues.toCore(HopValues.nativeValue(data.inputMetas[i], row[idx[i]]));
      }
    }
    return inputs;
  }

  /** Sends one closed window on; called by the processor, under the lock. */
  private void emit(WindowResult r) {
    IRowMeta out = data.outputRowMeta;
    Object[] row = RowDataUtil.allocateRowData(out.size());
    try {
      int k = r.key().size();
      for (int i = 0; i < k; i++) {
        row[i] = HopValues.toHop(r.key().get(i), out.getValueMeta(i));
      }
      row[k] = HopValues.timestamp(r.start());
      row[k + 1] = HopValues.timestamp(r.end());
      Object[] values = r.values();
      for (int i = 0; i < values.length; i++) {
        row[k + 2 + i] = HopValues.toHop(values[i], out.getValueMeta(k + 2 + i));
      }
      if (data.live && isStopped()) {
        putAfterStop(out, row, getOutputRowSets());
      } else {
        putRow(out, row);
      }
      data.windowRowsSent++;
    } catch (HopException e) {
      throw new EmitFailed(e);
    }
  }

  private void late(Object[] row, String reason) throws HopTransformException {
    if (data.lateRowSet == null) {
      if (isDetailed()) {
        logDetailed(BaseMessages.getString(PKG, "EventTimeWindow.Log.LateLeftOut", getLinesRead(), reason));
      }
      return;
    }
    IRowMeta input = getInputRowMeta();
    Object[] out = RowDataUtil.resizeArray(row, data.lateRowMeta.size());
    out[input.size()] = reason;
    if (data.live && isStopped()) {
      putAfterStop(data.lateRowMeta, out, List.of(data.lateRowSet));
    } else {
      putRowTo(data.lateRowMeta, out, data.lateRowSet);
    }
    data.lateToTarget++;
  }

  private void reject(Object[] row, int partition, String reason) throws HopTransformException {
    synchronized (data.lock) {
      data.processor.reject(partition);
    }
    sendRejected(row, data.settings.timeField(), reason);
  }

  /**
   * A row of no partition of the stream, or of no offset in a live run: rejected with the
   * reason, and not counted in the processor's stats, which count the rows of its partitions.
   */
  private void rejectForPartition(Object[] row, String field, String reason) throws HopTransformException {
    sendRejected(row, field, reason);
  }

  private void sendRejected(Object[] row, String field, String reason) throws HopTransformException {
    if (getTransformMeta().isDoingErrorHandling()) {
      putError(getInputRowMeta(), row, 1, BaseMessages.getString(PKG, "EventTimeWindow.Rejected.Description", field,
          reason), field, ErrorCodes.REJECTED);
    } else {
      incrementLinesRejected();
      logBasic(BaseMessages.getString(PKG, "EventTimeWindow.Log.Rejected", getLinesRead(), field, reason));
    }
  }

  /**
   * Without a state folder every window still open is emitted. With one, they are kept: the new
   * state is written beside the old one now, and replaces it when the pipeline has succeeded.
   */
  private void endOfInput() throws HopException {
    synchronized (data.lock) {
      data.finished = true;
      stopIdleWatch();
      String kept = "";
      try {
        if (data.live) {
          kept = BaseMessages.getString(PKG, "EventTimeWindow.Log.Stats.Kept", commit(true).windows().size());
        } else if (data.store == null) {
          data.processor.finish();
        } else if (getPipeline().isPreview()) {
          // a preview shows what a run would send, and leaves the state for the run
          OpenState next = data.processor.hold();
          kept = BaseMessages.getString(PKG, "EventTimeWindow.Log.Stats.PreviewKept", next.windows().size(),
              data.store.directory());
          closeStore();
        } else {
          OpenState next = data.processor.hold();
          data.staged = data.store.stage(next);
          kept = BaseMessages.getString(PKG, "EventTimeWindow.Log.Stats.Kept", next.windows().size());
        }
      } catch (EmitFailed e) {
        throw e.getCause();
      } catch (StateException e) {
        throw new HopException(BaseMessages.getString(PKG, "EventTimeWindow.Problem.StateFolder", e.getMessage()), e);
      }
      String late = data.lateRowSet == null ? ""
          : BaseMessages.getString(PKG, "EventTimeWindow.Log.Stats.LateSent", meta.getLateTargetTransform(),
              data.lateToTarget);
      logBasic(BaseMessages.getString(PKG, "EventTimeWindow.Log.Stats", data.stats().toJson(), kept, late));
    }
    setOutputDone();
    if (data.lateRowSet != null) {
      data.lateRowSet.setDone();
    }
  }

  /**
   * Called when the whole pipeline has ended: only a run without errors stores its state. A
   * state that cannot be stored is an error of the run (counted here: an exception from this
   * listener would keep Hop's waitUntilFinished() from ever returning).
   */
  private void commitStateIfTheRunSucceeded(IPipelineEngine<PipelineMeta> pipeline) {
    synchronized (data.lock) {
      try {
        if (data.staged != null) {
          if (pipeline.getErrors() == 0 && !pipeline.isStopped()) {
            data.staged.commit();
            logBasic(BaseMessages.getString(PKG, "EventTimeWindow.Log.StateStored", data.store.file()));
          } else {
            data.staged.discard();
            logBasic(BaseMessages.getString(PKG, "EventTimeWindow.Log.StateKept", data.store.directory()));
          }
        }
      } catch (StateException e) {
        logError(BaseMessages.getString(PKG, "EventTimeWindow.Problem.StateFolder", e.getMessage()));
        setErrors(getErrors() + 1);
      } finally {
        closeStore();
      }
    }
  }

  private void closeLineStarts() {
    if (data.lineStarts != null) {
      try {
        data.lineStarts.close();
      } catch (IOException e) {
        logError(e.getMessage());
      }
      data.lineStarts = null;
    }
  }

  private void closeStore() {
    if (data.store != null) {
      try {
        data.store.close();
      } catch (StateException e) {
        logError(BaseMessages.getString(PKG, "EventTimeWindow.Problem.StateFolder", e.getMessage()));
      }
      data.store = null;
      data.staged = null;
    }
  }

  /**
   * The idle timeout (docs/semantics.md, "Idle partitions"): a partition that has had no row with
   * an event time for the timeout (counted from now for one that has had none) takes the wall
   * clock less the delay as its watermark when that is ahead of its own, and again every timeout
   * while it stays quiet; the windows the stream's watermark then passes are emitted without
   * waiting for more rows. The rule is core's ({@link PartitionedWindowProcessor#advanceIdleTo});
   * this watch reads the wall clock, as the processor is made anew at each commit.
   */
  private void startIdleWatch(long idleMillis) {
    long period = Math.max(10, Math.min(idleMillis / 4, 1000));
    synchronized (data.lock) {
      data.idleDueAt = new long[data.processor.partitions()];
      java.util.Arrays.fill(data.idleDueAt, System.currentTimeMillis() + idleMillis);
    }
    data.idleWatch = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "eventtime-idle-watch-" + getTransformName());
      t.setDaemon(true);
      return t;
    });
    data.idleWatch.scheduleAtFixedRate(() -> idleTick(idleMillis), period, period, TimeUnit.MILLISECONDS);
  }

  private void idleTick(long idleMillis) {
    synchronized (data.lock) {
      if (data.finished) {
        return;
      }
      long now = System.currentTimeMillis();
      long delay = data.settings.query().delayMillis();
      try {
        for (int p = 0; p < data.idleDueAt.length; p++) {
          if (now >= data.idleDueAt[p]) {
            data.idleDueAt[p] = now + idleMillis;
            data.processor.advanceIdleTo(p, now < Long.MIN_VALUE + delay ? Long.MIN_VALUE : now - delay, idleMillis);
          }
        }
      } catch (EmitFailed e) {
        logError(BaseMessages.getString(PKG, "EventTimeWindow.Log.IdleEmitFailed", e.getCause().getMessage()),
            e.getCause());
        setErrors(1);
        stopAll();
      }
    }
  }

  private void stopIdleWatch() {
    if (data.idleWatch != null) {
      data.idleWatch.shutdownNow();
      data.idleWatch = null;
    }
  }

  /**
   * A live run that was stopped (HopGui's stop button, HopRun ended): takes in the rows already
   * read, and stores the state of every row taken in (design 1.6); nothing more is emitted.
   */
  private void storeAtStop() {
    data.stopDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(STOP_WAIT_SECONDS);
    try {
      takeWhatWasRead();
      if (data.settings == null) {
        return; // not one row came: the stored state stands as it is
      }
      endOfInput();
    } catch (HopException | RuntimeException e) {
      logError(BaseMessages.getString(PKG, "EventTimeWindow.Problem.StateFolder", e.getMessage()), e);
      setErrors(getErrors() + 1);
    }
  }

  @Override
  public void dispose() {
    if (data.live && !data.emittingDone && data.store != null) {
      storeAtStop();
    }
    synchronized (data.lock) {
      data.finished = true;
      data.emittingDone = true;
      stopIdleWatch();
      closeLineStarts();
      if (data.stopOnShutdown != null) {
        try {
          Runtime.getRuntime().removeShutdownHook(data.stopOnShutdown);
        } catch (IllegalStateException e) {
          // the JVM is shutting down: the hook is running, and waits for the latch below
        }
        data.stopOnShutdown = null;
      }
      if (data.staged == null) {
        // the run did not reach its end (stopped or failed while a row was in hand): nothing to
        // store, let other runs use the folder
        if (data.store != null && !data.live && !getPipeline().isPreview()) {
          logBasic(BaseMessages.getString(PKG, "EventTimeWindow.Log.StateKept", data.store.directory()));
        }
        closeStore();
      }
    }
    data.stopped.countDown();
    super.dispose();
  }

  @Override
  public boolean keepsPositions() {
    return data.live;
  }

  @Override
  public int partitionCount() {
    return data.nextOffsets == null ? 1 : data.nextOffsets.length;
  }

  @Override
  public Map<Integer, Long> storedNextOffsets() {
    return data.storedOffsets;
  }

  @Override
  public Long committedLength(String path) {
    return data.storedOutputs.get(path);
  }

  @Override
  public OpenState.FileLine storedFollowPosition() {
    return data.storedFollowPosition;
  }

  @Override
  public boolean emittingDone() {
    return data.emittingDone;
  }

  /** Carries a failed putRow out of the processor's sink. */
  private static final class EmitFailed extends RuntimeException {
    EmitFailed(HopException cause) {
      super(cause);
    }

    @Override
    public synchronized HopException getCause() {
      return (HopException) super.getCause();
    }
  }
}
