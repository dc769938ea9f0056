package io.eventtime.hop.beam.engine;

import org.apache.hop.pipeline.config.IPipelineEngineRunConfiguration;
import org.apache.hop.pipeline.engine.PipelineEnginePlugin;

/** Runs pipelines on Beam's Spark runner: pick "Beam Spark (eventtime)" as the run configuration's engine. */
@PipelineEnginePlugin(id = EventTimeBeamSparkEngine.ID, name = EventTimeBeamSparkEngine.NAME,
    description = "Translates the pipeline to Apache Beam and runs it on the Spark runner, with the local engine's"
        + " event-time windows, late and rejected rows")
public class EventTimeBeamSparkEngine extends EventTimeBeamEngine {
  public static final String ID = "EventTimeBeamSpark";
  public static final String NAME = "Beam Spark (eventtime)";

  @Override
  public IPipelineEngineRunConfiguration createDefaultPipelineEngineRunConfiguration() {
    return new BeamSparkRunConfiguration();
  }
}
