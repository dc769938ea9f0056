package io.eventtime.beam;

import static io.eventtime.beam.FlinkLiveJobs.FOLDERS;
import static io.eventtime.beam.FlinkLiveJobs.allCame;
import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.testing.kafka.KafkaBroker;
import java.nio.file.Path;
import java.util.ArrayList;
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
 * Random one-partition streams (fixed seed) produced to Kafka while a job on embedded Flink
 * streaming reads them give what the contract gives over the same rows replayed in offset order:
 * core's {@link io.eventtime.core.WindowProcessor} without the end of input, since the stream
 * never ends (the windows the last watermark closes, the late rows with their reasons, the rows
 * whose time cannot be read). Each stream has its own random query and topic, read by its own
 * KafkaRows into its own EventTimeWindow; several streams share one job, their rows produced
 * interleaved at random. {@value #STREAMS_PROPERTY} sets how many streams (default {@value
 * #DEFAULT_STREAMS}), {@value #STREAMS_PER_JOB} to a job.
 */
class FlinkLiveEqualsReplayTest {
  static final String STREAMS_PROPERTY = "eventtime.flink.live.streams";
  static final int DEFAULT_STREAMS = 4;
  static final int STREAMS_PER_JOB = 6;
  private static final int ROWS = 80;
  private static final long PRODUCE_PAUSE_MILLIS = 5;
  /** After the expected rows came, how long a second emission would have to show. */
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
  void randomStreamsProducedWhileTheJobRuns_giveTheReplaysRows() throws Exception {
    int streams = Integer.getInteger(STREAMS_PROPERTY, DEFAULT_STREAMS);
    Random random = new Random(20261202);
    long late = 0;
    long rejected = 0;
    for (int first = 0; first < streams; first += STREAMS_PER_JOB) {
      List<RandomKafkaStream> batch = new ArrayList<>();
      for (int id = first; id < Math.min(streams, first + STREAMS_PER_JOB); id++) {
        batch.add(RandomKafkaStream.generate(random, ROWS));
      }
      run(first, batch, random);
      for (RandomKafkaStream s : batch) {
        late += s.expected().get("late").size();
        rejected += s.expected().get("rejected").size();
      }
    }
    assertThat(late).as("the streams have late rows").isPositive();
    assertThat(rejected).as("the streams have rows without a usable time").isPositive();
  }

  private void run(int first, List<RandomKafkaStream> streams, Random random) throws Exception {
    Pipeline p = Pipeline.create(FlinkLiveJobs.options(dir.resolve("checkpoints-" + first)));
    List<String> topics = new ArrayList<>();
    for (int i = 0; i < streams.size(); i++) {
      String name = String.format("Stream-%04d", first + i);
      topics.add(name);
      broker.createTopic(name, 1);
      FlinkLiveJobs.addStream(p, name, broker.bootstrapServers(), name, streams.get(i), Optional.empty(), dir.resolve(name));
    }
    PipelineResult job = p.run();
    try {
      int[] next = new int[streams.size()];
      int left = streams.size() * ROWS;
      while (left > 0) {
        int s = random.nextInt(streams.size());
        if (next[s] < ROWS) {
          broker.produce(topics.get(s), 0, streams.get(s).values().get(next[s]++));
          left--;
          Thread.sleep(PRODUCE_PAUSE_MILLIS);
        }
      }
      for (int i = 0; i < streams.size(); i++) {
        Path out = dir.resolve(topics.get(i));
        Map<String, Map<String, String>> expected = streams.get(i).expected();
        FlinkLiveJobs.await(topics.get(i) + "'s outputs, expected " + expected,
            () -> allCame(expected, RowFiles.read(out, FOLDERS)), job);
      }
      Thread.sleep(SETTLE_MILLIS);
      for (int i = 0; i < streams.size(); i++) {
        Path out = dir.resolve(topics.get(i));
        Map<String, Map<String, String>> expected = streams.get(i).expected();
        Map<String, Map<String, String>> came = RowFiles.read(out, FOLDERS);
        for (String folder : FOLDERS) {
          assertThat(came.get(folder)).as("%s %s (query %s)", topics.get(i), folder, streams.get(i).query())
              .isEqualTo(expected.get(folder));
        }
        assertThat(RowFiles.conflicts(out, FOLDERS)).as("%s: a row emitted twice, differing", topics.get(i)).isEmpty();
        assertThat(RowFiles.read(out, List.of("read-rejected")).get("read-rejected")).isEmpty();
      }
    } finally {
      FlinkLiveJobs.stop(job);
    }
  }
}
