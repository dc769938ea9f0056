package io.eventtime.cli;

import org.junit.jupiter.api.Test;

/** {@link KafkaRunnerAgreementTest} on the Direct runner in streaming mode (the Flink module checks Flink's). */
class DirectRunnerKafkaAgreesTest extends KafkaRunnerAgreementTest {
  @Override
  protected String runner() {
    return "direct";
  }

  /**
   * On Direct only: Flink's runs go through the same driver (the same stored lengths and
   * cut-back), and each of its runs starts an embedded cluster, which the suite's time cannot take
   * four times over.
   */
  @Test
  void killedAtRandomPointsAndRestarted_theFilesAreOneUninterruptedRunsExactly() throws Exception {
    RunnerAgreement.checkKafkaKilled(runner(), dir, KAFKA.broker());
  }
}
