package io.eventtime.hop.beam.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.eventtime.hop.beam.HopBeamTesting;
import io.eventtime.hop.beam.TranslationException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hop.core.encryption.Encr;
import org.apache.hop.core.gui.plugin.GuiPluginType;
import org.apache.hop.core.gui.plugin.GuiWidgetElement;
import org.apache.hop.core.logging.HopLogStore;
import org.apache.hop.core.plugins.IPlugin;
import org.apache.hop.core.plugins.PluginRegistry;
import org.apache.hop.core.variables.Variables;
import org.apache.hop.metadata.api.IHopMetadataProvider;
import org.apache.hop.metadata.serializer.json.JsonMetadataProvider;
import org.apache.hop.pipeline.Pipeline;
import org.apache.hop.pipeline.PipelineMeta;
import org.apache.hop.pipeline.config.IPipelineEngineRunConfiguration;
import org.apache.hop.pipeline.config.PipelineRunConfiguration;
import org.apache.hop.pipeline.engine.EngineMetrics;
import org.apache.hop.pipeline.engine.IEngineComponent;
import org.apache.hop.pipeline.engine.IPipelineEngine;
import org.apache.hop.pipeline.engine.PipelineEngineFactory;
import org.apache.hop.pipeline.engine.PipelineEnginePluginType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pipeline engine plugins as Hop uses them: a run configuration saved in a project's
 * metadata, the engine Hop's factory makes from it, the run and its metrics.
 */
class EventTimeBeamEngineTest {
  @TempDir
  Path dir;

  @BeforeAll
  static void hop() {
    HopBeamTesting.initHop();
  }

  /** A project's metadata with one run configuration. */
  static IHopMetadataProvider metadataWith(Path folder, String name, IPipelineEngineRunConfiguration engine)
      throws Exception {
    JsonMetadataProvider metadata = new JsonMetadataProvider(Encr.getEncoder(), folder.toString(), new Variables());
    metadata.getSerializer(PipelineRunConfiguration.class)
        .save(new PipelineRunConfiguration(name, "", null, List.of(), engine, null, false));
    return metadata;
  }

  @Test
  void theDesignerFindsTheEnginesAndTheFieldsOfTheirRunConfigurations() throws Exception {
    PluginRegistry registry = PluginRegistry.getInstance();
    assertThat(registry.getPlugins(PipelineEnginePluginType.class).stream().map(IPlugin::getName))
        .contains("Beam Direct (eventtime)", "Beam Flink (eventtime)", "Beam Spark (eventtime)");
    // as HopGui does when it starts: the GUI plugins, whose annotated fields make the run configuration dialog
    PluginRegistry.addPluginType(GuiPluginType.getInstance());
    GuiPluginType.getInstance().searchPlugins();
    List<String> guiPlugins = registry.getPlugins(GuiPluginType.class).stream()
        .map(p -> p.getClassMap().values().iterator().next()).toList();
    assertThat(guiPlugins).contains(BeamDirectRunConfiguration.class.getName(), BeamFlinkRunConfiguration.class.getName(),
        BeamSparkRunConfiguration.class.getName());
    assertThat(labels(BeamFlinkRunConfiguration.class)).containsExactly("Flink master", "Parallelism", "Other Beam options");
    assertThat(labels(BeamSparkRunConfiguration.class)).containsExactly("Spark master", "Other Beam options");
    assertThat(labels(BeamDirectRunConfiguration.class)).containsExactly("Other Beam options");
  }

  /** The labels of the fields the dialog shows, in their order: the class's own and those it inherits. */
  private static List<String> labels(Class<?> runConfiguration) {
    List<GuiWidgetElement> elements = new java.util.ArrayList<>();
    for (Class<?> c = runConfiguration; c != null; c = c.getSuperclass()) {
      java.util.Arrays.stream(c.getDeclaredFields()).map(f -> f.getAnnotation(GuiWidgetElement.class))
          .filter(java.util.Objects::nonNull)
          .filter(g -> g.parentId().equals(PipelineRunConfiguration.GUI_PLUGIN_ELEMENT_PARENT_ID))
          .forEach(elements::add);
    }
    return elements.stream().sorted(java.util.Comparator.comparing(GuiWidgetElement::order))
        .map(GuiWidgetElement::label).toList();
  }

  @Test
  void theRunConfigurationsAreSavedAndLoadedWithTheirSettings() throws Exception {
    BeamFlinkRunConfiguration flink = new BeamFlinkRunConfiguration();
    flink.setFlinkMaster("jobmanager:8081");
    flink.setParallelism("4");
    flink.setBeamOptions("--maxBundleSize=500");
    BeamSparkRunConfiguration spark = new BeamSparkRunConfiguration();
    spark.setSparkMaster("spark://master:7077");
    IHopMetadataProvider metadata = metadataWith(dir, "flink", flink);
    metadata.getSerializer(PipelineRunConfiguration.class)
        .save(new PipelineRunConfiguration("spark", "", null, List.of(), spark, null, false));

    IHopMetadataProvider reloaded = new JsonMetadataProvider(Encr.getEncoder(), dir.toString(), new Variables());
    BeamFlinkRunConfiguration f = (BeamFlinkRunConfiguration) reloaded.getSerializer(PipelineRunConfiguration.class)
        .load("flink").getEngineRunConfiguration();
    assertThat(List.of(f.getEnginePluginId(), f.getFlinkMaster(), f.getParallelism(), f.getBeamOptions()))
        .containsExactly("EventTimeBeamFlink", "jobmanager:8081", "4", "--maxBundleSize=500");
    BeamSparkRunConfiguration s = (BeamSparkRunConfiguration) reloaded.getSerializer(PipelineRunConfiguration.class)
        .load("spark").getEngineRunConfiguration();
    assertThat(List.of(s.getEnginePluginId(), s.getSparkMaster())).containsExactly("EventTimeBeamSpark", "spark://master:7077");
    assertThat(Files.readString(dir.resolve("pipeline-run-configuration/flink.json")))
        .contains("\"EventTimeBeamFlink\"", "\"flink_master\": \"jobmanager:8081\"", "\"parallelism\": \"4\"");
  }

  @Test
  void aSampleRunsThroughHopsEngineFactory_withItsMetrics() throws Exception {
    IHopMetadataProvider metadata = metadataWith(dir.resolve("metadata"), "direct", new BeamDirectRunConfiguration());
    PipelineMeta meta = HopBeamTesting.load(HopBeamTesting.samples().resolve("sessions-late-and-rejected.hpl"));
    IPipelineEngine<PipelineMeta> engine = PipelineEngineFactory.createPipelineEngine(new Variables(), "direct",
        metadata, meta);
    assertThat(engine).isInstanceOf(EventTimeBeamDirectEngine.class);
    engine.setParameterValue("OUTPUT_FOLDER", dir.resolve("out").toString());
    engine.activateParameters(engine);
    engine.execute();
    engine.waitUntilFinished();

    assertThat(engine.getErrors()).isZero();
    assertThat(engine.isFinished()).isTrue();
    assertThat(Files.readAllLines(dir.resolve("out/sessions.ndjson"))).hasSize(4);
    EngineMetrics metrics = engine.getEngineMetrics();
    IEngineComponent window = engine.findComponent("Window", 0);
    assertThat(List.of(window.getLinesRead(), window.getLinesWritten(), window.getLinesRejected(),
        metrics.getComponentMetric(window, EventTimeBeamEngine.METRIC_LATE),
        metrics.getComponentMetric(window, Pipeline.METRIC_READ))).containsExactly(9L, 5L, 2L, 1L, 9L);
    assertThat(engine.findComponent("Read events", 0).getLinesInput()).isEqualTo(9L);
    assertThat(engine.findComponent("Write windows", 0).getLinesOutput()).isEqualTo(4L);
    assertThat(engine.findComponent("Write rejected rows", 0).getLinesOutput()).isEqualTo(2L);
    assertThat(engine.getResult().getNrErrors()).isZero();
    assertThat(engine.getResult().getNrLinesRejected()).isEqualTo(2L);
    assertThat(engine.getComponents()).hasSize(5);
  }

  @Test
  void aRunThatFailsLogsWhyAtItsEnd() throws Exception {
    IHopMetadataProvider metadata = metadataWith(dir.resolve("metadata"), "direct", new BeamDirectRunConfiguration());
    PipelineMeta meta = HopBeamTesting.load(HopBeamTesting.samples().resolve("sessions-late-and-rejected.hpl"));
    Path notAFolder = Files.writeString(dir.resolve("not-a-folder"), "a file");
    IPipelineEngine<PipelineMeta> engine = PipelineEngineFactory.createPipelineEngine(new Variables(), "direct",
        metadata, meta);
    engine.setParameterValue("OUTPUT_FOLDER", notAFolder.toString());
    engine.activateParameters(engine);
    engine.execute();
    engine.waitUntilFinished();

    String log = HopLogStore.getAppender().getBuffer(engine.getLogChannelId(), false).toString();
    assertThat(engine.getErrors()).isEqualTo(1);
    // the counts before the failure depend on the order the runner went in; the outcome does not
    assertThat(HopRunTest.logMessages(log)).as(log).contains("sessions-late-and-rejected - ERROR: Execution failed on"
        + " Beam's direct runner with run configuration 'direct': Could not create folder \"file://" + notAFolder
        + "\" because it already exists and is a file.")
        .noneMatch(line -> line.contains("Execution finished"));
  }

  @Test
  void aPipelineBeamCannotRunIsRefusedWhenPrepared() throws Exception {
    IHopMetadataProvider metadata = metadataWith(dir.resolve("metadata"), "direct", new BeamDirectRunConfiguration());
    PipelineMeta meta = HopBeamTesting.load(HopBeamTesting.samples().resolve("example-c-tumbling.hpl"));
    meta.findTransform("Window").setCopies(3);
    IPipelineEngine<PipelineMeta> engine = PipelineEngineFactory.createPipelineEngine(new Variables(), "direct",
        metadata, meta);
    engine.activateParameters(engine);
    assertThatThrownBy(engine::prepareExecution).isInstanceOf(TranslationException.class)
        .hasMessageContaining("Transform 'Window': it runs in 3 copies");
    assertThat(engine.getErrors()).isEqualTo(1);
  }
}
