package io.eventtime.runners.flink;

import io.eventtime.cli.RunnerAgreement;
import io.eventtime.testing.kafka.KafkaBroker;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The eventtime command with {@code --runner flink --from kafka://... --until available} (embedded
 * Flink, streaming) prints exactly what its local runner prints over the same topic: the seed
 * page's examples, and a random stream with late and rejected rows in one and in three partitions.
 */
class CliFlinkKafkaAgreesTest {
  private static KafkaBroker broker;

  @TempDir
  Path dir;

  @BeforeAll
  static void startBroker() {
    broker = KafkaBroker.start();
  }

  @AfterAll
  static void closeBroker() {
    broker.close();
  }

  @Test
  void seedPageAndRandomStreamsFromKafka() throws Exception {
    RunnerAgreement.checkKafka("flink", dir, broker);
  }

  @Test
  void exampleBAsTwoRunsWithAState_onThisRunnerAndBesideTheLocalRunner() {
    RunnerAgreement.checkKafkaState("flink", dir, broker);
  }
}
