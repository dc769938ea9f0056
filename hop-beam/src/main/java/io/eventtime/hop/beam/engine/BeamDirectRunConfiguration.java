package io.eventtime.hop.beam.engine;

import io.eventtime.hop.beam.BeamRunner;
import org.apache.hop.core.gui.plugin.GuiPlugin;

/** The settings of a run on Beam's Direct runner, as the run configuration dialog shows them. */
@GuiPlugin(description = "Beam Direct (eventtime) run configuration")
public class BeamDirectRunConfiguration extends BeamRunConfiguration {

  public BeamDirectRunConfiguration() {
    super(EventTimeBeamDirectEngine.ID, EventTimeBeamDirectEngine.NAME);
  }

  public BeamDirectRunConfiguration(BeamDirectRunConfiguration other) {
    super(other);
  }

  @Override
  public BeamDirectRunConfiguration clone() {
    return new BeamDirectRunConfiguration(this);
  }

  @Override
  public BeamRunner runner() {
    return BeamRunner.DIRECT;
  }
}
