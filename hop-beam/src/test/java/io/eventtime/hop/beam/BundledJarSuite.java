package io.eventtime.hop.beam;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bundled jar of a runner module, as docs/hop-on-beam-clusters.md tells to use it: run with
 * {@code java -jar}, in a JVM of its own with no Hop installation, on a local stand-in of the
 * cluster, it writes the local engine's files. The guide names the jar and the options the run
 * uses.
 */
public abstract class BundledJarSuite {
  @TempDir
  Path dir;

  /** The runner's options as the guide gives them, for the local stand-in of a cluster. */
  protected abstract List<String> runnerArgs();

  /** What the guide must say about this runner's jar and command. */
  protected abstract List<String> guideMentions();

  @BeforeAll
  static void hop() {
    HopBeamTesting.initHop();
  }

  static Path guide() {
    return HopBeamTesting.samples().getParent().getParent().resolve("docs/hop-on-beam-clusters.md");
  }

  @Test
  void theGuideNamesTheJarAndTheOptions() throws Exception {
    String module = System.getProperty("bundled.module");
    assertThat(Path.of(System.getProperty("bundled.jar")).getFileName().toString()).startsWith(module + "-");
    assertThat(Files.readString(guide())).contains(module + "-<version>-bundled.jar").contains(guideMentions());
  }

  @Test
  void theEventtimeCommandRunsAPipelineWithTheBundledJar() throws Exception {
    Path root = HopBeamTesting.samples().getParent().getParent();
    Path hpl = HopBeamTesting.samples().resolve("example-c-tumbling.hpl");
    Path beam = dir.resolve("command");
    List<String> command = new ArrayList<>(List.of("bash", root.resolve("eventtime").toString(), "run", hpl.toString()));
    command.addAll(runnerArgs());
    command.addAll(List.of("-p", "OUTPUT_FOLDER=" + beam));
    Path log = dir.resolve("command.log");
    ProcessBuilder run = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
        .redirectOutput(log.toFile());
    run.environment().remove(HopWorker.CONFIG_FOLDER);
    run.environment().put("EVENTTIME_NO_BUILD", "1");
    Process p = run.start();
    assertThat(p.waitFor(5, TimeUnit.MINUTES)).as("the run ends").isTrue();
    assertThat(p.exitValue()).as(Files.readString(log)).isZero();
    Path local = dir.resolve("local-c");
    HopBeamTesting.runLocal(hpl, local);
    Map<String, List<String>> expected = HopBeamTesting.files(local);
    assertThat(expected).isNotEmpty();
    assertThat(HopBeamTesting.files(beam)).isEqualTo(expected);
  }

  @Test
  void theBundledJarRunsASampleAsTheLocalEngineDoes() throws Exception {
    Path jar = Path.of(System.getProperty("bundled.jar"));
    assertThat(jar).as("the bundled jar the module builds").exists();
    Path hpl = HopBeamTesting.samples().resolve("keyed-hopping-late.hpl");
    Path beam = dir.resolve("beam");
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-jar", jar.toString(), hpl.toString()));
    command.addAll(runnerArgs());
    command.addAll(List.of("-p", "OUTPUT_FOLDER=" + beam));
    Path log = dir.resolve("run.log");
    ProcessBuilder run = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
        .redirectOutput(log.toFile());
    run.environment().remove(HopWorker.CONFIG_FOLDER);
    Process p = run.start();
    assertThat(p.waitFor(5, TimeUnit.MINUTES)).as("the run ends").isTrue();
    String output = Files.readString(log);
    assertThat(p.exitValue()).as(output).isZero();
    assertThat(output).contains("  Window: read=2992 written=803 late=75");

    Path local = dir.resolve("local");
    HopBeamTesting.runLocal(hpl, local);
    Map<String, List<String>> expected = HopBeamTesting.files(local);
    assertThat(expected).hasSize(3);
    assertThat(HopBeamTesting.files(beam)).isEqualTo(expected);
  }
}
