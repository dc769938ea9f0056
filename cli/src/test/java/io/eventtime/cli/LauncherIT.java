package io.eventtime.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The seed page's examples through the built {@code ./eventtime} at the repository root, as a
 * child process in the directory holding {@code events.ndjson}, exactly as the page runs them.
 * Runs after the jar is packaged (failsafe); {@code EVENTTIME_NO_BUILD} makes sure the launcher
 * uses that build rather than starting Maven again.
 */
class LauncherIT {
  private static final Path LAUNCHER = Path.of("..", "eventtime").toAbsolutePath().normalize();

  @TempDir
  Path dir;

  record Run(int status, List<String> out, String err) {}

  private Run eventtime(String... args) throws IOException, InterruptedException {
    return eventtime(Map.of(), args);
  }

  private Run eventtime(Map<String, String> env, String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(LAUNCHER.toString()));
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile());
    pb.environment().put("EVENTTIME_NO_BUILD", "1");
    // options the JVM reads from the environment would decide the collector for these tests
    pb.environment().keySet().removeAll(List.of("JDK_JAVA_OPTIONS", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS"));
    pb.environment().putAll(env);
    Path err = dir.resolve("stderr.txt");
    pb.redirectError(err.toFile());
    Process p = pb.start();
    p.getOutputStream().close();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    return new Run(p.exitValue(), out.lines().toList(), Files.readString(err));
  }

  static Stream<SeedPage.Example> examples() {
    return Stream.concat(SeedPage.RESULTS.stream(), SeedPage.REFUSALS.stream());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("examples")
  void seedPageExample(SeedPage.Example example) throws Exception {
    Cli.write(dir, "events.ndjson", SeedPage.EVENTS);
    Run run = eventtime("--from", "file://events.ndjson", example.sql());
    assertThat(run.out()).as(run.err()).containsExactlyElementsOf(example.lines());
    assertThat(run.status()).isEqualTo(example.lines().get(0).startsWith("{\"error\"") ? 1 : 0);
  }

  @Test
  void badFlagExitsWithTwo() throws Exception {
    Cli.write(dir, "events.ndjson", SeedPage.EVENTS);
    Run run = eventtime("--from", "file://events.ndjson", "--late-policy", "later", SeedPage.TUMBLE.sql());
    assertThat(run.out()).singleElement().asString().startsWith("{\"error\":{\"code\":\"INVALID_ARGUMENT\"");
    assertThat(run.status()).isEqualTo(2);
  }

  /** The launcher puts Beam and the Direct runner on the classpath for --runner direct only. */
  @Test
  void directRunnerThroughTheLauncher() throws Exception {
    Cli.write(dir, "events.ndjson", SeedPage.EVENTS);
    Run run = eventtime("--runner", "direct", "--from", "file://events.ndjson", SeedPage.SESSION.sql());
    assertThat(run.out()).as(run.err()).containsExactlyElementsOf(SeedPage.SESSION.lines());
    assertThat(run.err()).isEmpty();
  }

  /** The local runner's JVM gets every option of cli/src/main/launcher/local-jvm-options. */
  @Test
  void localRunnerJvmOptions() throws Exception {
    Run run = eventtime(Map.of("EVENTTIME_JAVA_OPTS", "-XX:+PrintFlagsFinal"), "--help");
    assertThat(run.status()).as(run.err()).isZero();
    assertThat(run.out()).anyMatch(line -> line.matches("\\s*bool UseParallelGC\\s+= true\\s.*"))
        .anyMatch(line -> line.matches("\\s*uintx GCTimeRatio\\s+= 19\\s.*"));
  }

  /**
   * A collector the user names, in EVENTTIME_JAVA_OPTS or in an option the JVM reads itself,
   * replaces the launcher's options rather than clash with them (the JVM refuses two); an option
   * that only mentions collecting does not.
   */
  @ParameterizedTest(name = "{0}={1}")
  @CsvSource(delimiter = '|', value = {
      "EVENTTIME_JAVA_OPTS | -Xlog:gc:stderr | Parallel",
      "EVENTTIME_JAVA_OPTS | -XX:+UseDynamicNumberOfGCThreads -Xlog:gc:stderr | Parallel",
      "EVENTTIME_JAVA_OPTS | -XX:+UseSerialGC -Xlog:gc:stderr | Serial",
      "JDK_JAVA_OPTIONS | -XX:+UseSerialGC -Xlog:gc:stderr | Serial"})
  void localRunnerCollector(String variable, String options, String collector) throws Exception {
    Cli.write(dir, "events.ndjson", SeedPage.EVENTS);
    Run run = eventtime(Map.of(variable, options), "--from", "file://events.ndjson", SeedPage.TUMBLE.sql());
    assertThat(run.out()).as(run.err()).containsExactlyElementsOf(SeedPage.TUMBLE.lines());
    assertThat(run.err().lines()).anyMatch(line -> line.endsWith("[info][gc] Using " + collector));
  }

  /** The Beam runners keep the JVM's own collector: the local runner's options are its own. */
  @Test
  void beamRunnerKeepsTheJvmCollector() throws Exception {
    Cli.write(dir, "events.ndjson", SeedPage.EVENTS);
    Run run = eventtime(Map.of("EVENTTIME_JAVA_OPTS", "-Xlog:gc:stderr"), "--runner", "direct", "--from",
        "file://events.ndjson", SeedPage.TUMBLE.sql());
    assertThat(run.out()).as(run.err()).containsExactlyElementsOf(SeedPage.TUMBLE.lines());
    assertThat(run.err()).contains("[info][gc] Using ").doesNotContain("Using Parallel");
  }

  /**
   * The local runner starts from the class-data archive the launcher made in cli/target (its
   * classes are read from the archive, not from the jars), with the same rows; and starts without
   * one when told to, or when the user's options set class-data sharing themselves.
   */
  @Test
  void localRunnerStartsFromTheClassDataArchive() throws Exception {
    Cli.write(dir, "events.ndjson", SeedPage.EVENTS);
    Run run = eventtime(Map.of("EVENTTIME_JAVA_OPTS", "-Xlog:class+load=info:stderr"), "--from", "file://events.ndjson",
        SeedPage.TUMBLE.sql());
    assertThat(run.out()).as(run.err()).containsExactlyElementsOf(SeedPage.TUMBLE.lines());
    assertThat(run.err().lines()).anyMatch(line -> line.contains(" io.eventtime.cli.Main source: shared objects file (top)"));
    assertThat(archives()).isNotEmpty();

    for (Map<String, String> without : List.of(Map.of("EVENTTIME_NO_CLASS_DATA", "1", "EVENTTIME_JAVA_OPTS",
        "-Xlog:class+load=info:stderr"), Map.of("EVENTTIME_JAVA_OPTS", "-Xshare:off -Xlog:class+load=info:stderr"))) {
      run = eventtime(without, "--from", "file://events.ndjson", SeedPage.TUMBLE.sql());
      assertThat(run.out()).as(run.err()).containsExactlyElementsOf(SeedPage.TUMBLE.lines());
      assertThat(run.err().lines()).as(without.toString()).anyMatch(line -> line.contains(" io.eventtime.cli.Main source: file:"))
          .noneMatch(line -> line.contains("source: shared objects file (top)"));
    }
  }

  /** An archive older than a jar (the command was built again) is made again before the run. */
  @Test
  void staleClassDataArchiveIsMadeAgain() throws Exception {
    Cli.write(dir, "events.ndjson", SeedPage.EVENTS);
    assertThat(eventtime("--from", "file://events.ndjson", SeedPage.TUMBLE.sql()).out())
        .containsExactlyElementsOf(SeedPage.TUMBLE.lines());
    FileTime old = FileTime.fromMillis(1_000_000_000_000L);
    for (Path archive : archives()) {
      Files.setLastModifiedTime(archive, old);
    }
    Run run = eventtime(Map.of("EVENTTIME_JAVA_OPTS", "-Xlog:class+load=info:stderr"), "--from", "file://events.ndjson",
        SeedPage.TUMBLE.sql());
    assertThat(run.out()).as(run.err()).containsExactlyElementsOf(SeedPage.TUMBLE.lines());
    assertThat(run.err().lines()).anyMatch(line -> line.contains(" io.eventtime.cli.Main source: shared objects file (top)"));
    assertThat(archives()).anyMatch(archive -> {
      try {
        return Files.getLastModifiedTime(archive).compareTo(old) > 0;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
  }

  private static List<Path> archives() throws IOException {
    try (Stream<Path> files = Files.list(LAUNCHER.getParent().resolve("cli/target"))) {
      return files.filter(f -> f.getFileName().toString().matches("eventtime-local-\\d+\\.jsa")).toList();
    }
  }

  @Test
  void help() throws Exception {
    Run run = eventtime("--help");
    assertThat(run.status()).isZero();
    assertThat(run.out().get(0)).startsWith("Usage: eventtime");
  }
}
