package io.eventtime.hop.beam.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.cli.RunnerAgreement;
import io.eventtime.hop.beam.ClusterProcesses;
import io.eventtime.hop.beam.HopBeamTesting;
import io.eventtime.hop.beam.StandaloneClusterSuite;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The Spark bundled jar submitted to a standalone Spark cluster: a master and a worker in JVMs of
 * their own ({@code org.apache.spark.deploy.master.Master}, {@code ...worker.Worker}), the worker
 * starting its executors from a Spark home whose {@code jars/} has Spark's class path. The client
 * runs in client mode and reaches the master at {@code spark://127.0.0.1:<port>}, as the guide says.
 */
class SparkClusterIT extends StandaloneClusterSuite {
  /** What Spark's own scripts give the master and the worker on Java 17 (Spark's {@code JavaModuleOptions}). */
  private static final List<String> SPARK_JAVA_17_OPTIONS = List.of(
      "--add-opens=java.base/java.lang=ALL-UNNAMED", "--add-opens=java.base/java.lang.invoke=ALL-UNNAMED",
      "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED", "--add-opens=java.base/java.io=ALL-UNNAMED",
      "--add-opens=java.base/java.net=ALL-UNNAMED", "--add-opens=java.base/java.nio=ALL-UNNAMED",
      "--add-opens=java.base/java.util=ALL-UNNAMED", "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
      "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED", "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
      "--add-opens=java.base/sun.nio.cs=ALL-UNNAMED", "--add-opens=java.base/sun.security.action=ALL-UNNAMED",
      "--add-opens=java.base/sun.util.calendar=ALL-UNNAMED");
  private static final Pattern ONE_WORKER = Pattern.compile("\"aliveworkers\"\\s*:\\s*1\\b");
  private static final Pattern NO_ACTIVE_APPLICATION = Pattern.compile("\"activeapps\"\\s*:\\s*\\[\\s*\\]");

  private int webPort;
  private Path workDir;
  private String classPath;
  private Map<String, String> env;

  @Override
  protected String startCluster(ClusterProcesses cluster, Path dir) throws Exception {
    int port = ClusterProcesses.freePort();
    webPort = ClusterProcesses.freePort();
    Path sparkHome = sparkHome(dir.resolve("spark-home"));
    workDir = Files.createDirectories(dir.resolve("spark-work"));
    cluster.alsoShowLogsBelow(workDir);
    classPath = sparkHome.resolve("jars").resolve("*").toString();
    env = Map.of("SPARK_HOME", sparkHome.toString(), "SPARK_SCALA_VERSION", "2.12",
        "SPARK_LOCAL_IP", "127.0.0.1", "JAVA_HOME", System.getProperty("java.home"));
    List<String> options = new ArrayList<>(SPARK_JAVA_17_OPTIONS);
    options.add("-Xmx256m");
    cluster.start("spark-master", ClusterProcesses.jvm(options, classPath, "org.apache.spark.deploy.master.Master",
        "--host", "127.0.0.1", "--port", Integer.toString(port), "--webui-port", Integer.toString(webPort)), env);
    cluster.start("spark-worker", ClusterProcesses.jvm(options, classPath, "org.apache.spark.deploy.worker.Worker",
        "--host", "127.0.0.1", "--cores", "2", "--memory", "1g", "--webui-port",
        Integer.toString(ClusterProcesses.freePort()), "--work-dir", workDir.toString(), "spark://127.0.0.1:" + port),
        env);
    cluster.awaitHttp(masterState(), body -> ONE_WORKER.matcher(body).find(), CLUSTER_START);
    return "spark://127.0.0.1:" + port;
  }

  /** A Spark home as a distribution's: {@code jars/} holds Spark's class path (links to the jars). */
  private static Path sparkHome(Path home) throws Exception {
    Path jars = Files.createDirectories(home.resolve("jars"));
    Files.createDirectories(home.resolve("conf"));
    Set<String> names = new HashSet<>();
    List<Path> classPath = new ArrayList<>(ClusterProcesses.runnerClassPath());
    // Spark's slf4j is 2.0 (in spark-cluster-lib), bound to log4j as in Spark's distribution
    classPath.removeIf(jar -> jar.getFileName().toString().matches("slf4j-(api-1\\..*|nop-.*)\\.jar"));
    try (Stream<Path> extra = Files.list(Path.of(System.getProperty("spark.cluster.lib")))) {
      extra.forEach(classPath::add);
    }
    for (Path jar : classPath) {
      String name = jar.getFileName().toString();
      if (!names.add(name)) {
        name = names.size() + "-" + name;
        names.add(name);
      }
      Files.createSymbolicLink(jars.resolve(name), jar);
    }
    return home;
  }

  private String masterState() {
    return "http://127.0.0.1:" + webPort + "/json/";
  }

  @Override
  protected List<String> runnerArgs(String master) {
    return List.of("--runner", "spark", "--master", master);
  }

  @Override
  protected Map<String, String> clientEnvironment() {
    // the driver's address, which the executors call back: this machine's loopback, as the cluster's
    return Map.of("SPARK_LOCAL_IP", "127.0.0.1");
  }

  @Override
  protected List<String> guideSays() {
    return List.of("--runner spark --master spark://spark-master.example.com:7077 -p OUTPUT_FOLDER=/shared/out",
        "spark-submit --class io.eventtime.hop.beam.RunPipeline --master spark://spark-master.example.com:7077 "
            + "--conf \"spark.driver.extraJavaOptions=--add-opens=java.base/sun.nio.ch=ALL-UNNAMED\" "
            + "--conf \"spark.executor.extraJavaOptions=--add-opens=java.base/sun.nio.ch=ALL-UNNAMED\" "
            + "eventtime-hop-beam-spark-<version>-bundled.jar windows.hpl --runner spark "
            + "--master spark://spark-master.example.com:7077",
        "`SparkClusterIT`");
  }

  /**
   * The eventtime command's {@code --spark-master}: a keyed hopping window over a few thousand rows
   * with late and rejected rows, the same lines as its local runner's.
   */
  @Test
  void theEventtimeCommandRunsSqlOnTheClusterAsItsLocalRunnerDoes() throws Exception {
    RunnerAgreement.Query query = RunnerAgreement.RANDOM_STREAM_QUERIES.get(0);
    Path stream = RunnerAgreement.randomStream(Files.createDirectories(dir.resolve("sql")), 7, 3000);
    runSqlOnTheClusterAsLocally(stream, query.sql(), query.flags());
  }

  @Override
  protected List<String> commandLineMasterFlags(String master) {
    return List.of("--runner", "spark", "--spark-master", master);
  }

  @Override
  protected long jobsTheClusterFinished() throws Exception {
    String state = cluster.awaitHttp(masterState(), body -> NO_ACTIVE_APPLICATION.matcher(body).find(),
        Duration.ofSeconds(30));
    assertThat(state).as(cluster.logs()).doesNotContain("FAILED").doesNotContain("KILLED");
    long finished = Pattern.compile("\"state\"\\s*:\\s*\"FINISHED\"").matcher(state).results().count();
    List<Path> executorLogs;
    try (Stream<Path> files = Files.walk(workDir)) {
      executorLogs = files.filter(p -> p.getFileName().toString().equals("stderr")).toList();
    }
    long executorsThatRanTasks = 0;
    for (Path log : executorLogs) {
      executorsThatRanTasks += Files.readString(log).contains("Finished task") ? 1 : 0;
    }
    assertThat(executorsThatRanTasks).as("executors that ran tasks, one per application%s", cluster.logs())
        .isEqualTo(finished);
    return finished;
  }

  /** The guide's {@code spark-submit} (its main class, with the JVM options its launcher gives the driver). */
  @Test
  void sparkSubmitRunsTheBundledJarOnTheCluster() throws Exception {
    Path out = dir.resolve("spark-submit-out");
    List<String> options = new ArrayList<>(SPARK_JAVA_17_OPTIONS);
    options.add("-Xmx512m");
    List<String> command = ClusterProcesses.jvm(options, classPath, "org.apache.spark.deploy.SparkSubmit",
        "--class", "io.eventtime.hop.beam.RunPipeline", "--master", master,
        "--conf", "spark.driver.extraJavaOptions=--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
        "--conf", "spark.executor.extraJavaOptions=--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
        bundledJar().toString(), HopBeamTesting.samples().resolve(SAMPLE).toString(), "--runner", "spark",
        "--master", master, "-p", "OUTPUT_FOLDER=" + out);
    runOnTheCluster("spark-submit", command, env, out);
  }
}
