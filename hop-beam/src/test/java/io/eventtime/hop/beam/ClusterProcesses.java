package io.eventtime.hop.beam;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * The JVMs of a cluster on this machine (a Flink job manager and task manager, a Spark master
 * and worker) and of the client that submits to it: each a process of its own with its output
 * in a log file, all killed with their children (a Spark worker's executors) on {@link #close()},
 * whatever happened. {@link #logs()} gives the tails of every log, for a failed assertion.
 */
public final class ClusterProcesses implements AutoCloseable {
  private static final int LOG_TAIL = 12_000;

  private final Path dir;
  private final Map<String, Process> processes = new LinkedHashMap<>();
  private final Map<String, Path> logs = new LinkedHashMap<>();
  private final List<Path> otherLogFolders = new ArrayList<>();
  /** The processes that ended as they should (a client): not a cluster process that died. */
  private final java.util.Set<Process> ended = new java.util.HashSet<>();

  public ClusterProcesses(Path dir) {
    this.dir = dir;
  }

  /** A port free at this moment on 127.0.0.1. */
  public static int freePort() {
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** This JVM's java command. */
  public static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  /**
   * The test class path without Beam, Hop and eventtime: what a cluster of the runner has (the
   * runner's own jars and their libraries), so that the job runs only with what the submitted jar
   * brings.
   */
  public static List<Path> runnerClassPath() {
    List<Path> jars = new ArrayList<>();
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      String p = entry.replace('\\', '/');
      boolean ours = p.contains("/org/apache/beam/") || p.contains("/org/apache/hop/") || p.contains("/io/eventtime/")
          || p.contains("/target/") || !p.endsWith(".jar");
      // the test broker's Kafka server, its Scala libraries and the Jackson modules it brings are the tests' own:
      // on a cluster's class path a Jackson module's service entry breaks Jackson in the job ("not a subtype")
      // (Spark's own Scala 2.12 and its Jackson Scala module stay)
      boolean brokers = p.contains("/org/apache/kafka/") && !p.contains("/kafka-clients/") || p.contains("_2.13/")
          || p.contains("/org/scala-lang/") && p.contains("/2.13.") || p.contains("/jackson-datatype-jdk8/")
          || p.contains("/jackson-dataformat-csv/");
      if (!ours && !brokers) {
        jars.add(Path.of(entry));
      }
    }
    return jars;
  }

  public static String joined(List<Path> classPath) {
    return String.join(File.pathSeparator, classPath.stream().map(Path::toString).toList());
  }

  /** Starts a process, its output (both streams) in {@code <name>.log}. */
  public Process start(String name, List<String> command, Map<String, String> env) throws IOException {
    return start(name, command, env, null);
  }

  /**
   * Starts a process, its standard output in {@code stdout} when given (its errors alone in
   * {@code <name>.log}), else both in {@code <name>.log}.
   */
  public Process start(String name, List<String> command, Map<String, String> env, Path stdout) throws IOException {
    Path log = dir.resolve(name + ".log");
    ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile());
    if (stdout == null) {
      builder.redirectErrorStream(true).redirectOutput(log.toFile());
    } else {
      builder.redirectOutput(stdout.toFile()).redirectError(log.toFile());
    }
    builder.environment().remove(HopWorker.CONFIG_FOLDER);
    // every JVM of the run, and those they start (a worker's executors), keeps its scratch files here
    builder.environment().put("JAVA_TOOL_OPTIONS", "-Djava.io.tmpdir=" + Files.createDirectories(dir.resolve("tmp")));
    builder.environment().putAll(env);
    Files.writeString(dir.resolve(name + ".command"), String.join(" ", command) + "\n");
    Process p = builder.start();
    processes.put(name, p);
    logs.put(name, log);
    return p;
  }

  /** The log of a process started here. */
  public String log(String name) {
    try {
      return Files.readString(logs.get(name), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }

  /** Shows the files named stdout or stderr below {@code folder} too in {@link #logs()} (a Spark worker's executors). */
  public void alsoShowLogsBelow(Path folder) {
    otherLogFolders.add(folder);
  }

  /** The last part of every log, to say why something failed. */
  public String logs() {
    StringBuilder all = new StringBuilder();
    for (String name : logs.keySet()) {
      Process p = processes.get(name);
      append(all, name + (p.isAlive() ? " (running)" : " (exit " + p.exitValue() + ")") + ", " + logs.get(name),
          log(name));
    }
    for (Path folder : otherLogFolders) {
      try (Stream<Path> files = Files.exists(folder) ? Files.walk(folder) : Stream.empty()) {
        for (Path f : files.filter(f -> f.endsWith("stdout") || f.endsWith("stderr")).sorted().toList()) {
          append(all, f.toString(), Files.readString(f, StandardCharsets.UTF_8));
        }
      } catch (IOException e) {
        all.append("\n(cannot read the logs below ").append(folder).append(": ").append(e).append(')');
      }
    }
    return all.toString();
  }

  private static void append(StringBuilder all, String title, String text) {
    all.append("\n===== ").append(title).append(" =====\n")
        .append(text.length() > LOG_TAIL ? "..." + text.substring(text.length() - LOG_TAIL) : text);
  }

  /**
   * Polls {@code url} until its body passes {@code ready}, failing with every log when the
   * timeout passes first or a process of the cluster has ended (one not {@link #await}ed).
   */
  public String awaitHttp(String url, Predicate<String> ready, Duration timeout) throws InterruptedException {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    long deadline = System.nanoTime() + timeout.toNanos();
    String last = "(no answer)";
    while (System.nanoTime() < deadline) {
      for (Map.Entry<String, Process> p : processes.entrySet()) {
        if (!p.getValue().isAlive() && !ended.contains(p.getValue())) {
          throw new IllegalStateException(p.getKey() + " ended (exit " + p.getValue().exitValue() + ") while waiting for "
              + url + logs());
        }
      }
      try {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5))
            .build(), HttpResponse.BodyHandlers.ofString());
        last = r.statusCode() + " " + r.body();
        if (r.statusCode() == 200 && ready.test(r.body())) {
          return r.body();
        }
      } catch (IOException e) {
        last = e.toString();
      }
      Thread.sleep(500);
    }
    throw new IllegalStateException("not ready after " + timeout + ": " + url + " answered " + last + logs());
  }

  /** Waits for a process to end; kills it (and says so) when it takes longer than {@code timeout}. */
  public boolean await(Process p, Duration timeout) throws InterruptedException {
    if (p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      ended.add(p);
      return true;
    }
    kill(p);
    return false;
  }

  private static void kill(Process p) {
    List<ProcessHandle> children = p.descendants().toList();
    p.destroyForcibly();
    children.forEach(ProcessHandle::destroyForcibly);
    try {
      p.waitFor(20, TimeUnit.SECONDS);
      for (ProcessHandle c : children) {
        c.onExit().get(20, TimeUnit.SECONDS);
      }
    } catch (Exception e) {
      // destroyForcibly was asked; nothing more to do
    }
  }

  /** Kills every process started here, and their children, in the reverse order of their start. */
  @Override
  public void close() {
    List<Process> started = new ArrayList<>(processes.values());
    for (int i = started.size() - 1; i >= 0; i--) {
      kill(started.get(i));
    }
  }

  /** The command of a JVM: java, its options, a class path and a main class with its arguments. */
  public static List<String> jvm(List<String> jvmOptions, String classPath, String mainClass, String... args) {
    List<String> command = new ArrayList<>();
    command.add(java());
    command.addAll(jvmOptions);
    command.addAll(List.of("-cp", classPath, mainClass));
    command.addAll(Arrays.asList(args));
    return command;
  }
}
