package io.eventtime.hop.assembly;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.hop.HopInstallation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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
    HopInstallation hop = HopInstallation.create(work.resolve("hop"), Path.of(System.getProperty("hop.lib.core")));
    assertThat(hop.libCoreJars()).anyMatch(n -> n.startsWith("hop-engine-")).noneMatch(n -> n.startsWith("eventtime"));
    assertThat(hop.unzipIntoPlugins(Path.of(System.getProperty("plugin.zip"))))
        .contains("transforms/eventtime/eventtime-hop-plugin-0.1.0-SNAPSHOT.jar",
            "transforms/eventtime/lib/eventtime-core-0.1.0-SNAPSHOT.jar",
            "transforms/eventtime/lib/kafka-clients-3.7.0.jar");

    Path out = Files.createDirectories(work.resolve("out"));
    Path sample = Path.of(System.getProperty("samples.folder"), "example-c-tumbling.hpl");
    String output = hop.hopRun(sample, "local", out, work.resolve("hop-run.log"), 0, Duration.ofMinutes(3));
    assertThat(output).contains("Event time window stats: {\"stats\":{\"rows_in\":5,\"rows_out\":4");
    assertThat(Files.readAllLines(out.resolve("example-c-tumbling.ndjson"))).containsExactly(
        "{\"merchant\":\"acme\",\"window_start\":\"2026-07-18 10:00:00\",\"window_end\":\"2026-07-18 10:01:00\",\"events\":1,\"total\":250}",
        "{\"merchant\":\"globex\",\"window_start\":\"2026-07-18 10:00:00\",\"window_end\":\"2026-07-18 10:01:00\",\"events\":1,\"total\":42}",
        "{\"merchant\":\"acme\",\"window_start\":\"2026-07-18 10:01:00\",\"window_end\":\"2026-07-18 10:02:00\",\"events\":2,\"total\":1090}",
        "{\"merchant\":\"globex\",\"window_start\":\"2026-07-18 10:02:00\",\"window_end\":\"2026-07-18 10:03:00\",\"events\":1,\"total\":7}");
  }
}
