package io.eventtime.hop.gui;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.hop.Documentation;
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
 * dialog, sets values, presses OK; this test checks what the transforms' settings then hold, what
 * the dialogs' Get fields, Preview and Help buttons did, how a disabled setting looks, and that the
 * screenshots of the palette and of each dialog were taken (into target/gui-screenshots,
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

    // Help opens each transform's page in docs/hop/ of the project's repository
    for (String[] plugin : new String[][] {{"EventTimeWindow", "event-time-window.md"},
        {"EventTimeStamp", "event-time-stamp.md"}, {"EventFileInput", "event-file-input.md"},
        {"EventFileOutput", "event-file-output.md"}}) {
      assertThat(r.getProperty("help." + plugin[0])).isEqualTo(Documentation.PAGES + plugin[1]);
      assertThat(Path.of("../docs/hop", plugin[1])).as("the page of " + plugin[0]).isRegularFile();
    }
    assertThat(r.getProperty("window.help")).isEqualTo(Documentation.PAGES + "event-time-window.md");
    assertThat(r.getProperty("input.help")).isEqualTo(Documentation.PAGES + "event-file-input.md");
    assertThat(List.of(r.getProperty("window.helpWindow"), r.getProperty("input.helpWindow")))
        .as("no 'help is not available' window").containsExactly("none", "none");

    // Get fields beside Group by and Aggregates: the fields coming in (the aggregate left to choose)
    assertThat(r.getProperty("window.getGroup")).isEqualTo("merchant,amount,event_time");
    assertThat(r.getProperty("window.getAggregates"))
        .isEqualTo("/count/events,merchant//merchant,amount//amount,event_time//event_time");

    // a setting the chosen kind or format does not use is disabled and looks so: grey on grey
    assertThat(r.getProperty("window.gapLook")).isEqualTo("disabled input 225,225,225 on 100,100,100, label 100,100,100");
    assertThat(r.getProperty("window.slideLook")).isEqualTo("enabled input 254,254,254 on 0,0,0, label 0,0,0");
    assertThat(r.getProperty("input.delimiterLook")).isEqualTo("disabled input 225,225,225 on 100,100,100, label 100,100,100");

    // Preview of Event File Input: the first 3 rows of the file, as the dialog has the settings
    // (merchant, amount, event_time as Hop shows a Timestamp, file, line)
    Path events = Samples.folder().resolve("data/events.ndjson");
    assertThat(r.getProperty("input.preview")).isEqualTo(
        "acme/250/2026/07/18 10:00:03.000000000/" + events + "/1,"
            + "globex/42/2026/07/18 10:00:07.000000000/" + events + "/2,"
            + "acme/980/2026/07/18 10:01:12.000000000/" + events + "/3");

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
    assertThat(run.values("input", 7)).containsExactly("ndjson", "false", "UTC", "file", "line", "true", "1 SECOND");
    assertThat(r.getProperty("input.fields"))
        .isEqualTo("merchant/String/null,amount/Integer/null,event_time/Timestamp/null");

    assertThat(run.values("output", 6)).containsExactly("${java.io.tmpdir}/windows.csv", "csv", ";", "false", "true", "true");
    assertThat(r.getProperty("output.fields")).isEqualTo("merchant,total");

    for (String image : List.of("hop-pipeline.png", "hop-palette.png", "hop-event-time-window-dialog.png",
        "hop-event-time-window-dialog-time.png", "hop-event-time-window-dialog-aggregates.png",
        "hop-event-time-window-dialog-late.png", "hop-event-time-stamp-dialog.png", "hop-event-file-input-dialog.png",
        "hop-event-file-output-dialog.png", "hop-event-file-input-preview.png")) {
      BufferedImage png = ImageIO.read(images.resolve(image).toFile());
      assertThat(png).as(image).isNotNull();
      assertThat(png.getWidth() + "x" + png.getHeight()).as(image).isEqualTo(r.getProperty("image." + image));
      assertThat(png.getWidth()).as(image).isGreaterThan(200);
      assertThat(png.getHeight()).as(image).isGreaterThan(150);
    }
  }
}
