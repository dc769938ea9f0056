package io.eventtime.hop;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.hop.fileinput.EventFileInputMeta;
import io.eventtime.hop.fileinput.InputField;
import io.eventtime.hop.fileinput.InputFile;
import io.eventtime.hop.fileoutput.EventFileOutputMeta;
import io.eventtime.hop.window.EventTimeWindowMeta;
import io.eventtime.hop.window.GroupField;
import io.eventtime.hop.window.WindowAggregate;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hop.core.variables.Variables;
import org.apache.hop.pipeline.PipelineMeta;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * HopRun, in a JVM of its own as a user starts it, on a pipeline whose window groups by a field
 * the input does not have: the run is refused before any transform writes, with one message that
 * names the transform and the field, and none of our code in a stack trace.
 */
class HopRunRefusalTest {
  @TempDir
  Path dir;

  @BeforeAll
  static void hop() {
    HopTestEnvironment.init();
  }

  @Test
  void aGroupByFieldTheInputDoesNotHaveIsRefusedBeforeTheOutputIsTouched() throws Exception {
    Path events = Files.writeString(dir.resolve("events.ndjson"), "{\"event_time\":\"2026-03-01 00:01:00\"}\n");
    Path windows = Files.writeString(dir.resolve("windows.ndjson"), "kept\n");
    EventFileInputMeta read = new EventFileInputMeta();
    read.setDefault();
    read.setFiles(List.of(new InputFile(events.toString(), null)));
    read.setFields(List.of(new InputField("event_time", "String", null)));
    EventTimeWindowMeta w = new EventTimeWindowMeta();
    w.setDefault();
    w.setGroupFields(new ArrayList<>(List.of(new GroupField("merchant"))));
    w.setAggregates(new ArrayList<>(List.of(new WindowAggregate(null, "count", "events"))));
    EventFileOutputMeta write = new EventFileOutputMeta();
    write.setDefault();
    write.setFilename(windows.toString());
    PipelineMeta p = new PipelineBuilder("refused").transform("read", read).transform("window", w)
        .transform("write", write).hop("read", "window").hop("window", "write").build();
    Path hpl = Files.writeString(dir.resolve("refused.hpl"), p.getXml(new Variables()));

    Path config = Files.createDirectories(dir.resolve("config/metadata/pipeline-run-configuration"));
    Files.writeString(config.resolve("local.json"), HopInstallation.LOCAL_RUN_CONFIGURATION);
    Path log = dir.resolve("hop-run.log");
    Process hopRun = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), "-DHOP_CONFIG_FOLDER=" + dir.resolve("config"),
        "org.apache.hop.run.HopRun", "-f", hpl.toString(), "-r", "local")
        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    assertThat(hopRun.waitFor(5, TimeUnit.MINUTES)).as("HopRun ends").isTrue();
    String output = Files.readString(log);
    assertThat(hopRun.exitValue()).as(output).isNotZero();
    assertThat(output).containsOnlyOnce("The settings of transform 'window' are not valid:")
        .contains(" - window.0 - ERROR: The settings of transform 'window' are not valid:\n")
        .contains(" - window.0 -   - Group by: the group-by field 'merchant' is not in the input: pick one of event_time\n")
        .doesNotContain("at io.eventtime.");
    assertThat(Files.readString(windows)).isEqualTo("kept\n");
  }
}
