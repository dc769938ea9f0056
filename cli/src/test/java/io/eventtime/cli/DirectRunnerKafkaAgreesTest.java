package io.eventtime.cli;

/** {@link KafkaRunnerAgreementTest} on the Direct runner in streaming mode (the Flink module checks Flink's). */
class DirectRunnerKafkaAgreesTest extends KafkaRunnerAgreementTest {
  @Override
  protected String runner() {
    return "direct";
  }
}
