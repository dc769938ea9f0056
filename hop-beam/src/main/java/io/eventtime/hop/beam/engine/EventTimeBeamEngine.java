package io.eventtime.hop.beam.engine;

import io.eventtime.beam.EventTimeMetrics;
import io.eventtime.hop.beam.BeamRunner;
import io.eventtime.hop.beam.HopBeamRun;
import io.eventtime.hop.beam.HopMetrics;
import io.eventtime.hop.beam.HopPipelineTranslator;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Timer;
import java.util.TimerTask;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.hop.core.Result;
import org.apache.hop.core.exception.HopException;
import org.apache.hop.core.logging.ILogChannel;
import org.apache.hop.core.logging.LogChannel;
import org.apache.hop.core.logging.LoggingObjectType;
import org.apache.hop.core.logging.SimpleLoggingObject;
import org.apache.hop.i18n.BaseMessages;
import org.apache.hop.pipeline.Pipeline;
import org.apache.hop.pipeline.PipelineMeta;
import org.apache.hop.pipeline.config.IPipelineEngineRunConfiguration;
import org.apache.hop.pipeline.engine.EngineComponent;
import org.apache.hop.pipeline.engine.EngineComponent.ComponentExecutionStatus;
import org.apache.hop.pipeline.engine.EngineMetric;
import org.apache.hop.pipeline.engine.EngineMetrics;
import org.apache.hop.pipeline.engine.IEngineComponent;
import org.apache.hop.pipeline.engine.IEngineMetric;
import org.apache.hop.pipeline.engine.IPipelineEngine;
import org.apache.hop.pipeline.engine.PipelineEngineCapabilities;
import org.apache.hop.pipeline.transform.BaseTransform;

/**
 * A Hop pipeline engine that translates the pipeline to Beam ({@link HopPipelineTranslator}) and
 * runs it on one of Beam's runners, chosen by the run configuration. It keeps Hop's own pipeline
 * life cycle (variables, parameters, listeners, log channel) and replaces the running of
 * transform threads with the Beam run; the rows each transform read, wrote and rejected, and
 * how many came late to a window, come back as the engine's metrics while it runs and when it
 * is done. At the end it logs what the local engine logs: each transform's counts in Hop's
 * "Finished processing" line, the contract's stats of each window, and how the run ended.
 *
 * <p>What the interface cannot give from Beam: previews and debugging of rows, sniffing,
 * pausing, the log text of each transform (Beam logs its workers' own way) and per-copy metrics
 * (one component per transform).
 */
public abstract class EventTimeBeamEngine extends Pipeline implements IPipelineEngine<PipelineMeta> {
  /** Rows that came too late for their windows: a column of Hop's metrics grid. */
  public static final IEngineMetric METRIC_LATE =
      new EngineMetric("LATE", "Late", "Rows too late for their windows", "0950", true);

  private HopPipelineTranslator.Translation translation;
  private volatile PipelineResult beamResult;
  private volatile EngineMetrics metrics = new EngineMetrics();
  private volatile int beamErrors;
  private Thread runThread;
  private ClassLoader runnerClassLoader;
  private Timer refresh;
  private String runnerName;

  protected EventTimeBeamEngine() {
    super();
  }

  @Override
  public PipelineEngineCapabilities getEngineCapabilities() {
    return new PipelineEngineCapabilities(false, false, false, false);
  }

  private BeamRunSettings settings() throws HopException {
    IPipelineEngineRunConfiguration config = getPipelineRunConfiguration() == null ? null
        : getPipelineRunConfiguration().getEngineRunConfiguration();
    if (!(config instanceof BeamRunSettings s)) {
      throw new HopException("The run configuration of '" + getPipelineMeta().getName() + "' is not one of the"
          + " eventtime Beam engines: choose Beam Direct, Flink or Spark (eventtime) as its engine");
    }
    return s;
  }

  @Override
  public void prepareExecution() throws HopException {
    setPreparing(true);
    setExecutionStartDate(new Date());
    log = new LogChannel(this, getParent());
    log.setLogLevel(logLevel);
    ClassLoader previous = Thread.currentThread().getContextClassLoader();
    try {
      BeamRunSettings s = settings();
      // Beam, Flink, Pekko and Spark find their classes, services and configuration through the context
      // class loader: the runner's (its own loader beside this plugin's in a Hop installation)
      runnerClassLoader = s.runner().classLoader();
      Thread.currentThread().setContextClassLoader(runnerClassLoader);
      List<String> args = new ArrayList<>(BeamRunSettings.split(this, s.beamOptions()));
      if (s.runner() == BeamRunner.DIRECT) {
        args.add("--blockOnRun=false"); // so that the metrics come back while it runs
      }
      if (s.runner() == BeamRunner.FLINK && HopPipelineTranslator.readsLive(getPipelineMeta())) {
        // a live run ends only by a stop: streaming, and detached so that run() returns and the stop can cancel it
        args.add("--streaming=true");
        args.add("--attachedMode=false");
      }
      PipelineOptions options = s.runner().options(resolve(s.master()), resolve(s.parallelism()), args);
      runnerName = s.runner().name().toLowerCase(Locale.ROOT);
      log.logBasic("Translating the pipeline for Beam's " + runnerName + " runner");
      translation = HopBeamRun.prepare(getPipelineMeta(), this, getMetadataProvider(), options);
      translation.notes().forEach(log::logBasic);
      metrics = metrics(Map.of(), ComponentExecutionStatus.STATUS_INIT);
      setReadyToStart(true);
    } catch (HopException | RuntimeException e) {
      beamErrors++;
      setStopped(true);
      log.logError(e.getMessage());
      throw e instanceof HopException h ? h : new HopException(e.getMessage(), e);
    } finally {
      setPreparing(false);
      Thread.currentThread().setContextClassLoader(previous);
    }
  }

  @Override
  public void startThreads() throws HopException {
    if (translation == null) {
      throw new HopException("The pipeline '" + getPipelineMeta().getName() + "' was not prepared: prepare it first");
    }
    setRunning(true);
    setReadyToStart(false);
    firePipelineExecutionStartedListeners();
    refresh = new Timer("eventtime-beam-metrics", true);
    refresh.schedule(new TimerTask() {
      @Override
      public void run() {
        refreshMetrics(ComponentExecutionStatus.STATUS_RUNNING);
      }
    }, 1000L, 1000L);
    ClassLoader loader = runnerClassLoader;
    runThread = new Thread(() -> run(loader), "eventtime-beam-run " + getPipelineMeta().getName());
    runThread.start();
  }

  private void run(ClassLoader loader) {
    Thread.currentThread().setContextClassLoader(loader);
    String failure = null;
    Throwable cause = null;
    try {
      beamResult = translation.pipeline().run();
      PipelineResult.State state = beamResult.waitUntilFinish();
      if (state == PipelineResult.State.DONE) {
        translation.commitStates();
      } else if (!(state == PipelineResult.State.CANCELLED && isStopped())) {
        // a stop cancels the run, the one way a live run (Event Kafka Input) ends: that is no failure
        failure = "the Beam run ended " + state;
      }
    } catch (RuntimeException e) {
      // after a stop, a runner may fail to tell the state of the job it cancelled (embedded Flink, detached,
      // shuts its cluster down with the job): the run was stopped all the same
      if (!isStopped()) {
        failure = rootMessage(e);
        cause = e;
      }
    } finally {
      if (failure != null) {
        beamErrors++;
      }
      translation.close();
      refresh.cancel();
      refreshMetrics(beamErrors == 0 ? ComponentExecutionStatus.STATUS_FINISHED : ComponentExecutionStatus.STATUS_STOPPED);
      setExecutionEndDate(new Date());
      logTheEnd(failure, cause);
      setRunning(false);
      setFinished(true);
      try {
        firePipelineExecutionFinishedListeners();
      } catch (HopException e) {
        log.logError("A listener of the end of the pipeline failed: " + e.getMessage(), e);
      }
    }
  }

  /**
   * What the local engine logs when a pipeline ends: each transform's counts in Hop's words, the
   * contract's stats of each window, and how the run ended.
   */
  private void logTheEnd(String failure, Throwable cause) {
    for (IEngineComponent c : metrics.getComponents()) {
      ILogChannel channel = new LogChannel(new SimpleLoggingObject(c.getName(), LoggingObjectType.TRANSFORM, this), this);
      Long late = metrics.getComponentMetric(c, METRIC_LATE);
      String summary = BaseMessages.getString(BaseTransform.class, "BaseTransform.Log.SummaryInfo",
          String.valueOf(c.getLinesInput()), String.valueOf(c.getLinesOutput()), String.valueOf(c.getLinesRead()),
          String.valueOf(c.getLinesWritten()), "0", String.valueOf(c.getLinesRejected()))
          + (translation.windowTransforms().contains(c.getName()) ? ", late " + (late == null ? 0 : late) : "");
      if (c.getLinesInput() + c.getLinesOutput() + c.getLinesRead() + c.getLinesWritten() + c.getLinesRejected() > 0) {
        channel.logBasic(summary);
      } else {
        channel.logDetailed(summary);
      }
      if (beamResult != null && translation.windowTransforms().contains(c.getName())) {
        try {
          channel.logBasic("Event time window stats: " + EventTimeMetrics.stats(beamResult, c.getName()).toJson());
        } catch (RuntimeException e) {
          channel.logError("The stats of the window could not be read from the Beam run: " + rootMessage(e));
        }
      }
    }
    String on = "Beam's " + runnerName + " runner with run configuration '" + getPipelineRunConfiguration().getName() + "'";
    if (failure == null && isStopped()) {
      log.logBasic("Execution stopped on " + on);
    } else if (failure == null) {
      log.logBasic("Execution finished on " + on);
    } else if (cause == null) {
      log.logError("Execution failed on " + on + ": " + failure);
    } else {
      log.logError("Execution failed on " + on + ": " + failure, cause);
    }
  }

  private static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    return t.getMessage() == null ? t.toString() : t.getMessage();
  }

  private synchronized void refreshMetrics(ComponentExecutionStatus status) {
    PipelineResult result = beamResult;
    if (result != null) {
      try {
        metrics = metrics(translation.metrics(result), status);
      } catch (RuntimeException e) {
        // a runner may not give metrics before it is done; the next refresh tries again
      }
    }
  }

  /** Hop's metrics from the Beam counters: one component per transform. */
  private EngineMetrics metrics(Map<String, Map<HopMetrics.Kind, Long>> counts, ComponentExecutionStatus status) {
    EngineMetrics em = new EngineMetrics();
    em.setStartDate(getExecutionStartDate());
    em.setEndDate(getExecutionEndDate());
    for (String name : getPipelineMeta().getTransformNames()) {
      Map<HopMetrics.Kind, Long> c = counts.getOrDefault(name, Map.of());
      EngineComponent component = new EngineComponent(name, 0);
      component.setLogChannel(log);
      component.setLinesInput(c.getOrDefault(HopMetrics.Kind.INPUT, 0L));
      component.setLinesRead(c.getOrDefault(HopMetrics.Kind.READ, 0L));
      component.setLinesWritten(c.getOrDefault(HopMetrics.Kind.WRITTEN, 0L));
      component.setLinesOutput(c.getOrDefault(HopMetrics.Kind.OUTPUT, 0L));
      component.setLinesRejected(c.getOrDefault(HopMetrics.Kind.REJECTED, 0L));
      component.setStatus(status);
      component.setRunning(status == ComponentExecutionStatus.STATUS_RUNNING);
      component.setExecutionStartDate(getExecutionStartDate());
      component.setExecutionEndDate(getExecutionEndDate());
      em.addComponent(component);
      em.setComponentMetric(component, Pipeline.METRIC_INPUT, component.getLinesInput());
      em.setComponentMetric(component, Pipeline.METRIC_READ, component.getLinesRead());
      em.setComponentMetric(component, Pipeline.METRIC_WRITTEN, component.getLinesWritten());
      em.setComponentMetric(component, Pipeline.METRIC_OUTPUT, component.getLinesOutput());
      em.setComponentMetric(component, Pipeline.METRIC_REJECTED, component.getLinesRejected());
      em.setComponentMetric(component, METRIC_LATE, c.getOrDefault(HopMetrics.Kind.LATE, 0L));
      em.setComponentStatus(component, status.getDescription());
      em.setComponentRunning(component, component.isRunning());
    }
    return em;
  }

  @Override
  public void waitUntilFinished() {
    if (runThread == null) {
      return;
    }
    try {
      runThread.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for the Beam run", e);
    }
  }

  @Override
  public void stopAll() {
    // stopped before the cancel, so that the run's end is told a stop and not a failure
    setStopped(true);
    PipelineResult result = beamResult;
    if (result != null && isRunning()) {
      try {
        result.cancel();
      } catch (java.io.IOException | UnsupportedOperationException e) {
        log.logError("Could not cancel the Beam run: " + e.getMessage());
      }
    }
    fireExecutionStoppedListeners();
  }

  @Override
  public int getErrors() {
    return beamErrors;
  }

  @Override
  public EngineMetrics getEngineMetrics() {
    return metrics;
  }

  @Override
  public EngineMetrics getEngineMetrics(String componentName, int copyNr) {
    EngineMetrics all = metrics;
    EngineMetrics one = new EngineMetrics();
    one.setStartDate(all.getStartDate());
    one.setEndDate(all.getEndDate());
    for (IEngineComponent c : all.getComponents()) {
      if (c.getName().equalsIgnoreCase(componentName) && c.getCopyNr() == copyNr) {
        one.addComponent(c);
        all.getComponentMetricsMap().getOrDefault(c, Map.of()).forEach((m, v) -> one.setComponentMetric(c, m, v));
        one.setComponentStatus(c, all.getComponentStatusMap().get(c));
        one.setComponentRunning(c, all.getComponentRunningMap().get(c));
      }
    }
    return one;
  }

  @Override
  public List<IEngineComponent> getComponents() {
    return metrics.getComponents();
  }

  @Override
  public IEngineComponent findComponent(String name, int copyNr) {
    return metrics.getComponents().stream().filter(c -> c.getName().equalsIgnoreCase(name)).findFirst().orElse(null);
  }

  @Override
  public List<IEngineComponent> getComponentCopies(String name) {
    return metrics.getComponents().stream().filter(c -> c.getName().equalsIgnoreCase(name)).toList();
  }

  @Override
  public String getComponentLogText(String componentName, int copyNr) {
    return "";
  }

  @Override
  public Result getResult() {
    Result result = new Result();
    result.setNrErrors(getErrors());
    result.setResult(getErrors() == 0);
    for (IEngineComponent c : metrics.getComponents()) {
      result.setNrLinesInput(result.getNrLinesInput() + c.getLinesInput());
      result.setNrLinesOutput(result.getNrLinesOutput() + c.getLinesOutput());
      result.setNrLinesRead(result.getNrLinesRead() + c.getLinesRead());
      result.setNrLinesWritten(result.getNrLinesWritten() + c.getLinesWritten());
      result.setNrLinesRejected(result.getNrLinesRejected() + c.getLinesRejected());
    }
    result.setStopped(isStopped());
    result.setLogChannelId(getLogChannelId());
    return result;
  }

  @Override
  public String getStatusDescription() {
    return getStatus();
  }

  @Override
  public void cleanup() {
    // the Beam runner has released what it used when the run ended
  }

  @Override
  public void pipelineCompleted() {
    // nothing to close: no transform threads ran here
  }
}
