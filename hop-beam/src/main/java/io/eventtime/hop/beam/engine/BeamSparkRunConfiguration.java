package io.eventtime.hop.beam.engine;

import io.eventtime.beam.RunnerDefaults;
import io.eventtime.hop.beam.BeamRunner;
import org.apache.hop.core.gui.plugin.GuiElementType;
import org.apache.hop.core.gui.plugin.GuiPlugin;
import org.apache.hop.core.gui.plugin.GuiWidgetElement;
import org.apache.hop.metadata.api.HopMetadataProperty;
import org.apache.hop.pipeline.config.PipelineRunConfiguration;

/** The settings of a run on Beam's Spark runner, as the run configuration dialog shows them. */
@GuiPlugin(description = "Beam Spark (eventtime) run configuration")
public class BeamSparkRunConfiguration extends BeamRunConfiguration {

  @GuiWidgetElement(id = "sparkMaster", order = "10", parentId = PipelineRunConfiguration.GUI_PLUGIN_ELEMENT_PARENT_ID,
      type = GuiElementType.TEXT, label = "Spark master",
      toolTip = "Where Spark runs: local[2] in this JVM with 2 threads, spark://host:7077 for a cluster")
  @HopMetadataProperty(key = "spark_master")
  private String sparkMaster = RunnerDefaults.SPARK_MASTER;

  public BeamSparkRunConfiguration() {
    super(EventTimeBeamSparkEngine.ID, EventTimeBeamSparkEngine.NAME);
  }

  public BeamSparkRunConfiguration(BeamSparkRunConfiguration other) {
    super(other);
    this.sparkMaster = other.sparkMaster;
  }

  @Override
  public BeamSparkRunConfiguration clone() {
    return new BeamSparkRunConfiguration(this);
  }

  @Override
  public BeamRunner runner() {
    return BeamRunner.SPARK;
  }

  @Override
  public String master() {
    return sparkMaster;
  }

  public String getSparkMaster() {
    return sparkMaster;
  }

  public void setSparkMaster(String sparkMaster) {
    this.sparkMaster = sparkMaster;
  }
}
