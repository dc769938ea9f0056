package io.eventtime.hop.gui;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.hop.Samples;
import java.awt.image.BufferedImage;
import java.io.FileReader;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
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
  private static Process xvfb;
  private static String display;

  @TempDir
  Path work;

  @BeforeAll
  static void virtualDisplay() throws Exception {
    Path script = Path.of("src/test/gui/ensure-gui-tools.sh").toAbsolutePath();
    Process install = new ProcessBuilder("sh", script.toString()).inheritIO().start();
    assertThat(install.waitFor(10, TimeUnit.MINUTES)).as("the GUI tools installed within 10 minutes").isTrue();
    assertThat(install.exitValue()).as("installing Xvfb, GTK 3, xdotool and ImageMagick").isZero();
    for (int n = 91; n < 120 && xvfb == null; n++) {
      if (Files.exists(Path.of("/tmp/.X" + n + "-lock")) || Files.exists(Path.of("/tmp/.X11-unix/X" + n))) {
        continue;
      }
      Process p = new ProcessBuilder("Xvfb", ":" + n, "-screen", "0", "1600x1000x24", "-nolisten", "tcp")
          .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      for (int i = 0; i < 100 && p.isAlive() && !Files.exists(Path.of("/tmp/.X11-unix/X" + n)); i++) {
        Thread.sleep(50);
      }
      if (p.isAlive() && Files.exists(Path.of("/tmp/.X11-unix/X" + n))) {
        xvfb = p;
        display = ":" + n;
      } else {
        p.destroyForcibly();
      }
    }
    assertThat(xvfb).as("a virtual display started").isNotNull();
  }

  @AfterAll
  static void stopDisplay() throws Exception {
    if (xvfb != null) {
      xvfb.destroy();
      if (!xvfb.waitFor(10, TimeUnit.SECONDS)) {
        xvfb.destroyForcibly();
      }
    }
  }

  @Test
  void eachDialogSetsItsTransformsSettingsInARealHopGui() throws Exception {
    // -Deventtime.docs.images=true refreshes the screenshots of the docs; by default they go under
    // target/, so that a test run leaves the working tree as it was
    Path images = Boolean.getBoolean("eventtime.docs.images") ? Path.of("../docs/images").toAbsolutePath().normalize()
        : Path.of("target/gui-screenshots").toAbsolutePath();
    Path results = work.resolve("results.properties");
    Path config = Files.createDirectories(work.resolve("config"));
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx1g",
        "-DHOP_CONFIG_FOLDER=" + config,
        "-DHOP_NO_WELCOME_DIALOG=Y",
        "-DHOP_AUTO_CREATE_CONFIG=Y",
        "-DHOP_AUDIT_FOLDER=" + work.resolve("audit"),
        "-cp", System.getProperty("java.class.path"),
        HopGuiDriver.class.getName(),
        images.toString(), results.toString(), work.toString(),
        Samples.folder().resolve("data/events.ndjson").toString()));
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(work.resolve("gui.log").toFile());
    pb.environment().put("DISPLAY", display);
    pb.environment().put("GDK_BACKEND", "x11");
    Process gui = pb.start();
    boolean ended = gui.waitFor(4, TimeUnit.MINUTES);
    if (!ended) {
      gui.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    }
    String log = Files.readString(work.resolve("gui.log"));
    assertThat(ended).as("HopGui ended within 4 minutes; its log:\n" + log).isTrue();
    Properties r = new Properties();
    if (Files.exists(results)) {
      try (Reader in = new FileReader(results.toFile())) {
        r.load(in);
      }
    }
    assertThat(r.getProperty("error")).as("the driver's error; the windows: " + r.getProperty("shells")
        + "; a screenshot: " + work.resolve("failure.png") + "; the log:\n" + log).isNull();
    assertThat(gui.exitValue()).as("HopGui's exit; the log:\n" + log).isZero();
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
    assertThat(values(r, "window", 17)).containsExactly("event_time", "yyyy-MM-dd HH:mm:ss", "seconds",
        "Europe/Paris", "hopping", "10 MINUTES", "${SLIDE}", "5 MINUTES", "1 MINUTE", "2 MINUTES", "event", "from", "to",
        "Late rows", "why", "30 SECONDS", "${java.io.tmpdir}/gui-state");
    assertThat(r.getProperty("window.group")).isEqualTo("merchant");
    assertThat(r.getProperty("window.aggregates")).isEqualTo("null/count/n,amount/sum/total");
    assertThat(r.getProperty("window.lateStream")).isEqualTo("Late rows");
    assertThat(r.getProperty("window.slideEnabled")).isEqualTo("true");
    assertThat(r.getProperty("window.gapEnabled")).isEqualTo("false");

    assertThat(values(r, "stamp", 5)).containsExactly("event_time", "dd/MM/yyyy HH:mm", "milliseconds", "UTC", "stamped");

    assertThat(r.getProperty("input.files")).isEqualTo(Samples.folder().resolve("data/events.ndjson") + "/null");
    assertThat(values(r, "input", 5)).containsExactly("ndjson", "false", "UTC", "file", "line");
    assertThat(r.getProperty("input.fields"))
        .isEqualTo("merchant/String/null,amount/Integer/null,event_time/Timestamp/null");

    assertThat(values(r, "output", 6)).containsExactly("${java.io.tmpdir}/windows.csv", "csv", ";", "false", "true", "true");
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

  private static List<String> values(Properties r, String prefix, int n) {
    List<String> values = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      values.add(r.getProperty(prefix + "." + i));
    }
    return values;
  }
}
