package io.eventtime.hop.beam;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.hop.PipelineBuilder;
import io.eventtime.hop.beam.engine.BeamRunConfiguration;
import io.eventtime.hop.fileoutput.EventFileOutputMeta;
import io.eventtime.hop.kafkainput.EventKafkaInputMeta;
import io.eventtime.hop.kafkainput.KafkaField;
import io.eventtime.hop.window.EventTimeWindowMeta;
import io.eventtime.hop.window.GroupField;
import io.eventtime.hop.window.WindowAggregate;
import io.eventtime.testing.kafka.KafkaBroker;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.hop.core.encryption.Encr;
import org.apache.hop.core.logging.HopLogStore;
import org.apache.hop.core.variables.IVariables;
import org.apache.hop.core.variables.Variables;
import org.apache.hop.metadata.serializer.json.JsonMetadataProvider;
import org.apache.hop.metadata.serializer.memory.MemoryMetadataProvider;
import org.apache.hop.pipeline.PipelineMeta;
import org.apache.hop.pipeline.config.PipelineRunConfiguration;
import org.apache.hop.pipeline.engine.IPipelineEngine;
import org.apache.hop.pipeline.engine.PipelineEngineFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Event Kafka Input -> Event Time Window (its partition field) -> Event File Output, over a real
 * broker's topic of 1 and 3 partitions with late rows, unreadable records and rows without an
 * event time: translated to Beam and run live on a runner in streaming mode, the window rows, late rows,
 * rejected rows and unreadable records written are exactly those of the local engine over the
 * same topic. The local run stops when caught up and so closes every window at its end; the live
 * run closes a window only when every partition's watermark has passed it: each partition ends
 * with a record of user {@value #CLOSER}, an hour later, which closes every other window and whose
 * own window only the local run writes. Also: the runner's engine runs a live pipeline from Hop
 * until it is stopped, and one that stops when caught up to its end, with the local engine's files
 * and its consumer group's offsets.
 */
public abstract class LiveKafkaEquivalenceSuite {
  /** The options of a live run on the runner under test: {@code run()} must return while the job runs. */
  protected abstract PipelineOptions liveOptions();

  /** The runner's run configuration, as a Hop project keeps it. */
  protected abstract BeamRunConfiguration runConfiguration();

  /** Whether the runner still gives a live run's counts once the run is stopped (cancelled). */
  protected boolean countsAfterAStop() {
    return true;
  }

  static final long START = 1_784_368_800_000L; // 2026-07-18 10:00:00 UTC
  private static final String CLOSER = "~closer";
  static final Duration WAIT = Duration.ofSeconds(180);
  private static final Duration SETTLE = Duration.ofSeconds(3);
  static KafkaBroker broker;

  @TempDir
  protected Path dir;

  @BeforeAll
  static void start() {
    HopBeamTesting.initHop();
    broker = KafkaBroker.start();
  }

  @AfterAll
  static void stop() {
    broker.close();
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 3})
  void theLiveRunWritesTheRowsOfTheLocalEngine(int partitions) throws Exception {
    String topic = "hop-beam-live-" + partitions;
    broker.createTopic(topic, partitions);
    Random random = new Random(7 + partitions);
    for (int p = 0; p < partitions; p++) {
      broker.produce(topic, p, records(random, p));
    }

    Path local = dir.resolve("local");
    HopBeamTesting.runLocal(pipeline(topic, partitions, true, local), Map.of());
    Map<String, List<String>> expected = HopBeamTesting.files(local);
    assertThat(expected.get("late.ndjson")).as("the topic has late rows").isNotEmpty();
    assertThat(expected.get("rejected.ndjson")).as("rows without an event time").isNotEmpty();
    assertThat(expected.get("unreadable.ndjson")).as("records that cannot be read").hasSize(3 * partitions);
    List<String> closed = expected.get("windows.ndjson").stream().filter(l -> !l.contains(CLOSER)).toList();
    assertThat(closed).hasSizeLessThan(expected.get("windows.ndjson").size()).isNotEmpty();

    Path beam = dir.resolve("beam");
    Map<String, List<String>> written = runLive(pipeline(topic, partitions, false, beam), liveOptions(), beam, Map.of(
        "windows.ndjson", closed.size(), "late.ndjson", expected.get("late.ndjson").size(),
        "rejected.ndjson", expected.get("rejected.ndjson").size(),
        "unreadable.ndjson", expected.get("unreadable.ndjson").size()));

    // the window rows are ranked in close order and written in it; the other files' lines come in the
    // order the Beam steps hand them on, which the runner chooses
    assertThat(written.get("windows.ndjson")).containsExactlyElementsOf(closed);
    assertThat(written.get("late.ndjson")).containsExactlyInAnyOrderElementsOf(expected.get("late.ndjson"));
    assertThat(written.get("rejected.ndjson")).containsExactlyInAnyOrderElementsOf(expected.get("rejected.ndjson"));
    assertThat(written.get("unreadable.ndjson")).containsExactlyInAnyOrderElementsOf(expected.get("unreadable.ndjson"));
  }

  /**
   * From Hop (HopGui's Run, HopRun) with the runner's (eventtime) run configuration: the live run
   * goes on until the pipeline is stopped, writes the window rows meanwhile, tells its consumer
   * group the offsets read, and a stop ends it without an error.
   */
  @org.junit.jupiter.api.Test
  void theEngineRunsTheLivePipelineUntilItIsStopped() throws Exception {
    String topic = "hop-beam-engine";
    broker.createTopic(topic, 1);
    produceThreeEvents(topic);
    IPipelineEngine<PipelineMeta> engine = engine(withGroup(pipeline(topic, 1, false, dir.resolve("out")), "beam-live"));
    engine.execute();
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (System.nanoTime() < deadline && !(allThere(dir.resolve("out"), Map.of("windows.ndjson", 2))
        && broker.committedOffsets("beam-live", topic).equals(Map.of(0, 3L)))) {
      assertThat(engine.isFinished()).as("the live run goes on").isFalse();
      Thread.sleep(200);
    }
    engine.stopAll();
    engine.waitUntilFinished();

    String log = HopLogStore.getAppender().getBuffer(engine.getLogChannelId(), false).toString();
    assertThat(engine.getErrors()).as(log).isZero();
    // both windows leave at one watermark step, in the order the runner hands them on
    assertThat(Files.readAllLines(dir.resolve("out/windows.ndjson"))).containsExactlyInAnyOrder(
        "{\"user\":\"ann\",\"window_start\":\"2026-07-18 10:00:00\",\"window_end\":\"2026-07-18 10:00:10\",\"events\":1,"
            + "\"total\":1}",
        "{\"user\":\"bob\",\"window_start\":\"2026-07-18 10:00:00\",\"window_end\":\"2026-07-18 10:00:10\",\"events\":1,"
            + "\"total\":2}");
    assertThat(engine.findComponent("Read", 0).getLinesInput()).isEqualTo(countsAfterAStop() ? 3L : 0L);
    assertThat(broker.committedOffsets("beam-live", topic)).isEqualTo(Map.of(0, 3L));
    assertThat(log).contains("Execution stopped on Beam's " + runConfiguration().runner().name().toLowerCase(Locale.ROOT)
            + " runner with run configuration 'live'");
  }

  /**
   * The window's idle timeout on the live path (the contract's rule, as on the local engine): a
   * partition that never has a record holds every window back (without the timeout, none would
   * leave); once a partition has had no record for the timeout, its watermark is the wall clock
   * less the delay. Both partitions go quiet here (the other after its three records), so every
   * window leaves while the run goes on, the event times being in the past.
   */
  @org.junit.jupiter.api.Test
  void aQuietPartitionStopsHoldingWindowsBackAfterTheIdleTimeout() throws Exception {
    String topic = "hop-beam-idle";
    broker.createTopic(topic, 2);
    produceThreeEvents(topic);
    PipelineMeta meta = pipeline(topic, 2, false, dir.resolve("idle"));
    ((EventTimeWindowMeta) meta.findTransform("Window").getTransform()).setIdleTimeout("2 SECONDS");
    Map<String, List<String>> written = runLive(meta, liveOptions(), dir.resolve("idle"), Map.of("windows.ndjson", 3));
    assertThat(written.get("windows.ndjson")).containsExactlyInAnyOrder(
        "{\"user\":\"ann\",\"window_start\":\"2026-07-18 10:00:00\",\"window_end\":\"2026-07-18 10:00:10\",\"events\":1,"
            + "\"total\":1}",
        "{\"user\":\"bob\",\"window_start\":\"2026-07-18 10:00:00\",\"window_end\":\"2026-07-18 10:00:10\",\"events\":1,"
            + "\"total\":2}",
        "{\"user\":\"ann\",\"window_start\":\"2026-07-18 10:00:10\",\"window_end\":\"2026-07-18 10:00:20\",\"events\":1,"
            + "\"total\":3}");
  }

  /**
   * With "stop when caught up" the Beam read ends at the end offsets found at the start, as the
   * local engine's does: the engine runs the pipeline from Hop to its end by itself (three
   * partitions, the window waiting on each), and every file, the windows drained at the end
   * included, holds exactly the local engine's lines.
   */
  @org.junit.jupiter.api.Test
  void theEngineRunsAPipelineThatStopsWhenCaughtUpToItsEnd_theLocalEnginesFiles() throws Exception {
    String topic = "hop-beam-caught-up";
    broker.createTopic(topic, 3);
    Random random = new Random(11);
    for (int p = 0; p < 3; p++) {
      broker.produce(topic, p, records(random, p));
    }
    Path local = dir.resolve("local");
    HopBeamTesting.runLocal(withGroup(pipeline(topic, 3, true, local), "local-caught-up"), Map.of());
    Map<String, List<String>> expected = HopBeamTesting.files(local);
    assertThat(broker.committedOffsets("local-caught-up", topic)).isEqualTo(broker.endOffsets(topic));

    IPipelineEngine<PipelineMeta> engine = engine(withGroup(pipeline(topic, 3, true, dir.resolve("beam")), "beam-caught-up"));
    engine.execute();
    engine.waitUntilFinished();
    String log = HopLogStore.getAppender().getBuffer(engine.getLogChannelId(), false).toString();
    assertThat(engine.getErrors()).as(log).isZero();
    Map<String, List<String>> written = HopBeamTesting.files(dir.resolve("beam"));
    assertThat(written.keySet()).isEqualTo(expected.keySet());
    for (String file : expected.keySet()) {
      // the lines of one file come in the order the Beam steps hand them on, which the runner chooses
      assertThat(written.get(file)).as(file).containsExactlyInAnyOrderElementsOf(expected.get(file));
    }
    // the consumer group is told the offsets read, for monitoring, as on the local engine
    assertThat(broker.committedOffsets("beam-caught-up", topic)).isEqualTo(broker.endOffsets(topic));
  }

  /** {@code meta} with its Event Kafka Input's consumer group set to {@code group}. */
  private static PipelineMeta withGroup(PipelineMeta meta, String group) {
    ((EventKafkaInputMeta) meta.findTransform("Read").getTransform()).setConsumerGroup(group);
    return meta;
  }

  /** Into partition 0: ann and bob in window 10:00:00 (10 s), ann in window 10:00:10. */
  private static void produceThreeEvents(String topic) {
    broker.produce(topic, 0, event("ann", 1, String.valueOf(START + 1_000)), event("bob", 2, String.valueOf(START + 2_000)),
        event("ann", 3, String.valueOf(START + 16_000)));
  }

  /** The runner's engine for {@code meta}, as HopGui's Run or HopRun makes it from a run configuration named "live". */
  private IPipelineEngine<PipelineMeta> engine(PipelineMeta meta) throws Exception {
    JsonMetadataProvider metadata = new JsonMetadataProvider(Encr.getEncoder(), dir.resolve("metadata").toString(),
        new Variables());
    metadata.getSerializer(PipelineRunConfiguration.class).save(new PipelineRunConfiguration("live", "", null,
        List.of(), runConfiguration(), null, false));
    return PipelineEngineFactory.createPipelineEngine(new Variables(), "live", metadata, meta);
  }

  /**
   * Runs the pipeline live until each file has the lines expected (or the wait is over), cancels
   * it, and gives the files' lines.
   */
  static Map<String, List<String>> runLive(PipelineMeta meta, PipelineOptions options, Path folder,
      Map<String, Integer> lines) throws Exception {
    IVariables variables = PipelineVariables.of(meta, Map.of());
    try (HopPipelineTranslator.Translation translation = HopBeamRun.prepare(meta, variables,
        new MemoryMetadataProvider(), options)) {
      PipelineResult result = translation.pipeline().run();
      try {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline && !allThere(folder, lines)) {
          assertThat(result.getState()).as("the live run is running").isIn(PipelineResult.State.RUNNING,
              PipelineResult.State.UNKNOWN);
          Thread.sleep(200);
        }
        // a while longer, so that a row written beyond those expected would show
        Thread.sleep(SETTLE.toMillis());
      } finally {
        result.cancel();
      }
    }
    return HopBeamTesting.files(folder);
  }

  static boolean allThere(Path folder, Map<String, Integer> lines) throws IOException {
    Map<String, List<String>> files = HopBeamTesting.files(folder);
    return lines.entrySet().stream().allMatch(e -> files.getOrDefault(e.getKey(), List.of()).size() >= e.getValue());
  }

  /**
   * A partition's records: 60 events of three users a second or so apart, some going back further
   * than the watermark delay (late), two without an event time, three that cannot be read, then
   * the closer.
   */
  private static byte[][] records(Random random, int partition) {
    List<byte[]> out = new ArrayList<>();
    long time = START + partition * 700L;
    for (int i = 0; i < 60; i++) {
      time += 300 + random.nextInt(1500);
      long eventTime = i % 9 == 8 ? time - 12_000 - random.nextInt(8_000) : time;
      out.add(event("u" + random.nextInt(3), 1 + random.nextInt(9), String.valueOf(eventTime)));
      if (i == 20) {
        out.add("{\"user\":\"u1\",\"amount\":3}".getBytes(StandardCharsets.UTF_8));
        out.add("{not json".getBytes(StandardCharsets.UTF_8));
      }
      if (i == 40) {
        out.add(event("u2", 4, "null"));
        out.add("{\"user\":\"u0\",\"amount\":\"lots\",\"event_time\":1}".getBytes(StandardCharsets.UTF_8));
        out.add(new byte[] {'{', '"', 'u', (byte) 0xff, '"', ':', '1', '}'});
      }
    }
    out.add(event(CLOSER, 0, String.valueOf(time + 3_600_000)));
    return out.toArray(byte[][]::new);
  }

  static byte[] event(String user, int amount, String time) {
    return ("{\"user\":\"" + user + "\",\"amount\":" + amount + ",\"event_time\":" + time + "}")
        .getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Read (its unreadable records to a file) -> Window (10 s tumbling, 5 s delay, by user, count
   * and sum; late rows and rejected rows to files) -> windows file.
   */
  static PipelineMeta pipeline(String topic, int partitions, boolean stopWhenCaughtUp, Path folder) {
    EventKafkaInputMeta read = new EventKafkaInputMeta();
    read.setDefault();
    read.setBootstrapServers(broker.bootstrapServers());
    read.setTopic(topic);
    read.setStopWhenCaughtUp(stopWhenCaughtUp);
    read.setFields(new ArrayList<>(List.of(new KafkaField("user", "String", null),
        new KafkaField("amount", "Integer", null), new KafkaField("event_time", "Integer", null))));
    EventTimeWindowMeta window = new EventTimeWindowMeta();
    window.setDefault();
    window.setTimeField("event_time");
    window.setWindowSize("10 SECONDS");
    window.setWatermarkDelay("5 SECONDS");
    window.setGroupFields(new ArrayList<>(List.of(new GroupField("user"))));
    window.setAggregates(new ArrayList<>(List.of(new WindowAggregate(null, "count", "events"),
        new WindowAggregate("amount", "sum", "total"))));
    window.setPartitionField("_partition");
    window.setPartitions(String.valueOf(partitions));
    window.setLateTargetTransform("Write late");
    return new PipelineBuilder("kafka-window-" + partitions)
        .transform("Read", read).transform("Window", window)
        .transform("Write windows", output(folder.resolve("windows.ndjson")))
        .transform("Write late", output(folder.resolve("late.ndjson")))
        .transform("Write rejected", output(folder.resolve("rejected.ndjson")))
        .transform("Write unreadable", output(folder.resolve("unreadable.ndjson")))
        .hop("Read", "Window").errorHop("Read", "Write unreadable")
        .hop("Window", "Write windows").hop("Window", "Write late").errorHop("Window", "Write rejected")
        .build();
  }

  private static EventFileOutputMeta output(Path file) {
    EventFileOutputMeta m = new EventFileOutputMeta();
    m.setDefault();
    m.setFilename(file.toString());
    return m;
  }
}
