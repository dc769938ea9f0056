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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Hop-on-Beam plugin zip, unzipped into the plugins/ folder of a minimal Hop installation
 * (hop-engine's jars in lib/core, nothing of ours or of Beam there): Hop finds the Beam engines,
 * and HopRun runs a sample on the "Beam Direct (eventtime)" engine from a run configuration in the
 * installation's metadata, writing the contract's rows; the Flink engine, whose runner is not in
 * the zip, refuses to start and says which jar has it.
 */
class BeamEnginesInHopInstallationIT {
  private static final String[] EXAMPLE_C = {
      "{\"merchant\":\"acme\",\"window_start\":\"2026-07-18 10:00:00\",\"window_end\":\"2026-07-18 10:01:00\",\"events\":1,\"total\":250}",
      "{\"merchant\":\"globex\",\"window_start\":\"2026-07-18 10:00:00\",\"window_end\":\"2026-07-18 10:01:00\",\"events\":1,\"total\":42}",
      "{\"merchant\":\"acme\",\"window_start\":\"2026-07-18 10:01:00\",\"window_end\":\"2026-07-18 10:02:00\",\"events\":2,\"total\":1090}",
      "{\"merchant\":\"globex\",\"window_start\":\"2026-07-18 10:02:00\",\"window_end\":\"2026-07-18 10:03:00\",\"events\":1,\"total\":7}"};

  @TempDir
  Path work;

  @Test
  void hopRunRunsASampleOnTheBeamEnginesFromTheZip() throws Exception {
    Path hop = Files.createDirectories(work.resolve("hop"));
    Path libCore = Files.createDirectories(hop.resolve("lib/core"));
    try (Stream<Path> jars = Files.list(Path.of(System.getProperty("hop.lib.core")))) {
      for (Path jar : jars.toList()) {
        Files.copy(jar, libCore.resolve(jar.getFileName()));
      }
    }
    try (Stream<Path> jars = Files.list(libCore)) {
      assertThat(jars.map(p -> p.getFileName().toString())).anyMatch(n -> n.startsWith("hop-engine-"))
          .noneMatch(n -> n.startsWith("eventtime") || n.startsWith("beam-"));
    }
    Path plugins = Files.createDirectories(hop.resolve("plugins"));
    List<String> unzipped = unzip(Path.of(System.getProperty("plugin.zip")), plugins);
    assertThat(unzipped).contains("transforms/eventtime/eventtime-hop-plugin-0.1.0-SNAPSHOT.jar",
        "transforms/eventtime/eventtime-hop-beam-0.1.0-SNAPSHOT.jar",
        "transforms/eventtime/lib/beam-sdks-java-core-2.62.0.jar",
        "transforms/eventtime/lib/beam-runners-direct-java-2.62.0.jar");
    assertThat(unzipped).noneMatch(n -> n.contains("/hop-core-") || n.contains("/hop-engine-"));

    Path runConfigs = Files.createDirectories(hop.resolve("config/metadata/pipeline-run-configuration"));
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
    Path out = Files.createDirectories(work.resolve("out"));
    String output = hopRun(hop, "beam-direct", out, 0);
    assertThat(output).contains("Translating the pipeline for Beam's direct runner");
    assertThat(Files.readAllLines(out.resolve("example-c-tumbling.ndjson"))).containsExactly(EXAMPLE_C);

    String flink = hopRun(hop, "beam-flink", out, 1);
    assertThat(flink).contains("the Beam FlinkRunner is not on the class path: run with the eventtime-hop-beam-flink"
        + " jar (see docs/hop-on-beam-clusters.md), or choose another runner");
  }

  private String hopRun(Path hop, String runConfiguration, Path out, int exitCode)
      throws IOException, InterruptedException {
    Path sample = Path.of(System.getProperty("samples.folder"), "example-c-tumbling.hpl").toAbsolutePath().normalize();
    List<String> command = List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx1g",
        "-DHOP_CONFIG_FOLDER=" + hop.resolve("config"),
        "-DHOP_PLUGIN_BASE_FOLDERS=" + hop.resolve("plugins"),
        "-cp", hop.resolve("lib/core") + "/*",
        "org.apache.hop.run.HopRun",
        "--file=" + sample,
        "--runconfig=" + runConfiguration,
        "--level=Basic",
        "--parameters=OUTPUT_FOLDER=" + out);
    Path log = work.resolve("hop-run-" + runConfiguration + ".log");
    Process process = new ProcessBuilder(command).directory(hop.toFile()).redirectErrorStream(true)
        .redirectOutput(log.toFile()).start();
    boolean ended = process.waitFor(4, TimeUnit.MINUTES);
    if (!ended) {
      process.destroyForcibly();
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
