package io.eventtime.hop.beam.engine;

import org.apache.hop.pipeline.config.IPipelineEngineRunConfiguration;
import org.apache.hop.pipeline.engine.PipelineEnginePlugin;

/** Runs pipelines on Beam's Direct runner: pick "Beam Direct (eventtime)" as the run configuration's engine. */
@PipelineEnginePlugin(id = EventTimeBeamDirectEngine.ID, name = EventTimeBeamDirectEngine.NAME,
    description = "Translates the pipeline to Apache Beam and runs it on the Direct runner, with the local engine's"
        + " event-time windows, late and rejected rows")
public class EventTimeBeamDirectEngine extends EventTimeBeamEngine {
  public static final String ID = "EventTimeBeamDirect";
  public static final String NAME = "Beam Direct (eventtime)";

  @Override
  public IPipelineEngineRunConfiguration createDefaultPipelineEngineRunConfiguration() {
    return new BeamDirectRunConfiguration();
  }
}
