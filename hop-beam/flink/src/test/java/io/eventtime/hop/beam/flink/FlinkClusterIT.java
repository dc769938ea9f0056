package io.eventtime.hop.beam.flink;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.cli.RunnerAgreement;
import io.eventtime.hop.beam.ClusterProcesses;
import io.eventtime.hop.beam.HopBeamTesting;
import io.eventtime.hop.beam.StandaloneClusterSuite;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The Flink bundled jar submitted to a standalone Flink session cluster: a job manager
 * ({@code StandaloneSessionClusterEntrypoint}) and a task manager ({@code TaskManagerRunner}) in
 * JVMs of their own, started as Flink's {@code start-cluster.sh} starts them, with Flink's class
 * path and JVM options. The client reaches the job manager's REST address, as the guide says.
 */
class FlinkClusterIT extends StandaloneClusterSuite {
  /** The JVM options Flink 1.19's distribution gives its processes on Java 17 ({@code env.java.opts.all}). */
  private static final List<String> FLINK_JAVA_17_OPTIONS = List.of(
      "--add-exports=java.base/sun.net.util=ALL-UNNAMED", "--add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED",
      "--add-exports=java.security.jgss/sun.security.krb5=ALL-UNNAMED",
      "--add-opens=java.base/java.lang=ALL-UNNAMED", "--add-opens=java.base/java.net=ALL-UNNAMED",
      "--add-opens=java.base/java.io=ALL-UNNAMED", "--add-opens=java.base/java.nio=ALL-UNNAMED",
      "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED", "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
      "--add-opens=java.base/java.text=ALL-UNNAMED", "--add-opens=java.base/java.time=ALL-UNNAMED",
      "--add-opens=java.base/java.util=ALL-UNNAMED", "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
      "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
      "--add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED");

  private int restPort;
  private Path conf;
  private String classPath;

  @Override
  protected String startCluster(ClusterProcesses cluster, Path dir) throws Exception {
    restPort = ClusterProcesses.freePort();
    int rpcPort = ClusterProcesses.freePort();
    conf = Files.createDirectories(dir.resolve("flink-conf"));
    Files.writeString(conf.resolve("flink-conf.yaml"), String.join("\n",
        "jobmanager.rpc.address: 127.0.0.1",
        "jobmanager.rpc.port: " + rpcPort,
        "jobmanager.bind-host: 127.0.0.1",
        "jobmanager.memory.heap.size: 256m",
        "jobmanager.memory.off-heap.size: 64m",
        "jobmanager.memory.jvm-metaspace.size: 192m",
        "rest.address: 127.0.0.1",
        "rest.bind-address: 127.0.0.1",
        "rest.port: " + restPort,
        "taskmanager.host: 127.0.0.1",
        "taskmanager.bind-host: 127.0.0.1",
        "taskmanager.numberOfTaskSlots: 2",
        // what start-cluster.sh passes the task manager, worked out from its memory settings
        "taskmanager.cpu.cores: 2",
        "taskmanager.memory.task.off-heap.size: 0m",
        "taskmanager.memory.jvm-overhead.min: 128m",
        "taskmanager.memory.jvm-overhead.max: 128m",
        "taskmanager.memory.framework.heap.size: 64m",
        "taskmanager.memory.task.heap.size: 256m",
        "taskmanager.memory.managed.size: 96m",
        "taskmanager.memory.framework.off-heap.size: 64m",
        "taskmanager.memory.network.min: 128m",
        "taskmanager.memory.network.max: 128m",
        // each blocking result of a batch job asks 512 buffers by default (sort-shuffle): the SQL's many steps
        // would need more than a small task manager's network memory
        "taskmanager.network.sort-shuffle.min-buffers: 64",
        "taskmanager.memory.jvm-metaspace.size: 256m",
        "io.tmp.dirs: " + Files.createDirectories(dir.resolve("flink-tmp")),
        "web.tmpdir: " + Files.createDirectories(dir.resolve("flink-web")),
        ""));
    Files.writeString(conf.resolve("log4j.properties"), String.join("\n",
        "rootLogger.level = INFO",
        "rootLogger.appenderRef.console.ref = console",
        "appender.console.name = console",
        "appender.console.type = CONSOLE",
        "appender.console.layout.type = PatternLayout",
        "appender.console.layout.pattern = %d{HH:mm:ss,SSS} %-5p %c{1} - %m%n",
        ""));
    List<Path> lib = new ArrayList<>(ClusterProcesses.runnerClassPath());
    try (java.util.stream.Stream<Path> extra = Files.list(Path.of(System.getProperty("flink.cluster.lib")))) {
      extra.forEach(lib::add);
    }
    classPath = ClusterProcesses.joined(lib);
    List<String> jobManager = new ArrayList<>(flinkJvmOptions());
    jobManager.addAll(List.of("-Xms256m", "-Xmx256m", "-XX:MaxMetaspaceSize=192m"));
    cluster.start("flink-jobmanager", ClusterProcesses.jvm(jobManager, classPath,
        "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint", "--configDir", conf.toString()),
        Map.of("FLINK_CONF_DIR", conf.toString()));
    List<String> taskManager = new ArrayList<>(flinkJvmOptions());
    taskManager.addAll(List.of("-Xms320m", "-Xmx320m", "-XX:MaxDirectMemorySize=256m", "-XX:MaxMetaspaceSize=256m"));
    cluster.start("flink-taskmanager", ClusterProcesses.jvm(taskManager, classPath,
        "org.apache.flink.runtime.taskexecutor.TaskManagerRunner", "--configDir", conf.toString()),
        Map.of("FLINK_CONF_DIR", conf.toString()));

    cluster.awaitHttp("http://127.0.0.1:" + restPort + "/overview", body -> body.contains("\"slots-available\":2"),
        CLUSTER_START);
    return "localhost:" + restPort;
  }

  @Override
  protected List<String> runnerArgs(String master) {
    return List.of("--runner", "flink", "--master", master, "--parallelism", "2");
  }

  private List<String> flinkJvmOptions() {
    List<String> options = new ArrayList<>(FLINK_JAVA_17_OPTIONS);
    options.add("-Dlog4j.configurationFile=" + conf.resolve("log4j.properties").toUri());
    options.add("-Dlog4j2.configurationFile=" + conf.resolve("log4j.properties").toUri());
    return options;
  }

  @Override
  protected List<String> guideSays() {
    return List.of("--runner flink --master jobmanager.example.com:8081 --parallelism 8",
        "flink run -c io.eventtime.hop.beam.RunPipeline eventtime-hop-beam-flink-<version>-bundled.jar",
        "windows.hpl --runner flink --parallelism 8 -p OUTPUT_FOLDER=/shared/out", "`FlinkClusterIT`");
  }

  /**
   * The eventtime command's {@code --flink-master}: a keyed hopping window over a few thousand rows
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
    return List.of("--runner", "flink", "--flink-master", master);
  }

  @Override
  protected long jobsTheClusterFinished() throws Exception {
    String jobs = cluster.awaitHttp("http://127.0.0.1:" + restPort + "/jobs/overview", body -> true,
        Duration.ofSeconds(10));
    assertThat(jobs).as(cluster.logs()).doesNotContain("FAILED");
    return Pattern.compile("\"state\":\"FINISHED\"").matcher(jobs).results().count();
  }

  /** The guide's {@code flink run -c ...}: Flink's command line, which finds the cluster in its configuration. */
  @Test
  void flinksCommandLineRunsTheBundledJarOnTheCluster() throws Exception {
    Path out = dir.resolve("flink-run-out");
    List<String> options = new ArrayList<>(flinkJvmOptions());
    options.add("-Xmx512m");
    List<String> command = ClusterProcesses.jvm(options, classPath, "org.apache.flink.client.cli.CliFrontend",
        "run", "-c", "io.eventtime.hop.beam.RunPipeline", bundledJar().toString(),
        HopBeamTesting.samples().resolve(SAMPLE).toString(), "--runner", "flink", "--parallelism", "2",
        "-p", "OUTPUT_FOLDER=" + out);
    runOnTheCluster("flink-run", command, Map.of("FLINK_CONF_DIR", conf.toString()), out);
  }
}
