package io.eventtime.cli;

import io.eventtime.testing.kafka.KafkaBroker;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --runner direct --from kafka://... --until available} (the Direct runner in streaming
 * mode, the live path) prints what the local runner prints over the same topic, in one partition
 * and in three (the Flink module checks Flink's).
 */
class DirectRunnerKafkaAgreesTest {
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
    RunnerAgreement.checkKafka("direct", dir, broker);
  }

  @Test
  void exampleBAsTwoRunsWithAState_onThisRunnerAndBesideTheLocalRunner() {
    RunnerAgreement.checkKafkaState("direct", dir, broker);
  }
}
