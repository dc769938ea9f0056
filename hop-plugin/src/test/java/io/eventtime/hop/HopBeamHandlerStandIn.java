package io.eventtime.hop;

import java.util.ArrayList;
import java.util.List;
import org.apache.hop.core.exception.HopException;
import org.apache.hop.core.logging.LoggingObject;
import org.apache.hop.core.row.IRowMeta;
import org.apache.hop.core.row.IValueMeta;
import org.apache.hop.core.variables.Variables;
import org.apache.hop.metadata.serializer.memory.MemoryMetadataProvider;
import org.apache.hop.pipeline.PipelineHopMeta;
import org.apache.hop.pipeline.PipelineMeta;
import org.apache.hop.pipeline.RowProducer;
import org.apache.hop.pipeline.SingleThreadedPipelineExecutor;
import org.apache.hop.pipeline.engines.local.LocalPipelineEngine;
import org.apache.hop.pipeline.transform.ITransformMeta;
import org.apache.hop.pipeline.transform.RowAdapter;
import org.apache.hop.pipeline.transform.TransformMeta;
import org.apache.hop.pipeline.transforms.injector.InjectorField;
import org.apache.hop.pipeline.transforms.injector.InjectorMeta;

/**
 * Runs one transform the way the generic handler of Hop's own Beam engines (hop-engine-beam's
 * TransformFn) runs a transform it has no handler for, on one worker: a single-threaded pipeline
 * of an Injector and the transform, prepared (which calls init()), every transform's data marked
 * as in a Beam context, init() called again by the single-threaded executor with its result
 * ignored, a bundle started, and then for each element one row put and one iteration run. The
 * end of the input is never signalled. hop-engine-beam itself is not a dependency of the tests.
 */
public final class HopBeamHandlerStandIn implements AutoCloseable {
  private static final String INJECTOR = "_INJECTOR_";

  private final LocalPipelineEngine engine;
  private final SingleThreadedPipelineExecutor executor;
  private final RowProducer producer;
  private final IRowMeta input;
  private final List<Object[]> written = new ArrayList<>();

  /** {@code input}: the layout of the rows the transform is given, or null for a transform that reads none. */
  public HopBeamHandlerStandIn(String name, ITransformMeta transform, IRowMeta input) throws HopException {
    this.input = input;
    PipelineMeta mini = new PipelineMeta();
    mini.setName(name);
    mini.setPipelineType(PipelineMeta.PipelineType.SingleThreaded);
    TransformMeta injector = null;
    if (input != null) {
      InjectorMeta injectorMeta = new InjectorMeta();
      for (IValueMeta v : input.getValueMetaList()) {
        injectorMeta.getInjectorFields().add(new InjectorField(v.getName(), v.getTypeDesc(), "-1", "-1"));
      }
      injector = new TransformMeta(INJECTOR, injectorMeta);
      mini.addTransform(injector);
    }
    TransformMeta t = new TransformMeta(name, transform);
    mini.addTransform(t);
    if (injector != null) {
      mini.addPipelineHop(new PipelineHopMeta(injector, t));
    }
    transform.searchInfoAndTargetTransforms(mini.getTransforms());

    engine = new LocalPipelineEngine(mini, new Variables(), new LoggingObject("apache-beam-transform"));
    engine.setMetadataProvider(new MemoryMetadataProvider());
    engine.prepareExecution();
    engine.getTransforms().forEach(c -> {
      c.data.setBeamContext(true);
      c.data.setBeamBundleNr(1);
    });
    producer = input == null ? null : engine.addRowProducer(INJECTOR, 0);
    engine.getTransform(name, 0).addRowListener(new RowAdapter() {
      @Override
      public void rowWrittenEvent(IRowMeta rowMeta, Object[] row) {
        written.add(row);
      }
    });
    executor = new SingleThreadedPipelineExecutor(engine);
    executor.init(); // the handler ignores what init() returns
    engine.startThreads();
    executor.startBundle();
  }

  /** One element of the Beam input: the row put in, one iteration run. */
  public void process(Object... row) throws HopException {
    if (producer != null) {
      producer.putRow(input, row, false);
    }
    executor.oneIteration();
  }

  /** The rows the transform wrote so far. */
  public List<Object[]> written() {
    return written;
  }

  @Override
  public void close() {
    executor.dispose();
    engine.cleanup();
  }
}
