package io.eventtime.hop.beam;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bundled jar of a runner module submitted, as docs/hop-on-beam-clusters.md tells, to a
 * standalone cluster of that runner started on this machine in JVMs of its own, whose class path
 * has the runner but neither Beam, Hop nor eventtime: the job runs on the cluster with what the
 * jar brings, and writes the local engine's files. One cluster for the tests of a class, killed
 * after them.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class StandaloneClusterSuite {
  protected static final Duration CLUSTER_START = Duration.ofSeconds(60);
  protected static final Duration RUN = Duration.ofSeconds(150);
  protected static final String SAMPLE = "keyed-hopping-late.hpl";

  @TempDir
  protected static Path dir;

  protected ClusterProcesses cluster;
  /** What {@code --master} is given: the cluster's address. */
  protected String master;
  private Map<String, List<String>> localFiles;

  /** Starts the cluster's JVMs; the address to give {@code --master}. */
  protected abstract String startCluster(ClusterProcesses cluster, Path dir) throws Exception;

  /** The bundled jar's options for this cluster, as the guide gives them. */
  protected abstract List<String> runnerArgs(String master);

  /** The environment of the client's JVM. */
  protected Map<String, String> clientEnvironment() {
    return Map.of();
  }

  /** What the guide must say, word for word, of the commands these tests run. */
  protected abstract List<String> guideSays();

  /** The eventtime command's flags that send its SQL to this cluster. */
  protected abstract List<String> commandLineMasterFlags(String master);

  /** How many jobs the cluster ran to their end (failing if one failed). */
  protected abstract long jobsTheClusterFinished() throws Exception;

  @BeforeAll
  void startTheCluster() throws Exception {
    HopBeamTesting.initHop();
    Path local = dir.resolve("local");
    HopBeamTesting.runLocal(HopBeamTesting.samples().resolve(SAMPLE), local);
    localFiles = HopBeamTesting.files(local);
    assertThat(localFiles).hasSize(3);
    cluster = new ClusterProcesses(dir);
    try {
      master = startCluster(cluster, dir);
    } catch (Exception | Error e) {
      cluster.close();
      throw e;
    }
  }

  @AfterAll
  void stopTheCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  protected static Path bundledJar() {
    Path jar = Path.of(System.getProperty("bundled.jar"));
    assertThat(jar).as("the bundled jar the module builds").exists();
    return jar;
  }

  @Test
  void theGuideGivesTheCommandsTestedHere() throws Exception {
    String guide = Files.readString(BundledJarSuite.guide()).replaceAll("\\\\\n\\s*", "");
    assertThat(guide).contains(guideSays());
  }

  @Test
  void theBundledJarRunsASampleOnTheClusterAsTheLocalEngineDoes() throws Exception {
    Path out = dir.resolve("java-jar-out");
    List<String> command = new ArrayList<>(List.of(ClusterProcesses.java(), "-jar", bundledJar().toString(),
        HopBeamTesting.samples().resolve(SAMPLE).toString()));
    command.addAll(runnerArgs(master));
    command.addAll(List.of("-p", "OUTPUT_FOLDER=" + out));
    runOnTheCluster("java-jar", command, clientEnvironment(), out);
  }

  /**
   * The eventtime command (the launcher at the repository's root, as built by this reactor)
   * runs {@code query} with {@code flags} over {@code stream} on the cluster, and prints what its
   * local runner prints.
   */
  protected void runSqlOnTheClusterAsLocally(Path stream, String query, List<String> flags) throws Exception {
    Path root = HopBeamTesting.samples().getParent().getParent();
    List<String> sql = new ArrayList<>(List.of("bash", root.resolve("eventtime").toString(),
        "--from", stream.toUri().toString()));
    sql.addAll(flags);
    Map<String, String> env = new java.util.HashMap<>(clientEnvironment());
    env.put("EVENTTIME_NO_BUILD", "1");

    List<String> local = new ArrayList<>(sql);
    local.addAll(List.of("--runner", "local", query));
    Path localOut = dir.resolve("sql-local.out");
    Process localRun = cluster.start("sql-local", local, env, localOut);
    assertThat(cluster.await(localRun, RUN)).isTrue();
    assertThat(localRun.exitValue()).as(cluster.log("sql-local")).isZero();
    List<String> expected = Files.readAllLines(localOut);
    assertThat(expected).as("the local runner's windows").hasSizeGreaterThan(10);

    List<String> onCluster = new ArrayList<>(sql);
    onCluster.addAll(commandLineMasterFlags(master));
    onCluster.add(query);
    Path clusterOut = dir.resolve("sql-cluster.out");
    long before = jobsTheClusterFinished();
    Process run = cluster.start("sql-cluster", onCluster, env, clusterOut);
    assertThat(cluster.await(run, RUN)).as("the run ends within %s%s", RUN, cluster.logs()).isTrue();
    assertThat(run.exitValue()).as(cluster.logs()).isZero();
    assertThat(jobsTheClusterFinished()).as("jobs the cluster ran%s", cluster.logs()).isEqualTo(before + 1);
    assertThat(Files.readAllLines(clusterOut)).as(cluster.logs()).isEqualTo(expected);
  }

  /**
   * Runs a client that submits the sample, checks that it printed the counts, that the cluster
   * finished one more job, and that the files in {@code out} are the local engine's.
   */
  protected void runOnTheCluster(String name, List<String> command, Map<String, String> env, Path out)
      throws Exception {
    long before = jobsTheClusterFinished();
    Process client = cluster.start(name, command, env);
    assertThat(cluster.await(client, RUN)).as("the run ends within %s%s", RUN, cluster.logs()).isTrue();
    assertThat(client.exitValue()).as(cluster.logs()).isZero();
    assertThat(cluster.log(name)).as(cluster.logs()).contains("  Window: read=2992 written=803 late=75");
    assertThat(jobsTheClusterFinished()).as("jobs the cluster ran%s", cluster.logs()).isEqualTo(before + 1);
    assertThat(Files.isDirectory(out)).as("the output folder%s", cluster.logs()).isTrue();
    assertThat(HopBeamTesting.files(out)).as(cluster.logs()).isEqualTo(localFiles);
  }
}
