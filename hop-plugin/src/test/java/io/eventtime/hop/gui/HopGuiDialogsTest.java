package io.eventtime.hop.gui;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.hop.Samples;
import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dialogs in a real HopGui, under Xvfb: HopGuiDriver runs HopGui in its own JVM, opens each
 * dialog, sets values, presses OK; this test checks what the transforms' settings then hold, and
 * that the screenshots of the palette and of each dialog were taken (into target/gui-screenshots,
 * or docs/images with -Deventtime.docs.images=true). Every wait is bounded: the GUI JVM is killed
 * after 4 minutes.
 */
@Tag("gui")
class HopGuiDialogsTest {
  private static VirtualDisplay display;

  @TempDir
  Path work;

  @BeforeAll
  static void virtualDisplay() throws Exception {
    display = VirtualDisplay.start();
  }

  @AfterAll
  static void stopDisplay() throws Exception {
    if (display != null) {
      display.close();
    }
  }

  @Test
  void eachDialogSetsItsTransformsSettingsInARealHopGui() throws Exception {
    Path images = VirtualDisplay.imagesFolder();
    VirtualDisplay.GuiRun run = display.runHopGui(HopGuiDriver.class, work, 4, List.of(), images.toString(),
        work.toString(), Samples.folder().resolve("data/events.ndjson").toString());
    assertThat(run.ended()).as("HopGui ended within 4 minutes; its log:\n" + run.log()).isTrue();
    assertThat(run.get("error")).as("the driver's error; the windows: " + run.get("shells")
        + "; a screenshot: " + work.resolve("failure.png") + "; the log:\n" + run.log()).isNull();
    assertThat(run.exit()).as("HopGui's exit; the log:\n" + run.log()).isZero();
    Properties r = run.results();
    assertThat(r.getProperty("done")).isEqualTo("yes");

    assertThat(r.getProperty("plugin.EventTimeWindow"))
        .isEqualTo("Event Time Window | Event time | io/eventtime/hop/window/event-time-window.svg");
    assertThat(r.getProperty("plugin.EventTimeStamp"))
        .isEqualTo("Event Time Stamp | Event time | io/eventtime/hop/stamp/event-time-stamp.svg");
    assertThat(r.getProperty("plugin.EventFileInput"))
        .isEqualTo("Event File Input | Event time | io/eventtime/hop/fileinput/event-file-input.svg");
    assertThat(r.getProperty("plugin.EventFileOutput"))
        .isEqualTo("Event File Output | Event time | io/eventtime/hop/fileoutput/event-file-output.svg");

    // the session gap keeps its default: it is not used by hopping windows, and its line is disabled
    assertThat(run.values("window", 17)).containsExactly("event_time", "yyyy-MM-dd HH:mm:ss", "seconds",
        "Europe/Paris", "hopping", "10 MINUTES", "${SLIDE}", "5 MINUTES", "1 MINUTE", "2 MINUTES", "event", "from", "to",
        "Late rows", "why", "30 SECONDS", "${java.io.tmpdir}/gui-state");
    assertThat(r.getProperty("window.group")).isEqualTo("merchant");
    assertThat(r.getProperty("window.aggregates")).isEqualTo("null/count/n,amount/sum/total");
    assertThat(r.getProperty("window.lateStream")).isEqualTo("Late rows");
    assertThat(r.getProperty("window.slideEnabled")).isEqualTo("true");
    assertThat(r.getProperty("window.gapEnabled")).isEqualTo("false");

    assertThat(run.values("stamp", 5)).containsExactly("event_time", "dd/MM/yyyy HH:mm", "milliseconds", "UTC", "stamped");

    assertThat(r.getProperty("input.files")).isEqualTo(Samples.folder().resolve("data/events.ndjson") + "/null");
    assertThat(run.values("input", 5)).containsExactly("ndjson", "false", "UTC", "file", "line");
    assertThat(r.getProperty("input.fields"))
        .isEqualTo("merchant/String/null,amount/Integer/null,event_time/Timestamp/null");

    assertThat(run.values("output", 6)).containsExactly("${java.io.tmpdir}/windows.csv", "csv", ";", "false", "true", "true");
    assertThat(r.getProperty("output.fields")).isEqualTo("merchant,total");

    for (String image : List.of("hop-pipeline.png", "hop-palette.png", "hop-event-time-window-dialog.png",
        "hop-event-time-window-dialog-time.png", "hop-event-time-window-dialog-aggregates.png",
        "hop-event-time-window-dialog-late.png", "hop-event-time-stamp-dialog.png", "hop-event-file-input-dialog.png",
        "hop-event-file-output-dialog.png")) {
      BufferedImage png = ImageIO.read(images.resolve(image).toFile());
      assertThat(png).as(image).isNotNull();
      assertThat(png.getWidth() + "x" + png.getHeight()).as(image).isEqualTo(r.getProperty("image." + image));
      assertThat(png.getWidth()).as(image).isGreaterThan(200);
      assertThat(png.getHeight()).as(image).isGreaterThan(150);
    }
  }
}
