package io.eventtime.beam;

import static io.eventtime.beam.FlinkLiveJobs.FOLDERS;
import static io.eventtime.beam.FlinkLiveJobs.allCame;
import static io.eventtime.beam.FlinkLiveJobs.await;
import static io.eventtime.beam.FlinkLiveJobs.lastCheckpoint;
import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.testing.kafka.KafkaBroker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fault tolerance of the live path on embedded Flink streaming, with a checkpoint every 500 ms: a
 * job reading a one-partition topic (rows produced while it runs, late and unreadable rows among
 * them) fails and is restored, and what its idempotent sink ({@link RowFiles}) holds at the end
 * equals what core's {@link io.eventtime.core.WindowProcessor} gives over the same rows (the
 * windows the last watermark closes, the late and the rejected rows): no window lost, none
 * differing from an uninterrupted run, a row emitted again after the restore the same as before.
 *
 * <p>The failure: a step before the windows throws once at a chosen row, after a checkpoint has
 * completed; Flink restarts the job from its last checkpoint and it goes on. A new job started
 * from a retained checkpoint or a savepoint is not tested: on Beam 2.62's Flink runner it reads
 * the partition twice (docs/live-streams.md, "On the Flink runner").
 */
class FlinkRestoreTest {
  private static final int ROWS = 150;
  /** The pause between produced rows, so that they come while the job runs and checkpoints. */
  private static final long PRODUCE_PAUSE_MILLIS = 15;
  /** After the expected rows came, how long a differing re-emission would have to show. */
  private static final long SETTLE_MILLIS = 3_000;

  private static KafkaBroker broker;

  @BeforeAll
  static void startBroker() {
    broker = KafkaBroker.start();
  }

  @AfterAll
  static void closeBroker() {
    broker.close();
  }

  @TempDir
  Path dir;

  @Test
  void aFailureMidStream_restartsFromTheLastCheckpoint_theOutputsAreAnUninterruptedRuns() throws Exception {
    String topic = "restart";
    broker.createTopic(topic, 1);
    RandomKafkaStream stream = RandomKafkaStream.generate(new Random(11), ROWS);
    int failAt = ROWS * 2 / 3;
    Path marker = dir.resolve("thrown");
    Path out = dir.resolve("out");
    Pipeline p = Pipeline.create(FlinkLiveJobs.options(dir.resolve("checkpoints")));
    FlinkLiveJobs.addStream(p, "Stream", broker.bootstrapServers(), topic, stream,
        Optional.of(new FlinkLiveJobs.FailOnce(failAt, marker)), out);

    PipelineResult job = p.run();
    try {
      produce(topic, stream.values().subList(0, ROWS / 3));
      // the failure must come after a checkpoint that holds some of the stream: wait for outputs, then a checkpoint
      await("outputs of the first rows", () -> !RowFiles.read(out, FOLDERS).get("windows").isEmpty(), job);
      long seen = lastCheckpoint(dir.resolve("checkpoints")).map(FlinkLiveJobs::number).orElse(0L);
      await("a checkpoint after the first outputs", () -> lastCheckpoint(dir.resolve("checkpoints"))
          .map(FlinkLiveJobs::number).orElse(0L) > seen, job);
      produce(topic, stream.values().subList(ROWS / 3, ROWS));

      assertOutputsAre(stream.expected(), out, job);
      assertThat(Files.exists(marker)).as("the planned failure happened").isTrue();
      assertThat(job.getState()).isEqualTo(PipelineResult.State.RUNNING);
    } finally {
      FlinkLiveJobs.stop(job);
    }
  }

  private static void produce(String topic, List<String> values) throws InterruptedException {
    for (String v : values) {
      broker.produce(topic, 0, v);
      Thread.sleep(PRODUCE_PAUSE_MILLIS);
    }
  }

  /** Waits for every expected file, lets re-emissions show, then compares every folder and the conflicts. */
  private static void assertOutputsAre(Map<String, Map<String, String>> expected, Path out, PipelineResult job)
      throws InterruptedException {
    assertThat(expected.get("windows")).as("windows close before the end").isNotEmpty();
    assertThat(expected.get("late")).as("the stream has late rows").isNotEmpty();
    await("every expected output; expected " + expected, () -> allCame(expected, RowFiles.read(out, FOLDERS)), job);
    Thread.sleep(SETTLE_MILLIS);
    Map<String, Map<String, String>> came = RowFiles.read(out, FOLDERS);
    for (String folder : FOLDERS) {
      assertThat(came.get(folder)).as(folder).isEqualTo(expected.get(folder));
    }
    assertThat(RowFiles.read(out, List.of("read-rejected")).get("read-rejected")).isEmpty();
    assertThat(RowFiles.conflicts(out, FOLDERS)).as("rows written again with other content").isEmpty();
  }
}
