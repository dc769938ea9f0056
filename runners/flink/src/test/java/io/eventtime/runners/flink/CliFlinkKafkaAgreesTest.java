package io.eventtime.runners.flink;

import io.eventtime.cli.KafkaRunnerAgreementTest;

/** {@link KafkaRunnerAgreementTest} on embedded Flink in streaming mode. */
class CliFlinkKafkaAgreesTest extends KafkaRunnerAgreementTest {
  @Override
  protected String runner() {
    return "flink";
  }
}
