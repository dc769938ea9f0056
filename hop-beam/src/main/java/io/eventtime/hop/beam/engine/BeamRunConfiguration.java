package io.eventtime.hop.beam.engine;

import org.apache.hop.core.gui.plugin.GuiElementType;
import org.apache.hop.core.gui.plugin.GuiWidgetElement;
import org.apache.hop.metadata.api.HopMetadataProperty;
import org.apache.hop.pipeline.config.IPipelineEngineRunConfiguration;
import org.apache.hop.pipeline.config.PipelineRunConfiguration;
import org.apache.hop.pipeline.engines.EmptyPipelineRunConfiguration;

/**
 * What the run configurations of every eventtime Beam engine have: the other Beam options, shown
 * last in the dialog. Each runner's configuration adds its own fields above them.
 */
public abstract class BeamRunConfiguration extends EmptyPipelineRunConfiguration
    implements IPipelineEngineRunConfiguration, BeamRunSettings {

  @GuiWidgetElement(id = "beamOptions", order = "90", parentId = PipelineRunConfiguration.GUI_PLUGIN_ELEMENT_PARENT_ID,
      type = GuiElementType.TEXT, label = "Other Beam options",
      toolTip = "Any other Beam pipeline options, --name=value separated by spaces")
  @HopMetadataProperty(key = "beam_options")
  private String beamOptions = "";

  protected BeamRunConfiguration(String engineId, String engineName) {
    super(engineId, engineName);
  }

  protected BeamRunConfiguration(BeamRunConfiguration other) {
    super(other);
    this.beamOptions = other.beamOptions;
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

  public String getBeamOptions() {
    return beamOptions;
  }

  public void setBeamOptions(String beamOptions) {
    this.beamOptions = beamOptions;
  }
}
