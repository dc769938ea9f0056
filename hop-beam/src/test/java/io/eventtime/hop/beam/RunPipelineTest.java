package io.eventtime.hop.beam;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command-line runner: a sample on the local engine and on the Direct runner, and its refusals. */
class RunPipelineTest {
  private static final String[] EXAMPLE_C = {
      "{\"merchant\":\"acme\",\"window_start\":\"2026-07-18 10:00:00\",\"window_end\":\"2026-07-18 10:01:00\",\"events\":1,\"total\":250}",
      "{\"merchant\":\"globex\",\"window_start\":\"2026-07-18 10:00:00\",\"window_end\":\"2026-07-18 10:01:00\",\"events\":1,\"total\":42}",
      "{\"merchant\":\"acme\",\"window_start\":\"2026-07-18 10:01:00\",\"window_end\":\"2026-07-18 10:02:00\",\"events\":2,\"total\":1090}",
      "{\"merchant\":\"globex\",\"window_start\":\"2026-07-18 10:02:00\",\"window_end\":\"2026-07-18 10:03:00\",\"events\":1,\"total\":7}"};

  @TempDir
  Path dir;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  @BeforeAll
  static void hop() {
    HopBeamTesting.initHop();
  }

  private int run(String... args) {
    return RunPipeline.execute(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  private String sample(String name) {
    return HopBeamTesting.samples().resolve(name).toString();
  }

  @Test
  void exampleC_onTheDirectRunner() throws Exception {
    int code = run(sample("example-c-tumbling.hpl"), "--runner", "direct", "-p", "OUTPUT_FOLDER=" + dir);
    assertThat(code).as(err.toString()).isZero();
    assertThat(Files.readAllLines(dir.resolve("example-c-tumbling.ndjson"))).containsExactly(EXAMPLE_C);
    assertThat(out.toString(StandardCharsets.UTF_8).lines()).containsExactly(
        "Pipeline 'example-c-tumbling' ran on direct:",
        "  Read events: input=5 written=5",
        "  Window: read=5 written=4",
        "  Write windows: read=4 written=4 output=4");
  }

  @Test
  void exampleC_onTheLocalEngine() throws Exception {
    int code = run(sample("example-c-tumbling.hpl"), "-p", "OUTPUT_FOLDER=" + dir);
    assertThat(code).as(err.toString()).isZero();
    assertThat(Files.readAllLines(dir.resolve("example-c-tumbling.ndjson"))).containsExactly(EXAMPLE_C);
    assertThat(out.toString(StandardCharsets.UTF_8).lines().filter(l -> l.startsWith("  ") || l.startsWith("Pipeline")))
        .containsExactly(
            "Pipeline 'example-c-tumbling' ran on local:",
            "  Read events: input=5 written=5",
            "  Window: read=5 written=4",
            "  Write windows: read=4 written=4 output=4");
  }

  @Test
  void theLateAndRejectedRowsAreCounted() {
    int code = run(sample("sessions-late-and-rejected.hpl"), "--runner", "direct", "-p", "OUTPUT_FOLDER=" + dir);
    assertThat(code).as(err.toString()).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8).lines()).containsExactly(
        "Pipeline 'sessions-late-and-rejected' ran on direct:",
        "  Read events: input=9 written=9",
        "  Window: read=9 written=5 rejected=2 late=1",
        "  Write late rows: read=1 written=1 output=1",
        "  Write rejected rows: read=2 written=2 output=2",
        "  Write windows: read=4 written=4 output=4");
  }

  @Test
  void aPipelineBeamCannotRun_isRefusedWithTheReason() throws Exception {
    Path hpl = dir.resolve("loop.hpl");
    Files.writeString(hpl, Files.readString(Path.of(sample("example-c-tumbling.hpl"))).replace("  </order>",
        "    <hop>\n      <from>Write windows</from>\n      <to>Window</to>\n      <enabled>Y</enabled>\n    </hop>\n  </order>"));
    Files.createDirectories(dir.resolve("data"));
    Files.copy(HopBeamTesting.samples().resolve("data/events.ndjson"), dir.resolve("data/events.ndjson"));
    assertThat(run(hpl.toString(), "--runner", "direct")).isEqualTo(1);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("The pipeline 'loop' cannot run on Beam:",
        "The hops make a loop through 'Window', 'Write windows'");
  }

  @Test
  void wrongArguments() {
    assertThat(run(dir.resolve("nothing.hpl").toString())).isEqualTo(1);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("There is no pipeline file " + dir.resolve("nothing.hpl"));
    err.reset();
    assertThat(run(sample("example-c-tumbling.hpl"), "--runner", "flonk")).isEqualTo(1);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("Unknown runner 'flonk': choose local, direct, flink or spark");
    err.reset();
    assertThat(run(sample("example-c-tumbling.hpl"), "--runner", "direct", "-p", "NOPE=1")).isEqualTo(1);
    assertThat(err.toString(StandardCharsets.UTF_8))
        .contains("the pipeline 'example-c-tumbling' has no parameter 'NOPE': its parameters are OUTPUT_FOLDER");
  }

  @Test
  void aRunnerThatIsNotOnTheClassPath() {
    assertThat(Arrays.stream(Package.getPackages()).map(Package::getName)).doesNotContain("org.apache.beam.runners.flink");
    assertThat(run(sample("example-c-tumbling.hpl"), "--runner", "flink", "-p", "OUTPUT_FOLDER=" + dir)).isEqualTo(1);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("the Beam FlinkRunner is not on the class path: run with"
        + " the eventtime-hop-beam-flink jar (see docs/hop-on-beam-clusters.md), or in a Hop installation unzip"
        + " eventtime-hop-beam-flink-<version>-hop-runner.zip into its plugins/ folder", "or choose another runner");
  }
}
