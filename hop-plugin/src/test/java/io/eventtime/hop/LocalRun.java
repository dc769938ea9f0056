package io.eventtime.hop;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.apache.hop.core.exception.HopException;
import org.apache.hop.core.exception.HopTransformException;
import org.apache.hop.core.logging.HopLogStore;
import org.apache.hop.core.logging.HopLoggingEvent;
import org.apache.hop.core.logging.LogLevel;
import org.apache.hop.core.logging.LogMessage;
import org.apache.hop.core.logging.LoggingBuffer;
import org.apache.hop.core.row.IRowMeta;
import org.apache.hop.core.variables.Variables;
import org.apache.hop.metadata.serializer.memory.MemoryMetadataProvider;
import org.apache.hop.pipeline.Pipeline;
import org.apache.hop.pipeline.PipelineMeta;
import org.apache.hop.pipeline.RowProducer;
import org.apache.hop.pipeline.engine.EngineMetrics;
import org.apache.hop.pipeline.engine.IEngineComponent;
import org.apache.hop.pipeline.engines.local.LocalPipelineEngine;
import org.apache.hop.pipeline.transform.ITransform;
import org.apache.hop.pipeline.transform.RowAdapter;

/**
 * Runs a pipeline on Hop's local engine in the test JVM: feeds rows to an Injector, and records
 * the rows each watched transform reads (a Dummy after the transform under test sees exactly
 * what it sent there, targeted and error rows included).
 */
public final class LocalRun {
  private final PipelineMeta pipelineMeta;
  private final Map<String, String> variables = new LinkedHashMap<>();
  private final Map<String, String> parameters = new LinkedHashMap<>();
  private String injector;
  private IRowMeta injectedMeta;
  private List<Object[]> injected = List.of();
  private boolean preview;
  private LogLevel logLevel = LogLevel.lookupCode(System.getProperty("hop.test.log", "Minimal"));
  private LocalPipelineEngine last;

  public LocalRun(PipelineMeta pipelineMeta) {
    this.pipelineMeta = pipelineMeta;
  }

  /** A run of the pipeline stored in an .hpl file. */
  public static LocalRun of(Path hpl) throws HopException {
    return new LocalRun(new PipelineMeta(hpl.toAbsolutePath().toString(), new MemoryMetadataProvider(), new Variables()));
  }

  public LocalRun inject(String injectorName, IRowMeta rowMeta, List<Object[]> rows) {
    this.injector = injectorName;
    this.injectedMeta = rowMeta;
    this.injected = rows;
    return this;
  }

  /** Logs at {@code level} (Minimal unless the hop.test.log property says otherwise). */
  public LocalRun logLevel(LogLevel level) {
    this.logLevel = level;
    return this;
  }

  /** Runs as HopGui's Preview does: the engine's isPreview() is true. */
  public LocalRun preview() {
    this.preview = true;
    return this;
  }

  /**
   * The messages the last run logged (its transforms' included), each as "subject: message",
   * whether the run started or was refused at init().
   */
  public List<String> messages(LogLevel atMost) {
    List<String> out = new ArrayList<>();
    LoggingBuffer buffer = HopLogStore.getAppender();
    for (HopLoggingEvent e : buffer.getLogBufferFromTo(last.getLogChannelId(), false, 0, buffer.getLastBufferLineNr())) {
      if (e.getMessage() instanceof LogMessage m && m.getLevel().getLevel() <= atMost.getLevel()) {
        out.add(m.getSubject() + ": " + m.getMessage());
      }
    }
    return out;
  }

  public LocalRun variable(String name, String value) {
    variables.put(name, value);
    return this;
  }

  /** A value for one of the pipeline's declared parameters. */
  public LocalRun parameter(String name, String value) {
    parameters.put(name, value);
    return this;
  }

  /** What a run left behind: the rows each watched transform read, and the engine. */
  public record Result(LocalPipelineEngine pipeline, Map<String, List<Object[]>> rowsRead,
      Map<String, IRowMeta> layouts) {
    public List<Object[]> rows(String transform) {
      List<Object[]> rows = rowsRead.getOrDefault(transform, List.of());
      synchronized (rows) {
        return new ArrayList<>(rows);
      }
    }

    public IRowMeta layout(String transform) {
      return layouts.get(transform);
    }

    public long errors() {
      return pipeline.getErrors();
    }

    /** One of Hop's metrics (Pipeline.METRIC_READ...) of a transform, as the metrics grid shows it. */
    public long metric(String transform, org.apache.hop.pipeline.engine.IEngineMetric metric) {
      EngineMetrics metrics = pipeline.getEngineMetrics(transform, 0);
      IEngineComponent component = metrics.getComponents().get(0);
      return metrics.getComponentMetric(component, metric);
    }
  }

  /** A started run that the test feeds row by row. */
  public final class Started {
    private final Result result;
    private final RowProducer producer;

    private Started(Result result, RowProducer producer) {
      this.result = result;
      this.producer = producer;
    }

    public Started put(Object... row) {
      producer.putRow(injectedMeta, row);
      return this;
    }

    public Result result() {
      return result;
    }

    /** Waits until {@code condition} holds, failing after {@code timeout}. */
    public void await(String what, Duration timeout, BooleanSupplier condition) throws InterruptedException {
      long end = System.nanoTime() + timeout.toNanos();
      while (!condition.getAsBoolean()) {
        if (System.nanoTime() > end) {
          throw new AssertionError("timed out after " + timeout + " waiting for " + what);
        }
        Thread.sleep(10);
      }
    }

    /** Ends the input and waits for the pipeline to finish. */
    public Result finish() {
      producer.finished();
      result.pipeline().waitUntilFinished();
      return result;
    }
  }

  /** Runs to the end and returns the rows the named transforms read. */
  public Result run(String... watched) throws HopException {
    Started s = start(watched);
    if (s.producer != null) {
      for (Object[] row : injected) {
        s.producer.putRow(injectedMeta, row);
      }
      s.producer.finished();
    }
    s.result.pipeline().waitUntilFinished();
    return s.result;
  }

  /** Starts the pipeline; the test feeds the Injector through the handle. */
  public Started start(String... watched) throws HopException {
    LocalPipelineEngine pipeline = new LocalPipelineEngine(pipelineMeta, new Variables(), null);
    last = pipeline;
    pipeline.setPreview(preview);
    pipeline.setLogLevel(logLevel);
    pipeline.setMetadataProvider(new MemoryMetadataProvider());
    // as Hop's engine factory does: Internal.Entry.Current.Folder and the other file variables
    pipelineMeta.setInternalHopVariables(pipeline);
    variables.forEach(pipeline::setVariable);
    pipeline.copyParametersFromDefinitions(pipelineMeta);
    for (Map.Entry<String, String> p : parameters.entrySet()) {
      pipeline.setParameterValue(p.getKey(), p.getValue());
    }
    pipeline.activateParameters(pipeline);
    pipeline.prepareExecution();
    Map<String, List<Object[]>> read = new LinkedHashMap<>();
    Map<String, IRowMeta> layouts = Collections.synchronizedMap(new LinkedHashMap<>());
    for (String name : watched) {
      List<Object[]> rows = Collections.synchronizedList(new ArrayList<>());
      read.put(name, rows);
      ITransform t = pipeline.getTransform(name, 0);
      if (t == null) {
        throw new IllegalArgumentException("no transform named " + name);
      }
      t.addRowListener(new RowAdapter() {
        @Override
        public void rowReadEvent(IRowMeta rowMeta, Object[] row) throws HopTransformException {
          layouts.putIfAbsent(name, rowMeta.clone());
          rows.add(Arrays.copyOf(row, rowMeta.size()));
        }
      });
    }
    RowProducer producer = injector == null ? null : pipeline.addRowProducer(injector, 0);
    pipeline.startThreads();
    return new Started(new Result(pipeline, read, layouts), producer);
  }

  /** The metric names Hop shows, for readable assertions. */
  public static final org.apache.hop.pipeline.engine.IEngineMetric READ = Pipeline.METRIC_READ;
  public static final org.apache.hop.pipeline.engine.IEngineMetric WRITTEN = Pipeline.METRIC_WRITTEN;
  public static final org.apache.hop.pipeline.engine.IEngineMetric REJECTED = Pipeline.METRIC_REJECTED;
  public static final org.apache.hop.pipeline.engine.IEngineMetric INPUT = Pipeline.METRIC_INPUT;
  public static final org.apache.hop.pipeline.engine.IEngineMetric OUTPUT = Pipeline.METRIC_OUTPUT;
}
