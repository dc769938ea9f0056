package io.eventtime.hop;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * A minimal Hop installation for tests that try our zips as a user installs them: hop-engine's
 * jars in {@code lib/core}, zips unzipped into {@code plugins/}, run configurations in
 * {@code config/}, and HopRun started in a JVM of its own, as Hop's scripts start it.
 */
public final class HopInstallation {
  /** Hop's local engine with its usual settings. */
  public static final String LOCAL_RUN_CONFIGURATION = """
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
      """;

  private final Path home;

  private HopInstallation(Path home) {
    this.home = home;
  }

  /** An installation in {@code home} whose lib/core holds the jars of {@code libCoreJars}. */
  public static HopInstallation create(Path home, Path libCoreJars) throws IOException {
    HopInstallation hop = new HopInstallation(home);
    Path libCore = Files.createDirectories(hop.libCore());
    try (Stream<Path> jars = Files.list(libCoreJars)) {
      for (Path jar : jars.toList()) {
        Files.copy(jar, libCore.resolve(jar.getFileName()));
      }
    }
    Files.createDirectories(hop.plugins());
    hop.addRunConfiguration("local", LOCAL_RUN_CONFIGURATION);
    return hop;
  }

  public Path home() {
    return home;
  }

  public Path libCore() {
    return home.resolve("lib/core");
  }

  public Path plugins() {
    return home.resolve("plugins");
  }

  /** The file names in lib/core. */
  public List<String> libCoreJars() throws IOException {
    try (Stream<Path> jars = Files.list(libCore())) {
      return jars.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  /** Unzips {@code zip} into plugins/ as a user does; returns the files it held. */
  public List<String> unzipIntoPlugins(Path zip) throws IOException {
    Path into = plugins();
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

  /** Saves a pipeline run configuration as Hop's metadata (JSON, as HopGui writes it). */
  public void addRunConfiguration(String name, String json) throws IOException {
    Path folder = Files.createDirectories(home.resolve("config/metadata/pipeline-run-configuration"));
    Files.writeString(folder.resolve(name + ".json"), json);
  }

  /**
   * Runs {@code pipeline} with HopRun in a JVM of its own, OUTPUT_FOLDER set to {@code out}, and
   * checks it ends within {@code timeout} with {@code exitCode}; returns what it printed (also
   * kept in {@code log}). {@code jvmOptions} are what HOP_OPTIONS gives Hop's scripts.
   */
  public String hopRun(Path pipeline, String runConfiguration, Path out, Path log, int exitCode, Duration timeout,
      String... jvmOptions) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx1g");
    command.addAll(List.of(jvmOptions));
    command.addAll(List.of(
        "-DHOP_CONFIG_FOLDER=" + home.resolve("config"),
        "-DHOP_PLUGIN_BASE_FOLDERS=" + plugins(),
        "-cp", libCore() + "/*",
        "org.apache.hop.run.HopRun",
        "--file=" + pipeline.toAbsolutePath().normalize(),
        "--runconfig=" + runConfiguration,
        "--level=Basic",
        "--parameters=OUTPUT_FOLDER=" + out));
    Process process = new ProcessBuilder(command).directory(home.toFile()).redirectErrorStream(true)
        .redirectOutput(log.toFile()).start();
    boolean ended = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
    if (!ended) {
      process.destroyForcibly().waitFor();
    }
    String output = Files.readString(log);
    assertThat(ended).as("HopRun ended within " + timeout + ":\n" + output).isTrue();
    assertThat(process.exitValue()).as("HopRun's exit code; its output:\n" + output).isEqualTo(exitCode);
    return output;
  }
}
