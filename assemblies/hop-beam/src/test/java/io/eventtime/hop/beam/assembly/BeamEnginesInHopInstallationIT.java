package io.eventtime.hop.beam.assembly;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.hop.HopInstallation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Hop-on-Beam plugin zip, unzipped into the plugins/ folder of a minimal Hop installation
 * (hop-engine's jars in lib/core, nothing of ours or of Beam there), and the runners' zips beside
 * it, as a user installs them: HopRun runs samples from run configurations in the installation's
 * metadata on the "Beam Direct/Flink/Spark (eventtime)" engines, and each writes the files the
 * local engine writes, byte for byte. Before a runner's zip is installed, its engine refuses to
 * start and says which zip to unzip; Spark without its JVM option says which option to add.
 */
class BeamEnginesInHopInstallationIT {
  private static final String[] EXAMPLE_C = {
      "{\"merchant\":\"acme\",\"window_start\":\"2026-07-18 10:00:00\",\"window_end\":\"2026-07-18 10:01:00\",\"events\":1,\"total\":250}",
      "{\"merchant\":\"globex\",\"window_start\":\"2026-07-18 10:00:00\",\"window_end\":\"2026-07-18 10:01:00\",\"events\":1,\"total\":42}",
      "{\"merchant\":\"acme\",\"window_start\":\"2026-07-18 10:01:00\",\"window_end\":\"2026-07-18 10:02:00\",\"events\":2,\"total\":1090}",
      "{\"merchant\":\"globex\",\"window_start\":\"2026-07-18 10:02:00\",\"window_end\":\"2026-07-18 10:03:00\",\"events\":1,\"total\":7}"};
  /** Thousands of keyed rows in hopping windows with late and rejected rows; sessions with a late-row target. */
  private static final List<String> SAMPLES = List.of("keyed-hopping-late.hpl", "device-sessions-late.hpl");
  private static final String SPARK_OPENS = "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED";

  @TempDir
  static Path work;
  static HopInstallation hop;

  @BeforeAll
  static void installHopWithThePluginAndRunTheSamplesLocally() throws Exception {
    hop = HopInstallation.create(work.resolve("hop"), Path.of(System.getProperty("hop.lib.core")));
    assertThat(hop.libCoreJars()).anyMatch(n -> n.startsWith("hop-engine-"))
        .noneMatch(n -> n.startsWith("eventtime") || n.startsWith("beam-") || n.startsWith("flink-")
            || n.startsWith("spark-"));
    List<String> unzipped = hop.unzipIntoPlugins(Path.of(System.getProperty("plugin.zip")));
    assertThat(unzipped).contains("transforms/eventtime/eventtime-hop-plugin-0.1.0-SNAPSHOT.jar",
        "transforms/eventtime/eventtime-hop-beam-0.1.0-SNAPSHOT.jar",
        "transforms/eventtime/lib/beam-sdks-java-core-2.62.0.jar",
        "transforms/eventtime/lib/beam-runners-direct-java-2.62.0.jar");
    assertThat(unzipped).noneMatch(n -> n.contains("/hop-core-") || n.contains("/hop-engine-")
        || n.contains("/flink-") || n.contains("/spark-"));

    hop.addRunConfiguration("beam-direct", """
        {
          "name": "beam-direct",
          "engineRunConfiguration": { "EventTimeBeamDirect": { "beam_options": "" } },
          "configurationVariables": []
        }
        """);
    hop.addRunConfiguration("beam-flink", """
        {
          "name": "beam-flink",
          "engineRunConfiguration": {
            "EventTimeBeamFlink": { "flink_master": "[local]", "parallelism": "2", "beam_options": "" }
          },
          "configurationVariables": []
        }
        """);
    hop.addRunConfiguration("beam-spark", """
        {
          "name": "beam-spark",
          "engineRunConfiguration": { "EventTimeBeamSpark": { "spark_master": "local[2]", "beam_options": "" } },
          "configurationVariables": []
        }
        """);
    for (String sample : SAMPLES) {
      hopRun("local", sample, out("local", sample), 0);
    }
  }

  @Test
  void theDirectEngineRunsFromThePluginZipAlone() throws Exception {
    Path out = out("beam-direct", "example-c-tumbling.hpl");
    String output = hopRun("beam-direct", "example-c-tumbling.hpl", out, 0);
    assertThat(output).contains("Translating the pipeline for Beam's direct runner");
    assertThat(Files.readAllLines(out.resolve("example-c-tumbling.ndjson"))).containsExactly(EXAMPLE_C);
  }

  @Test
  void theFlinkEngineRunsOnceItsRunnerZipIsInstalled() throws Exception {
    Path folder = hop.plugins().resolve("transforms/eventtime/runners/flink/lib");
    String refused = hopRun("beam-flink", "example-c-tumbling.hpl", out("beam-flink-refused", "c"), 1);
    assertThat(refused).contains("the Beam FlinkRunner is not on the class path: run with the eventtime-hop-beam-flink"
        + " jar (see docs/hop-on-beam-clusters.md), or in a Hop installation unzip"
        + " eventtime-hop-beam-flink-<version>-hop-runner.zip into its plugins/ folder (it fills " + folder
        + "), or choose another runner");

    installRunner("flink.runner.zip", "flink");
    for (String sample : SAMPLES) {
      String output = hopRun("beam-flink", sample, out("beam-flink", sample), 0);
      assertThat(output).contains("Translating the pipeline for Beam's flink runner");
      assertSameFilesAsTheLocalEngine("beam-flink", sample);
    }
  }

  @Test
  void theSparkEngineRunsOnceItsRunnerZipIsInstalledAndTheJvmOpensDirectBuffers() throws Exception {
    installRunner("spark.runner.zip", "spark");
    String refused = hopRun("beam-spark", "example-c-tumbling.hpl", out("beam-spark-refused", "c"), 1);
    assertThat(refused).contains("Spark needs the JVM option --add-opens=java.base/sun.nio.ch=ALL-UNNAMED: add it to"
        + " HOP_OPTIONS before starting Hop (hop-gui.sh, hop-run.sh) or to the java command");

    for (String sample : SAMPLES) {
      String output = hopRun("beam-spark", sample, out("beam-spark", sample), 0, SPARK_OPENS);
      assertThat(output).contains("Translating the pipeline for Beam's spark runner");
      assertSameFilesAsTheLocalEngine("beam-spark", sample);
    }
  }

  private static void installRunner(String zipProperty, String runner) throws IOException {
    List<String> unzipped = hop.unzipIntoPlugins(Path.of(System.getProperty(zipProperty)));
    assertThat(unzipped).isNotEmpty()
        .allMatch(n -> n.startsWith("transforms/eventtime/runners/" + runner + "/lib/") && n.endsWith(".jar"))
        .anyMatch(n -> n.contains("/beam-runners-" + runner))
        .noneMatch(n -> n.contains("/eventtime-") || n.contains("/hop-core-") || n.contains("/hop-engine-"))
        .noneMatch(n -> n.contains(runner.equals("flink") ? "/spark-" : "/flink-"));
  }

  private static void assertSameFilesAsTheLocalEngine(String runConfiguration, String sample) throws IOException {
    Path local = out("local", sample);
    Path beam = out(runConfiguration, sample);
    List<String> names;
    try (Stream<Path> files = Files.list(local)) {
      names = files.map(p -> p.getFileName().toString()).sorted().toList();
    }
    try (Stream<Path> files = Files.list(beam)) {
      assertThat(files.map(p -> p.getFileName().toString()).sorted()).containsExactlyElementsOf(names);
    }
    assertThat(names).hasSizeGreaterThanOrEqualTo(2);
    for (String name : names) {
      List<String> expected = Files.readAllLines(local.resolve(name));
      assertThat(expected).as(name).isNotEmpty();
      assertThat(Files.readAllLines(beam.resolve(name))).as(runConfiguration + ": " + name)
          .containsExactlyElementsOf(expected);
    }
  }

  private static Path out(String runConfiguration, String sample) throws IOException {
    return Files.createDirectories(work.resolve("out").resolve(runConfiguration).resolve(sample.replace(".hpl", "")));
  }

  private static String hopRun(String runConfiguration, String sampleFile, Path out, int exitCode,
      String... jvmOptions) throws IOException, InterruptedException {
    Path sample = Path.of(System.getProperty("samples.folder"), sampleFile);
    return hop.hopRun(sample, runConfiguration, out, out.resolveSibling(out.getFileName() + ".log"), exitCode,
        Duration.ofMinutes(4), jvmOptions);
  }
}
