package io.eventtime.hop.kafkainput;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.hop.HopInstallation;
import io.eventtime.hop.HopTestEnvironment;
import io.eventtime.hop.kafkainput.ExactlyOnceStreams.Event;
import io.eventtime.testing.kafka.KafkaBroker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hop.core.variables.Variables;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Kafka pipeline of {@link ExactlyOnceStreams} run by HopRun in a JVM of its own, as a user
 * runs it: killed with {@code kill -9} at random moments while rows flow, restarted each time,
 * and at last run to the end offsets: the output file is exactly that of one uninterrupted run.
 * And HopRun ended by SIGTERM stores the state of every row it took in, so the next run starts
 * there. Rounds: {@code -Dhop.kill.rounds=N} (3 by default); seed: {@code -Dhop.kill.seed}.
 */
class HopRunKillTest {
  private static final Pattern CAUGHT_UP = Pattern.compile("Caught up with the end offsets found at the start after"
      + " (\\d+) records");
  private static KafkaBroker broker;

  @TempDir
  Path dir;

  @BeforeAll
  static void start() {
    HopTestEnvironment.init();
    broker = KafkaBroker.start();
  }

  @AfterAll
  static void stop() {
    broker.close();
  }

  @Test
  void killedAtRandomMomentsAndRestartedTheFileIsThatOfOneUninterruptedRun() throws Exception {
    int rounds = Integer.getInteger("hop.kill.rounds", 3);
    long seed = Long.getLong("hop.kill.seed", 12);
    Random random = new Random(seed);
    String topic = "killed";
    broker.createTopic(topic, 3);
    List<List<Event>> stream = ExactlyOnceStreams.randomStream(3, 400 * (rounds + 1), seed);
    Path state = dir.resolve("state");
    Path output = dir.resolve("windows.ndjson");
    Path live = pipeline("live", topic, state, output, false);
    Path caughtUp = pipeline("caught-up", topic, state, output, true);

    for (int round = 0; round < rounds; round++) {
      Path log = dir.resolve("round-" + round + ".log");
      Process hopRun = hopRun(live, log);
      awaitLog(log, "Reading topic " + topic);
      int from = round * 400;
      // the rows of this round come while the pipeline runs; it is killed at a random moment among them
      Thread producer = new Thread(() -> {
        for (int chunk = 0; chunk < 10; chunk++) {
          ExactlyOnceStreams.produce(broker, topic, stream, from + chunk * 40, from + chunk * 40 + 40);
          sleep(100);
        }
      });
      producer.start();
      sleep(200 + random.nextInt(1300));
      hopRun.destroyForcibly().waitFor();
      producer.join();
    }
    ExactlyOnceStreams.produce(broker, topic, stream, rounds * 400, Integer.MAX_VALUE);
    String last = runToTheEnd(caughtUp, dir.resolve("last.log"));

    assertThat(caughtUpCount(last)).as("the last run reads from the stored offsets")
        .isLessThan(ExactlyOnceStreams.total(stream));
    String expected = ExactlyOnceStreams.expectedFile(stream);
    assertThat(expected.lines().count()).as("windows closed").isGreaterThan(100);
    assertThat(Files.readString(output)).isEqualTo(expected);
  }

  @Test
  void hopRunEndedBySigtermStoresTheStateOfEveryRowItTookIn() throws Exception {
    String topic = "terminated";
    broker.createTopic(topic, 3);
    List<List<Event>> stream = ExactlyOnceStreams.randomStream(3, 600, 99);
    Path state = dir.resolve("state");
    Path output = dir.resolve("windows.ndjson");
    ExactlyOnceStreams.produce(broker, topic, stream, 0, 300);
    Path log = dir.resolve("terminated.log");
    Process hopRun = hopRun(pipeline("live", topic, state, output, false), log);
    awaitLog(log, "Reading topic " + topic);
    sleep(1500);
    hopRun.destroy(); // SIGTERM
    assertThat(hopRun.waitFor(60, TimeUnit.SECONDS)).as("HopRun ends on SIGTERM").isTrue();
    assertThat(Files.readString(log)).contains("open windows kept for the next run");
    String stored = Files.readString(state.resolve("state.json"));
    assertThat(stored).as("every row produced was taken in and stored at the stop")
        .contains("{\"next_offset\":300}").doesNotContain("{\"next_offset\":2");

    ExactlyOnceStreams.produce(broker, topic, stream, 300, Integer.MAX_VALUE);
    String last = runToTheEnd(pipeline("caught-up", topic, state, output, true), dir.resolve("last.log"));
    assertThat(caughtUpCount(last)).as("the rows after the stop, none of those before")
        .isEqualTo(ExactlyOnceStreams.total(stream) - 900);
    assertThat(Files.readString(output)).isEqualTo(ExactlyOnceStreams.expectedFile(stream));
  }

  private Path pipeline(String name, String topic, Path state, Path output, boolean caughtUp) throws Exception {
    return Files.writeString(dir.resolve(name + ".hpl"), ExactlyOnceStreams.pipeline(broker.bootstrapServers(),
        topic, 3, state, output, caughtUp).getXml(new Variables()));
  }

  private Process hopRun(Path hpl, Path log) throws IOException {
    Path config = Files.createDirectories(dir.resolve("config/metadata/pipeline-run-configuration"));
    Files.writeString(config.resolve("local.json"), HopInstallation.LOCAL_RUN_CONFIGURATION);
    return new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx512m",
        "-cp", hopRunClassPath(), "-DHOP_CONFIG_FOLDER=" + dir.resolve("config"),
        "org.apache.hop.run.HopRun", "-f", hpl.toString(), "-r", "local", "-l", "Basic")
        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
  }

  /** The test's class path less the broker's and the tests' jars, which HopRun would only scan. */
  private static String hopRunClassPath() {
    Pattern brokerOrTests = Pattern.compile("(kafka_2\\.13|kafka-(server|raft|storage|metadata|group-coordinator|tools)"
        + "|scala-|zookeeper|junit|assertj|opentest4j|eventtime-kafka-broker|jackson-module-scala|metrics-core-2).*");
    return java.util.Arrays.stream(System.getProperty("java.class.path").split(java.io.File.pathSeparator))
        .filter(entry -> !brokerOrTests.matcher(Path.of(entry).getFileName().toString()).matches())
        .collect(java.util.stream.Collectors.joining(java.io.File.pathSeparator));
  }

  private String runToTheEnd(Path hpl, Path log) throws Exception {
    Process hopRun = hopRun(hpl, log);
    assertThat(hopRun.waitFor(120, TimeUnit.SECONDS)).as("HopRun ends").isTrue();
    String text = Files.readString(log);
    assertThat(hopRun.exitValue()).as(text).isZero();
    return text;
  }

  private static long caughtUpCount(String log) {
    Matcher m = CAUGHT_UP.matcher(log);
    assertThat(m.find()).as(log).isTrue();
    return Long.parseLong(m.group(1));
  }

  private static void awaitLog(Path log, String text) throws IOException {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!Files.readString(log).contains(text)) {
      assertThat(System.nanoTime()).as("HopRun logged '" + text + "' in time").isLessThan(end);
      sleep(20);
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
