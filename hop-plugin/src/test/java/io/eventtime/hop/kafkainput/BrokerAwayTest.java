package io.eventtime.hop.kafkainput;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.hop.HopTestEnvironment;
import io.eventtime.hop.LocalRun;
import io.eventtime.hop.PipelineBuilder;
import io.eventtime.hop.Rows;
import io.eventtime.testing.kafka.KafkaBroker;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A broker that goes away while Event Kafka Input runs: the run waits, and goes on when it is back. */
class BrokerAwayTest {
  private static final String ROW = "{\"user\":\"%s\",\"amount\":%d,\"event_time\":\"2026-07-18T10:00:0%dZ\"}";

  @Test
  void theRunWaitsForTheBrokerAndLosesNoRow() throws Exception {
    HopTestEnvironment.init();
    try (KafkaBroker broker = KafkaBroker.start()) {
      broker.createTopic("away", 1);
      broker.produce("away", 0, String.format(ROW, "ann", 1, 1));
      EventKafkaInputMeta m = EventKafkaInputTest.input(broker.bootstrapServers(), "away",
          new KafkaField("user", "String", null), new KafkaField("amount", "Integer", null),
          new KafkaField("event_time", "Timestamp", null));
      m.setStopWhenCaughtUp(false);
      LocalRun.Started run = new LocalRun(new PipelineBuilder("away").transform("read", m).dummy("out")
          .hop("read", "out").build()).start("out");
      run.await("the first row", Duration.ofSeconds(30), () -> run.result().rows("out").size() == 1);

      broker.stop();
      Thread.sleep(2_000);
      assertThat(run.result().pipeline().isFinished()).as("the run waits while the broker is away").isFalse();
      broker.restart();
      broker.produce("away", 0, String.format(ROW, "bob", 2, 2), String.format(ROW, "cat", 3, 3));
      run.await("the rows produced after the broker came back", Duration.ofSeconds(60),
          () -> run.result().rows("out").size() == 3);
      run.result().pipeline().stopAll();
      run.result().pipeline().waitUntilFinished();

      assertThat(run.result().errors()).isZero();
      assertThat(Rows.text(run.result().rows("out"))).containsExactly(
          "ann|1|2026-07-18 10:00:01|0|0",
          "bob|2|2026-07-18 10:00:02|0|1",
          "cat|3|2026-07-18 10:00:03|0|2");
    }
  }
}
