package io.eventtime.hop.beam.assembly;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
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
  static Path hop;

  @BeforeAll
  static void installHopWithThePluginAndRunTheSamplesLocally() throws Exception {
    hop = Files.createDirectories(work.resolve("hop"));
    Path libCore = Files.createDirectories(hop.resolve("lib/core"));
    try (Stream<Path> jars = Files.list(Path.of(System.getProperty("hop.lib.core")))) {
      for (Path jar : jars.toList()) {
        Files.copy(jar, libCore.resolve(jar.getFileName()));
      }
    }
    try (Stream<Path> jars = Files.list(libCore)) {
      assertThat(jars.map(p -> p.getFileName().toString())).anyMatch(n -> n.startsWith("hop-engine-"))
          .noneMatch(n -> n.startsWith("eventtime") || n.startsWith("beam-") || n.startsWith("flink-")
              || n.startsWith("spark-"));
    }
    List<String> unzipped = unzip(Path.of(System.getProperty("plugin.zip")), plugins());
    assertThat(unzipped).contains("transforms/eventtime/eventtime-hop-plugin-0.1.0-SNAPSHOT.jar",
        "transforms/eventtime/eventtime-hop-beam-0.1.0-SNAPSHOT.jar",
        "transforms/eventtime/lib/beam-sdks-java-core-2.62.0.jar",
        "transforms/eventtime/lib/beam-runners-direct-java-2.62.0.jar");
    assertThat(unzipped).noneMatch(n -> n.contains("/hop-core-") || n.contains("/hop-engine-")
        || n.contains("/flink-") || n.contains("/spark-"));

    Path runConfigs = Files.createDirectories(hop.resolve("config/metadata/pipeline-run-configuration"));
    Files.writeString(runConfigs.resolve("local.json"), """
        {
          "name": "local",
          "configurationVariables": [],
          "engineRunConfiguration": {
            "Local": {
              "feedback_size": "50000", "sample_size": "100", "sample_type_in_gui": "Last", "wait_time": "20",
              "rowset_size": "10000", "safe_mode": false, "show_feedback": false, "topo_sort": false,
              "gather_metrics": false, "transactional": false
            }
          }
        }
        """);
    Files.writeString(runConfigs.resolve("beam-direct.json"), """
        {
          "name": "beam-direct",
          "engineRunConfiguration": { "EventTimeBeamDirect": { "beam_options": "" } },
          "configurationVariables": []
        }
        """);
    Files.writeString(runConfigs.resolve("beam-flink.json"), """
        {
          "name": "beam-flink",
          "engineRunConfiguration": {
            "EventTimeBeamFlink": { "flink_master": "[local]", "parallelism": "2", "beam_options": "" }
          },
          "configurationVariables": []
        }
        """);
    Files.writeString(runConfigs.resolve("beam-spark.json"), """
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
    Path folder = plugins().resolve("transforms/eventtime/runners/flink/lib");
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
    List<String> unzipped = unzip(Path.of(System.getProperty(zipProperty)), plugins());
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

  private static Path plugins() throws IOException {
    return Files.createDirectories(hop.resolve("plugins"));
  }

  private static Path out(String runConfiguration, String sample) throws IOException {
    return Files.createDirectories(work.resolve("out").resolve(runConfiguration).resolve(sample.replace(".hpl", "")));
  }

  private static String hopRun(String runConfiguration, String sampleFile, Path out, int exitCode,
      String... jvmOptions) throws IOException, InterruptedException {
    Path sample = Path.of(System.getProperty("samples.folder"), sampleFile).toAbsolutePath().normalize();
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx1g");
    // what HOP_OPTIONS gives Hop's scripts
    command.addAll(List.of(jvmOptions));
    command.addAll(List.of(
        "-DHOP_CONFIG_FOLDER=" + hop.resolve("config"),
        "-DHOP_PLUGIN_BASE_FOLDERS=" + hop.resolve("plugins"),
        "-cp", hop.resolve("lib/core") + "/*",
        "org.apache.hop.run.HopRun",
        "--file=" + sample,
        "--runconfig=" + runConfiguration,
        "--level=Basic",
        "--parameters=OUTPUT_FOLDER=" + out));
    Path log = out.resolveSibling(out.getFileName() + ".log");
    Process process = new ProcessBuilder(command).directory(hop.toFile()).redirectErrorStream(true)
        .redirectOutput(log.toFile()).start();
    boolean ended = process.waitFor(4, TimeUnit.MINUTES);
    if (!ended) {
      process.destroyForcibly().waitFor();
    }
    String output = Files.readString(log);
    assertThat(ended).as("HopRun ended within 4 minutes:\n" + output).isTrue();
    assertThat(process.exitValue()).as("HopRun's exit code; its output:\n" + output).isEqualTo(exitCode);
    return output;
  }

  private static List<String> unzip(Path zip, Path into) throws IOException {
    List<String> names = new ArrayList<>();
    try (InputStream in = Files.newInputStream(zip); ZipInputStream z = new ZipInputStream(in)) {
      for (ZipEntry e; (e = z.getNextEntry()) != null; ) {
        Path target = into.resolve(e.getName()).normalize();
        if (!target.startsWith(into)) {
          throw new IOException("entry outside the folder: " + e.getName());
        }
        if (e.isDirectory()) {
          Files.createDirectories(target);
        } else {
          Files.createDirectories(target.getParent());
          Files.copy(z, target, StandardCopyOption.REPLACE_EXISTING);
          names.add(e.getName());
        }
      }
    }
    return names;
  }
}
