package io.eventtime.hop.beam.engine;

import io.eventtime.hop.beam.BeamRunner;
import org.apache.hop.core.gui.plugin.GuiElementType;
import org.apache.hop.core.gui.plugin.GuiPlugin;
import org.apache.hop.core.gui.plugin.GuiWidgetElement;
import org.apache.hop.metadata.api.HopMetadataProperty;
import org.apache.hop.pipeline.config.PipelineRunConfiguration;

/** The settings of a run on Beam's Flink runner, as the run configuration dialog shows them. */
@GuiPlugin(description = "Beam Flink (eventtime) run configuration")
public class BeamFlinkRunConfiguration extends BeamRunConfiguration {

  @GuiWidgetElement(id = "flinkMaster", order = "10", parentId = PipelineRunConfiguration.GUI_PLUGIN_ELEMENT_PARENT_ID,
      type = GuiElementType.TEXT, label = "Flink master",
      toolTip = "Where Flink runs: [local] for an embedded cluster in this JVM, host:8081 for a cluster's"
          + " JobManager, [auto] to let Beam decide")
  @HopMetadataProperty(key = "flink_master")
  private String flinkMaster = "[local]";

  @GuiWidgetElement(id = "parallelism", order = "20", parentId = PipelineRunConfiguration.GUI_PLUGIN_ELEMENT_PARENT_ID,
      type = GuiElementType.TEXT, label = "Parallelism",
      toolTip = "The number of parallel tasks of each step; blank for 2 on [local], Flink's default elsewhere")
  @HopMetadataProperty(key = "parallelism")
  private String parallelism = "";

  public BeamFlinkRunConfiguration() {
    super(EventTimeBeamFlinkEngine.ID, EventTimeBeamFlinkEngine.NAME);
  }

  public BeamFlinkRunConfiguration(BeamFlinkRunConfiguration other) {
    super(other);
    this.flinkMaster = other.flinkMaster;
    this.parallelism = other.parallelism;
  }

  @Override
  public BeamFlinkRunConfiguration clone() {
    return new BeamFlinkRunConfiguration(this);
  }

  @Override
  public BeamRunner runner() {
    return BeamRunner.FLINK;
  }

  @Override
  public String master() {
    return flinkMaster;
  }

  @Override
  public String parallelism() {
    return parallelism;
  }

  public String getFlinkMaster() {
    return flinkMaster;
  }

  public void setFlinkMaster(String flinkMaster) {
    this.flinkMaster = flinkMaster;
  }

  public String getParallelism() {
    return parallelism;
  }

  public void setParallelism(String parallelism) {
    this.parallelism = parallelism;
  }
}
