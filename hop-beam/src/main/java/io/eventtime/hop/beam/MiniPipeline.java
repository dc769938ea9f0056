package io.eventtime.hop.beam;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.hop.core.exception.HopException;
import org.apache.hop.core.exception.HopTransformException;
import org.apache.hop.core.logging.HopLogStore;
import org.apache.hop.core.logging.LogLevel;
import org.apache.hop.core.logging.LoggingObject;
import org.apache.hop.core.row.IRowMeta;
import org.apache.hop.core.row.IValueMeta;
import org.apache.hop.pipeline.PipelineHopMeta;
import org.apache.hop.pipeline.PipelineMeta;
import org.apache.hop.pipeline.RowProducer;
import org.apache.hop.pipeline.SingleThreadedPipelineExecutor;
import org.apache.hop.pipeline.engines.local.LocalPipelineEngine;
import org.apache.hop.pipeline.transform.ITransform;
import org.apache.hop.pipeline.transform.RowAdapter;
import org.apache.hop.pipeline.transform.TransformErrorMeta;
import org.apache.hop.pipeline.transform.TransformMeta;
import org.apache.hop.pipeline.transform.TransformMetaDataCombi;
import org.apache.hop.pipeline.transforms.dummy.DummyMeta;
import org.apache.hop.pipeline.transforms.injector.InjectorField;
import org.apache.hop.pipeline.transforms.injector.InjectorMeta;

/**
 * A chain of Hop transforms run on a Beam worker by hop-engine's single-threaded executor: an
 * Injector takes the rows in, the transforms are those of the user's pipeline, and a Dummy named
 * after each transform the last one sends rows to (its error hop's target included) catches
 * what goes there, so that target streams and error handling route rows as they do in Hop.
 */
final class MiniPipeline implements AutoCloseable {
  static final String INJECTOR = "__eventtime_rows_in";

  private final LocalPipelineEngine engine;
  private final SingleThreadedPipelineExecutor executor;
  private final RowProducer producer;
  private final IRowMeta inputMeta;
  private final List<List<Object[]>> caught = new ArrayList<>();
  private final List<IRowMeta> caughtMeta = new ArrayList<>();
  private final List<ITransform> chain = new ArrayList<>();
  private final List<String> names;
  private final long[][] reported;

  /**
   * The chain {@code names} (each sending its rows to the next) of the pipeline in
   * {@code context}; {@code input} the layout of the rows given to the first, or null when the
   * first reads no rows (a source); {@code targets} the transforms the last sends rows to.
   */
  MiniPipeline(HopContext context, List<String> names, IRowMeta input, List<String> targets) throws HopException {
    this.names = names;
    this.inputMeta = input;
    PipelineMeta mini = new PipelineMeta();
    mini.setName("eventtime-beam: " + String.join(", ", names));
    mini.setPipelineType(PipelineMeta.PipelineType.SingleThreaded);
    mini.setMetadataProvider(context.metadata());

    TransformMeta previous = null;
    if (input != null) {
      InjectorMeta injector = new InjectorMeta();
      for (IValueMeta v : input.getValueMetaList()) {
        injector.getInjectorFields().add(new InjectorField(v.getName(), v.getTypeDesc(),
            Integer.toString(v.getLength()), Integer.toString(v.getPrecision())));
      }
      previous = new TransformMeta(INJECTOR, injector);
      mini.addTransform(previous);
    }
    TransformMeta last = null;
    for (String name : names) {
      TransformMeta original = context.transform(name);
      TransformMeta copy = (TransformMeta) original.clone();
      copy.setTransformErrorMeta(null);
      copy.setCopies(1);
      mini.addTransform(copy);
      if (previous != null) {
        mini.addPipelineHop(new PipelineHopMeta(previous, copy));
      }
      previous = copy;
      last = copy;
    }
    TransformMeta original = context.transform(names.get(names.size() - 1));
    for (String target : targets) {
      TransformMeta catcher = new TransformMeta(target, new DummyMeta());
      mini.addTransform(catcher);
      mini.addPipelineHop(new PipelineHopMeta(last, catcher));
      if (original.isDoingErrorHandling() && original.getTransformErrorMeta().getTargetTransform() != null
          && original.getTransformErrorMeta().getTargetTransform().getName().equalsIgnoreCase(target)) {
        TransformErrorMeta errors = original.getTransformErrorMeta().clone();
        errors.setSourceTransform(last);
        errors.setTargetTransform(catcher);
        last.setTransformErrorMeta(errors);
      }
    }
    for (TransformMeta t : mini.getTransforms()) {
      t.getTransform().searchInfoAndTargetTransforms(mini.getTransforms());
    }

    engine = new LocalPipelineEngine(mini, context.variables(), new LoggingObject("eventtime-beam"));
    engine.setLogLevel(LogLevel.MINIMAL);
    engine.setMetadataProvider(context.metadata());
    engine.prepareExecution();
    for (TransformMetaDataCombi combi : engine.getTransforms()) {
      combi.data.setBeamContext(true);
    }
    producer = input == null ? null : engine.addRowProducer(INJECTOR, 0);
    for (String target : targets) {
      List<Object[]> rows = new ArrayList<>();
      caught.add(rows);
      int index = caughtMeta.size();
      caughtMeta.add(null);
      engine.getTransform(target, 0).addRowListener(new RowAdapter() {
        @Override
        public void rowReadEvent(IRowMeta rowMeta, Object[] row) {
          caughtMeta.set(index, rowMeta);
          rows.add(row);
        }
      });
    }
    for (String name : names) {
      chain.add(engine.getTransform(name, 0));
    }
    reported = new long[names.size()][HopMetrics.Kind.values().length];
    executor = new SingleThreadedPipelineExecutor(engine);
    if (!executor.init()) {
      throw new HopException("cannot start the transforms " + names + " on this worker:\n" + log());
    }
    engine.startThreads();
  }

  /** Gives one row to the chain and runs it until every transform has handled what it has. */
  void put(Object[] row) throws HopException {
    producer.putRow(inputMeta, row);
    iterate();
  }

  /** Runs one round over every transform; false when all are done (a source has no more rows). */
  boolean iterate() throws HopException {
    boolean more = executor.oneIteration();
    if (executor.getErrors() > 0 || engine.getErrors() > 0) {
      throw new HopTransformException("the transforms " + names + " failed on this worker:\n" + log());
    }
    return more;
  }

  void startBundle() throws HopException {
    executor.startBundle();
  }

  /** Ends a bundle: transforms that write in batches finish theirs, and what they send is caught. */
  void finishBundle() throws HopException {
    executor.finishBundle();
    iterate();
  }

  /** The rows caught for the {@code i}-th target since the last call, and their layout. */
  List<Object[]> take(int i) {
    List<Object[]> rows = caught.get(i);
    if (rows.isEmpty()) {
      return Collections.emptyList();
    }
    List<Object[]> taken = new ArrayList<>(rows);
    rows.clear();
    return taken;
  }

  IRowMeta layoutOf(int i) {
    return caughtMeta.get(i);
  }

  /** Adds to the counters what each transform has counted since the last report. */
  void report(List<Counter[]> counters) {
    for (int t = 0; t < chain.size(); t++) {
      ITransform transform = chain.get(t);
      long[] now = {transform.getLinesInput(), transform.getLinesRead(), transform.getLinesWritten(),
          transform.getLinesOutput(), transform.getLinesRejected(), 0};
      for (int k = 0; k < now.length; k++) {
        long delta = now[k] - reported[t][k];
        if (delta != 0) {
          counters.get(t)[k].inc(delta);
          reported[t][k] = now[k];
        }
      }
    }
  }

  /** One counter per kind (in {@link HopMetrics.Kind} order) for a transform. */
  static Counter[] countersFor(String transform) {
    HopMetrics.Kind[] kinds = HopMetrics.Kind.values();
    Counter[] counters = new Counter[kinds.length];
    for (int k = 0; k < kinds.length; k++) {
      counters[k] = HopMetrics.counter(transform, kinds[k]);
    }
    return counters;
  }

  private String log() {
    return HopLogStore.getAppender().getBuffer(engine.getLogChannelId(), false).toString();
  }

  @Override
  public void close() {
    executor.dispose();
    engine.cleanup();
  }
}
