package io.eventtime.hop.beam.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.hop.beam.HopBeamTesting;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hop's own command-line runner, HopRun, in a JVM of its own, runs a sample with a run
 * configuration of the Beam Direct engine found in the project's metadata folder.
 */
class HopRunTest {
  @TempDir
  Path dir;

  @BeforeAll
  static void hop() {
    HopBeamTesting.initHop();
  }

  @Test
  void hopRunRunsASampleOnTheBeamDirectEngine() throws Exception {
    Path config = dir.resolve("config");
    EventTimeBeamEngineTest.metadataWith(config.resolve("metadata"), "beam-direct", new BeamDirectRunConfiguration());
    Path out = dir.resolve("out");
    Path log = dir.resolve("hop-run.log");
    Process hopRun = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), "-DHOP_CONFIG_FOLDER=" + config,
        "org.apache.hop.run.HopRun", "-f", HopBeamTesting.samples().resolve("sessions-late-and-rejected.hpl").toString(),
        "-r", "beam-direct", "-p", "OUTPUT_FOLDER=" + out)
        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    assertThat(hopRun.waitFor(5, TimeUnit.MINUTES)).as("HopRun ends").isTrue();
    String output = Files.readString(log);
    assertThat(hopRun.exitValue()).as(output).isZero();
    assertThat(output).contains("Translating the pipeline for Beam's direct runner");
    // the end of the run, as the local engine logs it: each transform's counts (transforms by name), the
    // window's stats, the outcome
    assertThat(logMessages(output)).as(output).containsSequence(
        "Read events - Finished processing (I=9, O=0, R=0, W=9, U=0, E=0)",
        "Window - Finished processing (I=0, O=0, R=9, W=5, U=0, E=2), late 1",
        "Window - Event time window stats: {\"stats\":{\"rows_in\":9,\"rows_out\":4,\"late_dropped\":1,"
            + "\"windows_closed\":4,\"rows_folded\":6,\"rows_rejected\":2}}",
        "Write late rows - Finished processing (I=0, O=1, R=1, W=1, U=0, E=0)",
        "Write rejected rows - Finished processing (I=0, O=2, R=2, W=2, U=0, E=0)",
        "Write windows - Finished processing (I=0, O=4, R=4, W=4, U=0, E=0)",
        "sessions-late-and-rejected - Execution finished on Beam's direct runner with run configuration 'beam-direct'");
    assertThat(Files.readAllLines(out.resolve("sessions.ndjson"))).containsExactly(
        "{\"user\":\"bob\",\"window_start\":\"2026-03-01 10:01:00\",\"window_end\":\"2026-03-01 10:06:00\",\"events\":1,\"first_line\":2}",
        "{\"user\":\"ann\",\"window_start\":\"2026-03-01 10:00:00\",\"window_end\":\"2026-03-01 10:08:00\",\"events\":2,\"first_line\":1}",
        "{\"user\":\"ann\",\"window_start\":\"2026-03-01 10:18:00\",\"window_end\":\"2026-03-01 10:23:00\",\"events\":1,\"first_line\":7}",
        "{\"user\":\"bob\",\"window_start\":\"2026-03-01 10:20:00\",\"window_end\":\"2026-03-01 10:27:00\",\"events\":2,\"first_line\":5}");
    assertThat(Files.readAllLines(out.resolve("sessions-late.ndjson"))).containsExactly(
        "{\"user\":\"ann\",\"event_time\":\"2026-03-01 10:02:00\",\"line\":6,\"late_reason\":\"every window of event time"
            + " 2026-03-01 10:02:00 had closed at watermark 2026-03-01 10:20:00 (late policy window)\"}");
    List<String> rejected = Files.readAllLines(out.resolve("sessions-rejected.ndjson"));
    assertThat(rejected).hasSize(2);
    assertThat(rejected.get(1)).isEqualTo("{\"user\":\"bob\",\"event_time\":null,\"line\":8,\"error_count\":1,"
        + "\"error_description\":\"field 'event_time': the time is null\",\"error_field\":\"event_time\","
        + "\"error_code\":\"EVENTTIME-REJECTED\"}");
  }

  /** The lines of a Hop log without their time stamps. */
  static List<String> logMessages(String log) {
    return log.lines().map(l -> l.replaceFirst("^\\d{4}/\\d\\d/\\d\\d \\d\\d:\\d\\d:\\d\\d - ", "")).toList();
  }
}
