package io.eventtime.hop.kafkainput;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.hop.HopTestEnvironment;
import io.eventtime.hop.LocalRun;
import io.eventtime.hop.kafkainput.ExactlyOnceStreams.Event;
import io.eventtime.testing.kafka.KafkaBroker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.hop.pipeline.transform.ITransform;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Event Kafka Input, Event Time Window with a partition field and a state folder, Event File
 * Output, on the local engine, in two parts with a stop between (the pipeline stopped as
 * HopGui's stop button does, while rows are still in the hops): the file is exactly that of one
 * uninterrupted run (core's processor over each partition in offset order), and the second part
 * reads only the rows the first did not take in.
 */
class StateAcrossRestartsTest {
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

  @ParameterizedTest
  @ValueSource(ints = {1, 3})
  void twoPartsWithAStopBetweenWriteTheFileOfOneRunAndReadNoRowTwice(int partitions) throws Exception {
    String topic = "restarts-" + partitions;
    broker.createTopic(topic, partitions);
    List<List<Event>> stream = ExactlyOnceStreams.randomStream(partitions, 3000 / partitions, 7 + partitions);
    int half = 1500 / partitions;
    ExactlyOnceStreams.produce(broker, topic, stream, 0, half);
    Path state = dir.resolve("state");
    Path output = dir.resolve("windows.ndjson");

    LocalRun.Started first = new LocalRun(ExactlyOnceStreams.pipeline(broker.bootstrapServers(), topic, partitions,
        state, output, false)).start();
    ITransform read1 = first.result().pipeline().getTransform("read", 0);
    first.await("the first half read", Duration.ofSeconds(30), () -> read1.getLinesInput() == (long) half * partitions);
    first.result().pipeline().stopAll();
    first.result().pipeline().waitUntilFinished();
    assertThat(first.result().errors()).isZero();
    assertThat(Files.readString(state.resolve("state.json"))).contains("\"next_offset\":" + half);

    ExactlyOnceStreams.produce(broker, topic, stream, half, Integer.MAX_VALUE);
    LocalRun.Result second = new LocalRun(ExactlyOnceStreams.pipeline(broker.bootstrapServers(), topic, partitions,
        state, output, true)).run();
    assertThat(second.errors()).isZero();

    int total = ExactlyOnceStreams.total(stream);
    assertThat(read1.getLinesInput() + second.pipeline().getTransform("read", 0).getLinesInput())
        .as("rows read by the two parts").isEqualTo(total);
    String expected = ExactlyOnceStreams.expectedFile(stream);
    assertThat(expected.lines().count()).as("windows closed").isGreaterThan(50);
    assertThat(Files.readString(output)).isEqualTo(expected);
  }
}
