package io.eventtime.hop.beam.engine;

import io.eventtime.hop.beam.BeamRunner;
import org.apache.hop.core.gui.plugin.GuiElementType;
import org.apache.hop.core.gui.plugin.GuiPlugin;
import org.apache.hop.core.gui.plugin.GuiWidgetElement;
import org.apache.hop.metadata.api.HopMetadataProperty;
import org.apache.hop.pipeline.config.IPipelineEngineRunConfiguration;
import org.apache.hop.pipeline.config.PipelineRunConfiguration;
import org.apache.hop.pipeline.engines.EmptyPipelineRunConfiguration;

/** The settings of a run on Beam's Direct runner, as the run configuration dialog shows them. */
@GuiPlugin(description = "Beam Direct (eventtime) run configuration")
public class BeamDirectRunConfiguration extends EmptyPipelineRunConfiguration
    implements IPipelineEngineRunConfiguration, BeamRunSettings {

  @GuiWidgetElement(id = "beamOptions", order = "90", parentId = PipelineRunConfiguration.GUI_PLUGIN_ELEMENT_PARENT_ID,
      type = GuiElementType.TEXT, label = "Other Beam options",
      toolTip = "Any other Beam pipeline options, --name=value separated by spaces")
  @HopMetadataProperty(key = "beam_options")
  private String beamOptions = "";

  public BeamDirectRunConfiguration() {
    super(EventTimeBeamDirectEngine.ID, EventTimeBeamDirectEngine.NAME);
  }

  public BeamDirectRunConfiguration(BeamDirectRunConfiguration other) {
    super(other);
    this.beamOptions = other.beamOptions;
  }

  @Override
  public BeamDirectRunConfiguration clone() {
    return new BeamDirectRunConfiguration(this);
  }

  @Override
  public BeamRunner runner() {
    return BeamRunner.DIRECT;
  }

  @Override
  public String master() {
    return null;
  }

  @Override
  public String parallelism() {
    return null;
  }

  @Override
  public String beamOptions() {
    return beamOptions;
  }

  public void setBeamOptions(String beamOptions) {
    this.beamOptions = beamOptions;
  }

  public String getBeamOptions() {
    return beamOptions;
  }
}
