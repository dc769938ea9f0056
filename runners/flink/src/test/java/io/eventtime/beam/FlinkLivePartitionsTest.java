package io.eventtime.beam;

import static io.eventtime.beam.FlinkLiveJobs.FOLDERS;
import static io.eventtime.beam.FlinkLiveJobs.allCame;
import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.core.WindowSpec;
import io.eventtime.testing.kafka.KafkaBroker;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The live path over several partitions on embedded Flink streaming: two random streams (fixed
 * seed), each in a three-partition topic of a real Kafka broker, read by {@link KafkaRows}
 * (unbounded) into {@link EventTimeWindow} with the partition field and the topic's partitions,
 * their rows produced interleaved at random across partitions and topics while the job runs. One
 * stream has tumbling or hopping windows, the other sessions under policy {@code event}; in each,
 * some keys come from one partition only and some from every partition, and every partition has
 * late rows. The windows, late rows (with their reasons) and rejected rows equal core's
 * {@link io.eventtime.core.PartitionedWindowProcessor} fed the same partitions, each whole, without
 * the end of input (the stream never ends: only what the least of the partitions' watermarks
 * closes), each exactly once.
 */
class FlinkLivePartitionsTest {
  private static final int PARTITIONS = 3;
  private static final int ROWS_PER_PARTITION = 60;
  private static final long PRODUCE_PAUSE_MILLIS = 5;
  /** After the expected rows came, how long a second emission or a window still open would have to show. */
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
  void threePartitionTopicsProducedInterleaved_giveTheCoreProcessorsRows() throws Exception {
    Random random = new Random(20261204);
    List<RandomKafkaStream> streams = List.of(
        RandomKafkaStream.generatePartitioned(random, PARTITIONS, ROWS_PER_PARTITION, false),
        RandomKafkaStream.generatePartitioned(random, PARTITIONS, ROWS_PER_PARTITION, true));
    assertThat(streams.get(1).query().spec()).isInstanceOf(WindowSpec.Session.class);
    for (RandomKafkaStream s : streams) {
      assertPremises(s);
    }

    Pipeline p = Pipeline.create(FlinkLiveJobs.options(dir.resolve("checkpoints")));
    for (int i = 0; i < streams.size(); i++) {
      String topic = topic(i);
      broker.createTopic(topic, PARTITIONS);
      FlinkLiveJobs.addStream(p, topic, broker.bootstrapServers(), topic, streams.get(i), Optional.empty(),
          dir.resolve(topic));
    }
    PipelineResult job = p.run();
    try {
      produceInterleaved(streams, random);
      for (int i = 0; i < streams.size(); i++) {
        Path out = dir.resolve(topic(i));
        Map<String, Map<String, String>> expected = streams.get(i).expected();
        FlinkLiveJobs.await(topic(i) + "'s outputs, expected " + expected,
            () -> allCame(expected, RowFiles.read(out, FOLDERS)), job);
      }
      Thread.sleep(SETTLE_MILLIS);
      for (int i = 0; i < streams.size(); i++) {
        Path out = dir.resolve(topic(i));
        Map<String, Map<String, String>> came = RowFiles.read(out, FOLDERS);
        Map<String, Map<String, String>> expected = streams.get(i).expected();
        for (String folder : FOLDERS) {
          assertThat(came.get(folder)).as("%s %s (query %s)", topic(i), folder, streams.get(i).query())
              .isEqualTo(expected.get(folder));
        }
        assertThat(RowFiles.conflicts(out, FOLDERS)).as("%s: a row emitted twice, differing", topic(i)).isEmpty();
        assertThat(RowFiles.read(out, List.of("read-rejected")).get("read-rejected")).isEmpty();
      }
    } finally {
      FlinkLiveJobs.stop(job);
    }
  }

  private static String topic(int stream) {
    return "Partitioned-" + stream;
  }

  /**
   * What the stream must have for the test to mean something: late rows in every partition, rows
   * without a usable time, and closed windows of a key confined to one partition and of a key
   * spread over all.
   */
  private static void assertPremises(RandomKafkaStream s) {
    Map<String, Map<String, String>> expected = s.expected();
    Set<String> latePartitions = expected.get("late").keySet().stream().map(id -> id.split("\\|")[0])
        .collect(Collectors.toSet());
    assertThat(latePartitions).as("partitions with late rows (%s)", s.query()).hasSize(PARTITIONS);
    assertThat(expected.get("rejected")).as("rows without a usable time").isNotEmpty();
    Set<String> keys = expected.get("windows").keySet().stream().map(id -> id.split("\\|")[0])
        .collect(Collectors.toSet());
    assertThat(keys).as("keys of closed windows (%s)", s.query()).contains("ann", "dee");
  }

  /** Each partition's rows in order, the partitions and topics merged at random. */
  private static void produceInterleaved(List<RandomKafkaStream> streams, Random random) throws InterruptedException {
    int[][] next = new int[streams.size()][PARTITIONS];
    int left = streams.size() * PARTITIONS * ROWS_PER_PARTITION;
    while (left > 0) {
      int s = random.nextInt(streams.size());
      int partition = random.nextInt(PARTITIONS);
      List<String> values = streams.get(s).partitions().get(partition);
      if (next[s][partition] < values.size()) {
        broker.produce(topic(s), partition, values.get(next[s][partition]++));
        left--;
        Thread.sleep(PRODUCE_PAUSE_MILLIS);
      }
    }
  }
}
