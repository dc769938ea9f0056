package io.eventtime.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launchers' class-data archive ({@code prepare_class_data} of
 * cli/src/main/launcher/local-jvm-options.sh) where making it goes wrong: an archive that cannot be
 * made, or one made torn, is never handed to the JVM (a JVM given a torn archive crashes), and a
 * failure is not tried again on every start. Runs after the jars are packaged (failsafe): an
 * archive holds jars only.
 */
class ClassDataIT {
  private static final Path SCRIPT = Path.of("src/main/launcher/local-jvm-options.sh").toAbsolutePath();

  @TempDir
  Path dir;

  /** The command's jars and runtime classpath, as the launcher gives them. */
  private static String classpath() throws IOException {
    List<String> entries = new ArrayList<>();
    for (Path target : List.of(Path.of("target"), Path.of("../core/target"))) {
      try (Stream<Path> files = Files.list(target)) {
        entries.add(files.map(f -> f.toAbsolutePath().normalize().toString())
            .filter(f -> f.matches(".*/eventtime-(cli|core)-[^/]*\\.jar") && !f.matches(".*-(sources|tests|javadoc)\\.jar"))
            .findFirst().orElseThrow());
      }
    }
    entries.add(Files.readString(Path.of("target/classpath.txt")).strip());
    return String.join(":", entries);
  }

  /** Runs prepare_class_data with {@code java} in a bash and returns the options it set, one a line. */
  private List<String> prepare(String java, Map<String, String> env) throws Exception {
    return prepare(java, env, dir.resolve("archives"));
  }

  private List<String> prepare(String java, Map<String, String> env, Path archives) throws Exception {
    String script = ". \"$1\"; prepare_class_data \"$2\" \"$3\" \"$4\"; "
        + "for o in ${class_data_options[@]+\"${class_data_options[@]}\"}; do printf '%s\\n' \"$o\"; done";
    ProcessBuilder pb = new ProcessBuilder("bash", "-c", script, "bash", SCRIPT.toString(), java, classpath(),
        archives.toString()).directory(dir.toFile());
    pb.environment().keySet().removeAll(List.of("EVENTTIME_JAVA_OPTS", "JDK_JAVA_OPTIONS", "JAVA_TOOL_OPTIONS",
        "_JAVA_OPTIONS", "EVENTTIME_NO_CLASS_DATA"));
    pb.environment().putAll(env);
    pb.redirectError(ProcessBuilder.Redirect.INHERIT);
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).isZero();
    return out.lines().toList();
  }

  private Path executable(String name, String... lines) throws IOException {
    Path file = dir.resolve(name);
    Files.write(file, List.of(lines));
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    return file;
  }

  private List<String> filesIn(Path folder) throws IOException {
    if (!Files.isDirectory(folder)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(folder)) {
      return files.map(f -> f.getFileName().toString()).sorted().collect(Collectors.toList());
    }
  }

  @Test
  void madeOnceThenUsed() throws Exception {
    List<String> options = prepare("java", Map.of());
    assertThat(options).hasSize(2);
    assertThat(options.get(0)).startsWith("-XX:SharedArchiveFile=" + dir.resolve("archives") + "/eventtime-local-")
        .endsWith(".jsa");
    assertThat(options.get(1)).isEqualTo("-Xlog:cds*=off");
    Path archive = Path.of(options.get(0).substring("-XX:SharedArchiveFile=".length()));
    FileTime made = Files.getLastModifiedTime(archive);
    assertThat(filesIn(dir.resolve("archives"))).containsExactly(archive.getFileName().toString());
    assertThat(prepare("java", Map.of())).isEqualTo(options);
    assertThat(Files.getLastModifiedTime(archive)).isEqualTo(made);
  }

  /** A java that cannot make one: no options, and no second try until a jar or the java is newer than the try. */
  @Test
  void aFailureIsNotTriedOnEveryStart() throws Exception {
    Path tries = dir.resolve("tries");
    Path failing = executable("java", "#!/usr/bin/env bash", "echo try >>\"" + tries + "\"", "exit 1");
    assertThat(prepare(failing.toString(), Map.of())).isEmpty();
    assertThat(prepare(failing.toString(), Map.of())).isEmpty();
    assertThat(Files.readAllLines(tries)).hasSize(1);
    assertThat(filesIn(dir.resolve("archives"))).singleElement().asString().endsWith(".jsa.failed");

    Files.setLastModifiedTime(failing, FileTime.fromMillis(System.currentTimeMillis() + 60_000));
    assertThat(prepare(failing.toString(), Map.of())).isEmpty();
    assertThat(Files.readAllLines(tries)).hasSize(2);
  }

  /**
   * A folder it cannot make (here under a file; one it cannot write is refused the same way, which
   * the tests, run as root, cannot set up): no archive, and no run of the command to make one.
   */
  @Test
  void aFolderItCannotMakeIsNotTried() throws Exception {
    Path tries = dir.resolve("tries");
    Path counting = executable("java", "#!/usr/bin/env bash", "echo try >>\"" + tries + "\"", "exec java \"$@\"");
    Files.writeString(dir.resolve("blocker"), "a file where the folder would go");
    assertThat(prepare(counting.toString(), Map.of(), dir.resolve("blocker/archives"))).isEmpty();
    assertThat(prepare(counting.toString(), Map.of(), dir.resolve("blocker/archives"))).isEmpty();
    assertThat(tries).doesNotExist();
  }

  /** A training run that leaves a torn archive: the check that starts a JVM from it fails, and it is not kept. */
  @Test
  void aTornArchiveIsNeverKept() throws Exception {
    String whole = prepare("java", Map.of()).get(0).substring("-XX:SharedArchiveFile=".length());
    Path torn = dir.resolve("torn.jsa");
    Files.write(torn, java.util.Arrays.copyOf(Files.readAllBytes(Path.of(whole)), 100_000));
    Files.delete(Path.of(whole));
    // the training run "succeeds" but writes the torn copy; every other start is the real java's
    Path tearing = executable("java", "#!/usr/bin/env bash",
        "for a in \"$@\"; do case \"$a\" in -XX:ArchiveClassesAtExit=*) cp \"" + torn + "\" \"${a#*=}\"; exit 0 ;; esac; done",
        "exec java \"$@\"");
    assertThat(prepare(tearing.toString(), Map.of())).isEmpty();
    assertThat(filesIn(dir.resolve("archives"))).allMatch(name -> name.endsWith(".failed"));
    // the check's JVM crashed on it, quietly: no crash report where the launcher was started
    assertThat(filesIn(dir)).noneMatch(name -> name.startsWith("hs_err"));
  }

  /** The user's own class-data options, or EVENTTIME_NO_CLASS_DATA, mean none from the launcher, and none is made. */
  @Test
  void theUserDecides() throws Exception {
    assertThat(prepare("java", Map.of("EVENTTIME_NO_CLASS_DATA", "1"))).isEmpty();
    assertThat(prepare("java", Map.of("EVENTTIME_JAVA_OPTS", "-Xshare:off"))).isEmpty();
    assertThat(prepare("java", Map.of("JAVA_TOOL_OPTIONS", "-XX:SharedArchiveFile=/elsewhere.jsa"))).isEmpty();
    assertThat(filesIn(dir.resolve("archives"))).isEmpty();
  }
}
