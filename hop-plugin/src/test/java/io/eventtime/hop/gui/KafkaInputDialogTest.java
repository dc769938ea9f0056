package io.eventtime.hop.gui;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.testing.kafka.KafkaBroker;
import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Event Kafka Input's dialog in a real HopGui under Xvfb: Get fields samples a topic of the test
 * broker (started here; the GUI's JVM connects to it), OK sets the transform's settings, and the
 * screenshot for docs/images is taken (with -Deventtime.docs.images=true).
 */
@Tag("gui")
class KafkaInputDialogTest {
  @TempDir
  Path work;

  @Test
  void getFieldsReadsTheTopicOfTheTestBroker() throws Exception {
    try (KafkaBroker broker = KafkaBroker.start(); VirtualDisplay display = VirtualDisplay.start()) {
      broker.createTopic("payments", 3);
      broker.produce("payments", 0, "{\"merchant\":\"acme\",\"amount\":250,\"event_time\":\"2026-07-18T10:00:03Z\"}");
      broker.produce("payments", 1, "{\"merchant\":\"globex\",\"amount\":42.5,\"event_time\":\"2026-07-18T10:00:07Z\"}",
          "{\"merchant\":\"initech\",\"amount\":7,\"refund\":true,\"event_time\":\"2026-07-18T10:00:09Z\"}");
      Path images = VirtualDisplay.imagesFolder();
      VirtualDisplay.GuiRun run = display.runHopGui(KafkaInputDialogDriver.class, work, 3, List.of(), images.toString(),
          work.toString(), broker.bootstrapServers(), "payments");
      assertThat(run.ended()).as("HopGui ended within 3 minutes; its log:\n" + run.log()).isTrue();
      assertThat(run.get("error")).as("the driver's error; the windows: " + run.get("shells") + "; the log:\n"
          + run.log()).isNull();
      assertThat(run.values("kafka", 7)).containsExactly(broker.bootstrapServers(), "payments", "hop-designer", "true",
          "json", "_partition", "_offset");
      assertThat(run.get("kafka.fields"))
          .isEqualTo("merchant/String,amount/Number,event_time/Timestamp,refund/Boolean");
      BufferedImage png = ImageIO.read(images.resolve("hop-event-kafka-input-dialog.png").toFile());
      assertThat(png).isNotNull();
      assertThat(png.getWidth()).isGreaterThan(200);
      assertThat(png.getHeight()).isGreaterThan(150);
    }
  }
}
