package io.eventtime.hop.gui;

import java.io.FileReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * A virtual X display (Xvfb) for the GUI tests, and the JVMs that run HopGui on it with a
 * {@link GuiRobot}. {@link #start()} first installs what is missing (Xvfb, GTK 3, xdotool,
 * ImageMagick: {@code ensure-gui-tools.sh}, with apt-get when run as root), so that the tests
 * run on a fresh Debian machine.
 */
public final class VirtualDisplay implements AutoCloseable {
  private final Process xvfb;
  private final String name;

  private VirtualDisplay(Process xvfb, String name) {
    this.xvfb = xvfb;
    this.name = name;
  }

  /** What a GUI JVM left: its robot's results, its log and how it ended. */
  public record GuiRun(Properties results, String log, boolean ended, int exit) {
    public String get(String key) {
      return results.getProperty(key);
    }

    /** The values the robot recorded under {@code prefix.0 .. prefix.(n-1)}. */
    public List<String> values(String prefix, int n) {
      List<String> values = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        values.add(results.getProperty(prefix + "." + i));
      }
      return values;
    }
  }

  public static VirtualDisplay start() throws IOException, InterruptedException {
    Path script = Files.createTempFile("ensure-gui-tools", ".sh");
    try (InputStream in = Objects.requireNonNull(VirtualDisplay.class.getResourceAsStream("ensure-gui-tools.sh"))) {
      Files.copy(in, script, StandardCopyOption.REPLACE_EXISTING);
    }
    try {
      Process install = new ProcessBuilder("sh", script.toString()).inheritIO().start();
      if (!install.waitFor(10, TimeUnit.MINUTES)) {
        install.destroyForcibly();
        throw new IllegalStateException("installing Xvfb, GTK 3, xdotool and ImageMagick took over 10 minutes");
      }
      if (install.exitValue() != 0) {
        throw new IllegalStateException("installing Xvfb, GTK 3, xdotool and ImageMagick failed: exit "
            + install.exitValue());
      }
    } finally {
      Files.deleteIfExists(script);
    }
    for (int n = 91; n < 120; n++) {
      if (Files.exists(Path.of("/tmp/.X" + n + "-lock")) || Files.exists(Path.of("/tmp/.X11-unix/X" + n))) {
        continue;
      }
      Process p = new ProcessBuilder("Xvfb", ":" + n, "-screen", "0", "1600x1000x24", "-nolisten", "tcp")
          .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      for (int i = 0; i < 100 && p.isAlive() && !Files.exists(Path.of("/tmp/.X11-unix/X" + n)); i++) {
        Thread.sleep(50);
      }
      if (p.isAlive() && Files.exists(Path.of("/tmp/.X11-unix/X" + n))) {
        return new VirtualDisplay(p, ":" + n);
      }
      p.destroyForcibly();
    }
    throw new IllegalStateException("no virtual display could start on :91 to :119");
  }

  /**
   * Where the screenshots go: docs/images with {@code -Deventtime.docs.images=true} (to refresh
   * the docs' pictures), else under target/ so that a test run leaves the working tree as it was.
   */
  public static Path imagesFolder() {
    return Boolean.getBoolean("eventtime.docs.images") ? Path.of("../docs/images").toAbsolutePath().normalize()
        : Path.of("target/gui-screenshots").toAbsolutePath();
  }

  /**
   * Runs {@code robot}'s main in a JVM of its own with the test's class path, on this display,
   * with Hop's config folder under {@code work}; the JVM is killed after {@code minutes}.
   * {@code jvmOptions} come before the class name, {@code args} after the results file.
   */
  public GuiRun runHopGui(Class<?> robot, Path work, int minutes, List<String> jvmOptions, String... args)
      throws IOException, InterruptedException {
    Path results = work.resolve("results.properties");
    Path config = Files.createDirectories(work.resolve("config"));
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx1g",
        "-DHOP_CONFIG_FOLDER=" + config,
        "-DHOP_NO_WELCOME_DIALOG=Y",
        "-DHOP_AUTO_CREATE_CONFIG=Y",
        "-DHOP_AUDIT_FOLDER=" + work.resolve("audit")));
    command.addAll(jvmOptions);
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), robot.getName(), results.toString()));
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(work.resolve("gui.log").toFile());
    pb.environment().put("DISPLAY", name);
    pb.environment().put("GDK_BACKEND", "x11");
    desktopThatRecordsWebAddresses(work, pb.environment());
    Process gui = pb.start();
    boolean ended = gui.waitFor(minutes, TimeUnit.MINUTES);
    if (!ended) {
      gui.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    }
    Properties r = new Properties();
    if (Files.exists(results)) {
      try (Reader in = new FileReader(results.toFile())) {
        r.load(in);
      }
    }
    return new GuiRun(r, Files.readString(work.resolve("gui.log")), ended, ended ? gui.exitValue() : -1);
  }

  /**
   * A desktop whose web browser is a script that appends each address it is asked to open to
   * {@code opened-urls.txt} in the work folder: the GUI's Help buttons can be checked without a
   * browser. GTK finds it through the XDG folders, set under the work folder.
   */
  private static void desktopThatRecordsWebAddresses(Path work, Map<String, String> environment) throws IOException {
    Path data = work.resolve("xdg-data");
    Path config = Files.createDirectories(work.resolve("xdg-config"));
    Path script = work.resolve("record-url.sh");
    Files.writeString(script, "#!/bin/sh\necho \"$1\" >> '" + work.resolve("opened-urls.txt") + "'\n");
    script.toFile().setExecutable(true);
    Files.writeString(Files.createDirectories(data.resolve("applications")).resolve("record-url.desktop"),
        "[Desktop Entry]\nType=Application\nName=Record URL\nExec=" + script + " %u\nNoDisplay=true\n"
            + "MimeType=x-scheme-handler/http;x-scheme-handler/https;\n");
    Files.writeString(config.resolve("mimeapps.list"), "[Default Applications]\n"
        + "x-scheme-handler/http=record-url.desktop\nx-scheme-handler/https=record-url.desktop\n");
    environment.put("XDG_DATA_HOME", data.toString());
    environment.put("XDG_CONFIG_HOME", config.toString());
  }

  @Override
  public void close() throws InterruptedException {
    xvfb.destroy();
    if (!xvfb.waitFor(10, TimeUnit.SECONDS)) {
      xvfb.destroyForcibly();
    }
  }
}
