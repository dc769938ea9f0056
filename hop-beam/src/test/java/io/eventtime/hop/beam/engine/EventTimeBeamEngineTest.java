package io.eventtime.hop.beam.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.eventtime.hop.beam.HopBeamTesting;
import io.eventtime.hop.beam.TranslationException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hop.core.encryption.Encr;
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
    PipelineMeta meta = HopBeamTesting.load(HopBeamTesting.samples().resolve("keyed-hopping-late.hpl"));
    IPipelineEngine<PipelineMeta> engine = PipelineEngineFactory.createPipelineEngine(new Variables(), "direct",
        metadata, meta);
    assertThat(engine).isInstanceOf(EventTimeBeamDirectEngine.class);
    engine.setParameterValue("OUTPUT_FOLDER", dir.resolve("out").toString());
    engine.activateParameters(engine);
    engine.execute();
    engine.waitUntilFinished();

    assertThat(engine.getErrors()).isZero();
    assertThat(engine.isFinished()).isTrue();
    assertThat(Files.readAllLines(dir.resolve("out/keyed-hopping-late.ndjson"))).hasSize(75);
    EngineMetrics metrics = engine.getEngineMetrics();
    IEngineComponent window = engine.findComponent("Window", 0);
    assertThat(List.of(window.getLinesRead(), window.getLinesWritten(),
        metrics.getComponentMetric(window, EventTimeBeamEngine.METRIC_LATE),
        metrics.getComponentMetric(window, Pipeline.METRIC_READ))).containsExactly(2992L, 803L, 75L, 2992L);
    IEngineComponent stamp = engine.findComponent("Stamp", 0);
    assertThat(List.of(stamp.getLinesRead(), stamp.getLinesWritten(), stamp.getLinesRejected()))
        .containsExactly(3000L, 2992L, 8L);
    assertThat(engine.findComponent("Read events", 0).getLinesInput()).isEqualTo(3000L);
    assertThat(engine.findComponent("Write windows", 0).getLinesOutput()).isEqualTo(728L);
    assertThat(engine.getResult().getNrErrors()).isZero();
    assertThat(engine.getComponents()).hasSize(6);
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
