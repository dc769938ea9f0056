package io.eventtime.beam;

import static io.eventtime.beam.FlinkLiveJobs.FOLDERS;
import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.testing.kafka.KafkaBroker;
import io.eventtime.testing.kafka.KafkaBrokerExtension;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link KafkaRows#withLiveUntilAvailable()} on embedded Flink streaming: random streams of 1 and 3
 * partitions, produced before the job, read as live streams that end; the job ends by itself, and
 * its window, late and rejected rows and its stats counters are core's over the same partitions fed
 * whole and then drained (the end of the read emits the windows still open).
 */
class FlinkLiveUntilAvailableTest {
  @RegisterExtension
  static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

  @TempDir
  Path dir;

  @Test
  void randomStreamsOfOneAndThreePartitions_endByThemselves_withTheDrainedReplaysRowsAndStats() {
    Random random = new Random(20261204);
    run("one", RandomKafkaStream.generate(random, 120));
    run("three", RandomKafkaStream.generatePartitioned(random, 3, 60, false));
    run("sessions", RandomKafkaStream.generatePartitioned(random, 3, 60, true));
  }

  private void run(String topic, RandomKafkaStream stream) {
    KafkaBroker broker = KAFKA.broker();
    broker.createTopic(topic, stream.partitions().size());
    for (int partition = 0; partition < stream.partitions().size(); partition++) {
      broker.produce(topic, partition, stream.partitions().get(partition).toArray(String[]::new));
    }
    FlinkPipelineOptions options = FlinkLiveJobs.options(dir.resolve(topic + "-checkpoints"));
    options.setAttachedMode(true);
    // with checkpoints on, the Flink runner keeps a finished source open for them unless told otherwise
    options.setShutdownSourcesAfterIdleMs(0L);
    Pipeline p = Pipeline.create(options);
    Path out = dir.resolve(topic);
    FlinkLiveJobs.addStream(p, "Window", broker.bootstrapServers(), topic, stream, Optional.empty(), out,
        KafkaRows::withLiveUntilAvailable);
    PipelineResult job = p.run();
    assertThat(job.waitUntilFinish()).as("the job ends at the end offsets").isEqualTo(PipelineResult.State.DONE);

    RandomKafkaStream.Replay expected = stream.replay(true);
    Map<String, Map<String, String>> came = RowFiles.read(out, FOLDERS);
    for (String folder : FOLDERS) {
      assertThat(came.get(folder)).as("%s %s (query %s)", topic, folder, stream.query()).isEqualTo(expected.files().get(folder));
    }
    assertThat(RowFiles.read(out, List.of("read-rejected")).get("read-rejected")).isEmpty();
    assertThat(EventTimeMetrics.stats(job, "Window")).as("%s stats", topic).isEqualTo(expected.stats());
  }
}
