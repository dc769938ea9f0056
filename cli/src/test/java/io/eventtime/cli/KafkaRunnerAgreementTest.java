package io.eventtime.cli;

import io.eventtime.testing.kafka.KafkaBrokerExtension;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --runner <runner> --from kafka://... --until available} prints what the local runner
 * prints over the same topic ({@link RunnerAgreement#checkKafka}), and example B as two runs with
 * {@code --state} gives its rows on the runner and beside the local runner each way ({@link
 * RunnerAgreement#checkKafkaState}), also as two runs until a stop signal ({@link
 * RunnerAgreement#checkKafkaStopped}), and a followed topic of three partitions prints the local
 * runner's lines while it runs ({@link RunnerAgreement#checkKafkaFollowedInCloseOrder}). Each runner's module has a subclass, with that runner's classpath.
 */
public abstract class KafkaRunnerAgreementTest {
  @RegisterExtension
  protected static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

  @TempDir
  protected Path dir;

  /** The Beam runner compared with the local runner. */
  protected abstract String runner();

  @Test
  public void seedPageAndRandomStreamsFromKafka() throws Exception {
    RunnerAgreement.checkKafka(runner(), dir, KAFKA.broker());
  }

  @Test
  public void exampleBAsTwoRunsEndedWhenIdleAndBySigterm_windowsPrintedWhileTheRunGoesOn() throws Exception {
    RunnerAgreement.checkKafkaStopped(runner(), dir, KAFKA.broker());
  }

  @Test
  public void aFollowedTopicOfThreePartitions_printsTheLocalRunnersLinesWhileTheRunGoesOn() throws Exception {
    RunnerAgreement.checkKafkaFollowedInCloseOrder(runner(), dir, KAFKA.broker());
  }

  @Test
  public void aPartitionEmptyInTheFirstRunIsReadFromItsStartInTheNext() {
    RunnerAgreement.checkKafkaStateWithAnEmptyPartition(runner(), dir, KAFKA.broker());
  }

  @Test
  public void exampleBAsTwoRunsWithAState_onThisRunnerAndBesideTheLocalRunner() throws Exception {
    RunnerAgreement.checkKafkaState(runner(), dir, KAFKA.broker());
  }
}
