package io.eventtime.hop.assembly;

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
 * The plugin zip, unzipped into the plugins/ folder of a minimal Hop installation (hop-engine's
 * jars in lib/core, nothing of ours there), is found by Hop: HopRun runs a sample pipeline from
 * the command line in its own JVM and writes the contract's rows.
 */
class PluginZipInHopInstallationIT {
  @TempDir
  Path work;

  @Test
  void hopRunRunsASamplePipelineWithThePluginFromTheZip() throws Exception {
    Path hop = Files.createDirectories(work.resolve("hop"));
    Path libCore = Files.createDirectories(hop.resolve("lib/core"));
    try (Stream<Path> jars = Files.list(Path.of(System.getProperty("hop.lib.core")))) {
      for (Path jar : jars.toList()) {
        Files.copy(jar, libCore.resolve(jar.getFileName()));
      }
    }
    try (Stream<Path> jars = Files.list(libCore)) {
      assertThat(jars.map(p -> p.getFileName().toString()))
          .anyMatch(n -> n.startsWith("hop-engine-")).noneMatch(n -> n.startsWith("eventtime"));
    }
    Path plugins = Files.createDirectories(hop.resolve("plugins"));
    List<String> unzipped = unzip(Path.of(System.getProperty("plugin.zip")), plugins);
    assertThat(unzipped).contains("transforms/eventtime/eventtime-hop-plugin-0.1.0-SNAPSHOT.jar",
        "transforms/eventtime/lib/eventtime-core-0.1.0-SNAPSHOT.jar");

    Path config = Files.createDirectories(hop.resolve("config"));
    Path runConfigs = Files.createDirectories(config.resolve("metadata/pipeline-run-configuration"));
    Files.writeString(runConfigs.resolve("local.json"), """
        {
          "name": "local",
          "description": "The local engine",
          "defaultSelection": true,
          "configurationVariables": [],
          "engineRunConfiguration": {
            "Local": {
              "feedback_size": "50000",
              "sample_size": "100",
              "sample_type_in_gui": "Last",
              "wait_time": "20",
              "rowset_size": "10000",
              "safe_mode": false,
              "show_feedback": false,
              "topo_sort": false,
              "gather_metrics": false,
              "transactional": false
            }
          }
        }
        """);
    Path out = Files.createDirectories(work.resolve("out"));
    Path sample = Path.of(System.getProperty("samples.folder"), "example-c-tumbling.hpl").toAbsolutePath().normalize();

    List<String> command = List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx512m",
        "-DHOP_CONFIG_FOLDER=" + config,
        "-DHOP_PLUGIN_BASE_FOLDERS=" + plugins,
        "-cp", libCore + "/*",
        "org.apache.hop.run.HopRun",
        "--file=" + sample,
        "--runconfig=local",
        "--level=Basic",
        "--parameters=OUTPUT_FOLDER=" + out);
    Path log = work.resolve("hop-run.log");
    Process process = new ProcessBuilder(command).directory(hop.toFile()).redirectErrorStream(true)
        .redirectOutput(log.toFile()).start();
    boolean ended = process.waitFor(3, TimeUnit.MINUTES);
    if (!ended) {
      process.destroyForcibly();
    }
    String output = Files.readString(log);
    assertThat(ended).as("HopRun ended within 3 minutes:\n" + output).isTrue();
    assertThat(process.exitValue()).as("HopRun's exit code; its output:\n" + output).isZero();
    assertThat(output).contains("Event time window stats: {\"stats\":{\"rows_in\":5,\"rows_out\":4");
    assertThat(Files.readAllLines(out.resolve("example-c-tumbling.ndjson"))).containsExactly(
        "{\"merchant\":\"acme\",\"window_start\":\"2026-07-18 10:00:00\",\"window_end\":\"2026-07-18 10:01:00\",\"events\":1,\"total\":250}",
        "{\"merchant\":\"globex\",\"window_start\":\"2026-07-18 10:00:00\",\"window_end\":\"2026-07-18 10:01:00\",\"events\":1,\"total\":42}",
        "{\"merchant\":\"acme\",\"window_start\":\"2026-07-18 10:01:00\",\"window_end\":\"2026-07-18 10:02:00\",\"events\":2,\"total\":1090}",
        "{\"merchant\":\"globex\",\"window_start\":\"2026-07-18 10:02:00\",\"window_end\":\"2026-07-18 10:03:00\",\"events\":1,\"total\":7}");
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
