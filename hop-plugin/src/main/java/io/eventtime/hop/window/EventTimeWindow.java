package io.eventtime.hop.window;

import io.eventtime.core.EventTimeException;
import io.eventtime.core.Key;
import io.eventtime.core.OpenState;
import io.eventtime.core.PartitionedWindowProcessor;
import io.eventtime.core.WindowResult;
import io.eventtime.core.state.StateException;
import io.eventtime.core.state.StateStore;
import io.eventtime.hop.Engines;
import io.eventtime.hop.ErrorCodes;
import io.eventtime.hop.HopValues;
import io.eventtime.hop.Settings;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
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
public class EventTimeWindow extends BaseTransform<EventTimeWindowMeta, EventTimeWindowData> {
  private static final Class<?> PKG = EventTimeWindowMeta.class;

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
    if (s.stateFolder() != null) {
      try {
        data.store = StateStore.open(folder(s.stateFolder()), s.query(), s.timeField());
        state = data.store.load();
        if (state.partitions().size() != 1) {
          throw new IllegalArgumentException("the state holds " + state.partitions().size()
              + " partitions, and a run without a partition field has one");
        }
      } catch (StateException | IllegalArgumentException e) {
        logError(Settings.refusal(getTransformName(),
            List.of(BaseMessages.getString(PKG, "EventTimeWindow.Problem.StateFolder", e.getMessage()))));
        closeStore();
        return false;
      }
      if (!getPipeline().isPreview()) {
        getPipeline().addExecutionFinishedListener(this::commitStateIfTheRunSucceeded);
      }
    }
    data.processor = s.partitioning().isPartitioned()
        ? new PartitionedWindowProcessor(s.query(), s.partitioning().count(), this::emit)
        : PartitionedWindowProcessor.resume(s.query(), this::emit, state);
    return true;
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
      endOfInput();
      return false;
    }
    if (first) {
      first = false;
      start(getInputRowMeta());
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
        rejectForPartition(row, why);
        return true;
      }
    }
    long eventTime;
    try {
      eventTime = s.timeReader().read(HopValues.nativeValue(data.timeMeta, row[s.timeIndex()]));
    } catch (EventTimeException | HopValueException e) {
      reject(row, partition, e.getMessage());
      return true;
    }
    Key key = keyOf(row);
    Object[] inputs = inputsOf(row);
    synchronized (data.lock) {
      data.lastRowNanos = System.nanoTime();
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
    return true;
  }

  /** Looks the fields up in the first row's layout; a field that is not there stops the run. */
  private void start(IRowMeta input) throws HopException {
    WindowSettings s = Settings.resolvedOrRefused(getTransformName(), problems -> meta.resolve(this, input, problems));
    data.settings = s;
    data.outputRowMeta = s.outputRowMeta();
    data.timeMeta = input.getValueMeta(s.timeIndex());
    data.partitionMeta = s.partitioning().isPartitioned() ? input.getValueMeta(s.partitioning().index()) : null;
    data.keyMetas = new IValueMeta[s.keyIndexes().length];
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

  private Key keyOf(Object[] row) throws HopValueException {
    int[] idx = data.settings.keyIndexes();
    if (idx.length == 0) {
      return Key.GLOBAL;
    }
    Object[] values = new Object[idx.length];
    for (int i = 0; i < idx.length; i++) {
      values[i] = HopValues.nativeValue(data.keyMetas[i], row[idx[i]]);
    }
    return Key.of(values);
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
      putRow(out, row);
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
    putRowTo(data.lateRowMeta, out, data.lateRowSet);
    data.lateToTarget++;
  }

  private void reject(Object[] row, int partition, String reason) throws HopTransformException {
    synchronized (data.lock) {
      data.processor.reject(partition);
    }
    sendRejected(row, data.settings.timeField(), reason);
  }

  /**
   * A row of no partition of the stream: rejected with the reason, and not counted in the
   * processor's stats, which count the rows of its partitions.
   */
  private void rejectForPartition(Object[] row, String reason) throws HopTransformException {
    sendRejected(row, data.settings.partitioning().field(), reason);
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
        if (data.store == null) {
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
      logBasic(BaseMessages.getString(PKG, "EventTimeWindow.Log.Stats", data.processor.stats().toJson(), kept, late));
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
   * When no row has come for the idle timeout, the stream's time is taken to move on with the
   * wall clock: the watermark advances by the wall-clock time since the last row, and the windows
   * it passes are emitted without waiting for more rows.
   */
  private void startIdleWatch(long idleMillis) {
    long period = Math.max(10, Math.min(idleMillis / 4, 1000));
    data.lastRowNanos = System.nanoTime();
    data.idleWatch = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "eventtime-idle-watch-" + getTransformName());
      t.setDaemon(true);
      return t;
    });
    data.idleWatch.scheduleAtFixedRate(() -> idleTick(idleMillis), period, period, TimeUnit.MILLISECONDS);
  }

  private void idleTick(long idleMillis) {
    synchronized (data.lock) {
      Long watermark = data.processor.watermark();
      long idle = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - data.lastRowNanos);
      if (data.finished || watermark == null || idle < idleMillis) {
        return;
      }
      try {
        data.processor.advanceWatermarkTo(0, watermark + idle);
        data.lastRowNanos = System.nanoTime();
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

  @Override
  public void dispose() {
    synchronized (data.lock) {
      data.finished = true;
      stopIdleWatch();
      if (data.staged == null && data.store != null) {
        // the run did not reach its end (stopped, or another transform failed): nothing to store
        logBasic(BaseMessages.getString(PKG, "EventTimeWindow.Log.StateKept", data.store.directory()));
        closeStore();
      }
    }
    super.dispose();
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
