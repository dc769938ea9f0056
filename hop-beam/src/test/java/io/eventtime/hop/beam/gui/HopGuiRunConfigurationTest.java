package io.eventtime.hop.beam.gui;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.hop.beam.HopBeamTesting;
import io.eventtime.hop.beam.engine.BeamDirectRunConfiguration;
import io.eventtime.hop.beam.engine.BeamFlinkRunConfiguration;
import io.eventtime.hop.beam.engine.BeamSparkRunConfiguration;
import io.eventtime.hop.gui.VirtualDisplay;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.apache.hop.core.encryption.Encr;
import org.apache.hop.core.variables.DescribedVariable;
import org.apache.hop.core.variables.Variables;
import org.apache.hop.metadata.api.IHopMetadataSerializer;
import org.apache.hop.metadata.serializer.json.JsonMetadataProvider;
import org.apache.hop.pipeline.config.PipelineRunConfiguration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The run configurations of the Beam engines in a real HopGui, under Xvfb (see
 * RunConfigurationRobot): a user creates one per engine in HopGui's run configuration editor, and
 * runs a sample with the Direct one from HopGui's Run. This test reads the run configurations
 * HopGui saved from the metadata folder, as HopRun would, and compares the run's files with the
 * local engine's. Screenshots go to target/gui-screenshots, or docs/images with
 * -Deventtime.docs.images=true. The GUI JVM is killed after 4 minutes.
 */
@Tag("gui")
class HopGuiRunConfigurationTest {
  private static VirtualDisplay display;

  @TempDir
  Path work;

  @BeforeAll
  static void virtualDisplay() throws Exception {
    HopBeamTesting.initHop();
    display = VirtualDisplay.start();
  }

  @AfterAll
  static void stopDisplay() throws Exception {
    if (display != null) {
      display.close();
    }
  }

  @Test
  void aUserPicksTheBeamEnginesInHopGuisRunConfigurationEditorAndRunsASample() throws Exception {
    Path images = VirtualDisplay.imagesFolder();
    Path metadata = work.resolve("metadata");
    Path sample = HopBeamTesting.samples().resolve("sessions-late-and-rejected.hpl");
    Path guiOutput = work.resolve("gui-out");
    VirtualDisplay.GuiRun run = display.runHopGui(RunConfigurationRobot.class, work, 4,
        List.of("-DHOP_METADATA_FOLDER=" + metadata), images.toString(), work.toString(), sample.toString(),
        guiOutput.toString());
    assertThat(run.ended()).as("HopGui ended within 4 minutes; its log:\n" + run.log()).isTrue();
    assertThat(run.get("error")).as("the robot's error; the windows: " + run.get("shells")
        + "; a screenshot: " + work.resolve("failure.png") + "; the log:\n" + run.log()).isNull();
    assertThat(run.exit()).as("HopGui's exit; the log:\n" + run.log()).isZero();
    assertThat(run.get("done")).isEqualTo("yes");

    // the engine combo offers the three engines, and each shows its own fields
    for (String prefix : List.of("flink", "spark", "direct")) {
      assertThat(run.get(prefix + ".engines")).as(prefix)
          .isEqualTo("Beam Direct (eventtime),Beam Flink (eventtime),Beam Spark (eventtime)");
    }
    assertThat(run.get("flink.labels")).isEqualTo("Flink master,Parallelism,Other Beam options");
    assertThat(run.get("spark.labels")).isEqualTo("Spark master,Other Beam options");
    assertThat(run.get("direct.labels")).isEqualTo("Other Beam options");
    assertThat(run.get("flink.hopgui")).isEqualTo("BeamFlinkRunConfiguration | --objectReuse=true");

    // what HopGui saved, read back from the metadata folder
    IHopMetadataSerializer<PipelineRunConfiguration> saved =
        new JsonMetadataProvider(Encr.getEncoder(), metadata.toString(), new Variables())
            .getSerializer(PipelineRunConfiguration.class);
    assertThat(saved.listObjectNames()).containsExactlyInAnyOrder("beam-flink-gui", "beam-spark-gui", "beam-direct-gui");

    PipelineRunConfiguration flink = saved.load("beam-flink-gui");
    assertThat(flink.getDescription()).isEqualTo("eventtime on Beam's flink runner");
    assertThat(flink.getEngineRunConfiguration()).isInstanceOf(BeamFlinkRunConfiguration.class);
    BeamFlinkRunConfiguration f = (BeamFlinkRunConfiguration) flink.getEngineRunConfiguration();
    assertThat(List.of(f.getEnginePluginId(), f.getEnginePluginName(), f.getFlinkMaster(), f.getParallelism(),
        f.getBeamOptions())).containsExactly("EventTimeBeamFlink", "Beam Flink (eventtime)", "${FLINK_MASTER}", "4",
        "--objectReuse=true");
    assertThat(flink.getConfigurationVariables()).extracting(DescribedVariable::getName, DescribedVariable::getValue,
        DescribedVariable::getDescription).containsExactly(org.assertj.core.groups.Tuple.tuple("FLINK_MASTER",
        "jobmanager:8081", "the cluster"));

    PipelineRunConfiguration spark = saved.load("beam-spark-gui");
    assertThat(spark.getEngineRunConfiguration()).isInstanceOf(BeamSparkRunConfiguration.class);
    BeamSparkRunConfiguration s = (BeamSparkRunConfiguration) spark.getEngineRunConfiguration();
    assertThat(List.of(s.getEnginePluginId(), s.getEnginePluginName(), s.getSparkMaster(), s.getBeamOptions()))
        .containsExactly("EventTimeBeamSpark", "Beam Spark (eventtime)", "spark://spark-master:7077",
            "--storageLevel=MEMORY_ONLY");
    assertThat(spark.getConfigurationVariables()).isEmpty();

    PipelineRunConfiguration direct = saved.load("beam-direct-gui");
    assertThat(direct.getEngineRunConfiguration()).isInstanceOf(BeamDirectRunConfiguration.class);
    BeamDirectRunConfiguration d = (BeamDirectRunConfiguration) direct.getEngineRunConfiguration();
    assertThat(List.of(d.getEnginePluginId(), d.getEnginePluginName(), d.getBeamOptions()))
        .containsExactly("EventTimeBeamDirect", "Beam Direct (eventtime)", "--targetParallelism=${DIRECT_THREADS}");
    assertThat(direct.getConfigurationVariables()).extracting(DescribedVariable::getName, DescribedVariable::getValue)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("DIRECT_THREADS", "2"));

    // the run from HopGui: the Direct engine, the run configuration's variable resolved, the local engine's files
    assertThat(run.get("run.engine")).isEqualTo("EventTimeBeamDirectEngine");
    assertThat(run.get("run.configuration")).isEqualTo("beam-direct-gui");
    assertThat(run.get("run.errors")).as(run.log()).isEqualTo("0");
    Path localOutput = work.resolve("local-out");
    HopBeamTesting.runLocal(sample, localOutput);
    Map<String, List<String>> expected = HopBeamTesting.files(localOutput);
    assertThat(expected).isNotEmpty();
    Map<String, List<String>> actual = HopBeamTesting.files(guiOutput);
    assertThat(actual.keySet()).isEqualTo(expected.keySet());
    for (String file : expected.keySet()) {
      assertThat(actual.get(file)).as(file).containsExactlyElementsOf(expected.get(file));
    }

    for (String image : List.of("hop-run-configuration-flink.png", "hop-run-options-beam.png", "hop-run-on-beam.png")) {
      BufferedImage png = ImageIO.read(images.resolve(image).toFile());
      assertThat(png).as(image).isNotNull();
      assertThat(png.getWidth() + "x" + png.getHeight()).as(image).isEqualTo(run.get("image." + image));
      assertThat(png.getWidth()).as(image).isGreaterThan(200);
      assertThat(png.getHeight()).as(image).isGreaterThan(150);
    }
  }
}
