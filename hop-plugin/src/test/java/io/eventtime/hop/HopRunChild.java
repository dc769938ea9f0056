package io.eventtime.hop;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * HopRun in a JVM of its own on the test class path, running a pipeline file on the local engine,
 * its output in a log file: what a user runs, for tests that kill it or end it by a signal.
 *
 * <pre>{@code
 * Process hopRun = HopRunChild.start(dir, dir.resolve("live.hpl"), dir.resolve("run.log"));
 * hopRun.destroyForcibly(); // kill -9
 * }</pre>
 */
public final class HopRunChild {
  private static final Pattern BROKER_OR_TESTS = Pattern.compile("(kafka_2\\.13|kafka-(server|raft|storage|metadata"
      + "|group-coordinator|tools)|scala-|zookeeper|junit|assertj|opentest4j|eventtime-kafka-broker"
      + "|jackson-module-scala|metrics-core-2).*");

  private HopRunChild() {}

  /** Starts HopRun on {@code hpl} with a local run configuration in {@code dir/config}, logging to {@code log}. */
  public static Process start(Path dir, Path hpl, Path log) throws IOException {
    Path config = Files.createDirectories(dir.resolve("config/metadata/pipeline-run-configuration"));
    Files.writeString(config.resolve("local.json"), HopInstallation.LOCAL_RUN_CONFIGURATION);
    return new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx512m",
        "-cp", classPath(), "-DHOP_CONFIG_FOLDER=" + dir.resolve("config"),
        "org.apache.hop.run.HopRun", "-f", hpl.toString(), "-r", "local", "-l", "Basic")
        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
  }

  /** The test's class path less the broker's and the tests' jars, which HopRun would only scan. */
  private static String classPath() {
    return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
        .filter(entry -> !BROKER_OR_TESTS.matcher(Path.of(entry).getFileName().toString()).matches())
        .collect(Collectors.joining(File.pathSeparator));
  }
}
