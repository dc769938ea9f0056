package io.eventtime.hop.beam.engine;

import org.apache.hop.pipeline.config.IPipelineEngineRunConfiguration;
import org.apache.hop.pipeline.engine.PipelineEnginePlugin;

/** Runs pipelines on Beam's Flink runner: pick "Beam Flink (eventtime)" as the run configuration's engine. */
@PipelineEnginePlugin(id = EventTimeBeamFlinkEngine.ID, name = EventTimeBeamFlinkEngine.NAME,
    description = "Translates the pipeline to Apache Beam and runs it on the Flink runner, with the local engine's"
        + " event-time windows, late and rejected rows")
public class EventTimeBeamFlinkEngine extends EventTimeBeamEngine {
  public static final String ID = "EventTimeBeamFlink";
  public static final String NAME = "Beam Flink (eventtime)";

  @Override
  public IPipelineEngineRunConfiguration createDefaultPipelineEngineRunConfiguration() {
    return new BeamFlinkRunConfiguration();
  }
}
