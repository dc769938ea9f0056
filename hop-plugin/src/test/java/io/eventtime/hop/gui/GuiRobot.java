package io.eventtime.hop.gui;

import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.apache.hop.i18n.BaseMessages;
import org.apache.hop.ui.core.widget.TableView;
import org.apache.hop.ui.hopgui.file.pipeline.HopGuiPipelineGraph;
import org.eclipse.swt.custom.CCombo;
import org.eclipse.swt.widgets.Text;
import org.apache.hop.ui.hopgui.HopGui;
import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.Event;
import org.eclipse.swt.widgets.Shell;

/**
 * Drives the real HopGui in its own JVM (under Xvfb, see {@link VirtualDisplay}): {@link #run}
 * starts HopGui's main on the main thread and {@link #drive()} on another, which works the
 * widgets through the UI thread as a user would, records what it finds in {@link #results}
 * (written to a properties file for the test to check) and takes screenshots with ImageMagick.
 * Every wait is bounded; the JVM ends when the drive ends, with a non-zero status if it failed.
 */
public abstract class GuiRobot {
  private static final long WAIT_MILLIS = 60_000;

  protected final Path images;
  protected final Path work;
  protected final Map<String, String> results = new TreeMap<>();
  protected Display display;
  private Thread uiThread;

  protected GuiRobot(Path images, Path work) {
    this.images = images;
    this.work = work;
  }

  /** What the robot does once HopGui is up; the results file is written when it returns or throws. */
  protected abstract void drive() throws Exception;

  /** Runs HopGui on this thread and the robot beside it, then ends the JVM. */
  public static void run(GuiRobot robot, Path resultsFile) {
    robot.uiThread = Thread.currentThread();
    Thread t = new Thread(() -> {
      int status = 0;
      try {
        robot.display = waitFor("the display", () -> Display.findDisplay(robot.uiThread));
        robot.waitFor("the HopGui window", () -> robot.ui(() -> {
          Shell shell = HopGui.getInstance().getShell();
          return shell != null && shell.isVisible() ? shell : null;
        }));
        robot.closeOtherShells();
        robot.drive();
        robot.results.put("done", "yes");
      } catch (Throwable e) {
        e.printStackTrace();
        robot.results.put("error", String.valueOf(e));
        robot.describeScreen();
        status = 3;
      }
      try {
        robot.write(resultsFile);
      } catch (IOException e) {
        e.printStackTrace();
        status = 4;
      }
      System.out.flush();
      Runtime.getRuntime().halt(status);
    }, "hop-gui-robot");
    t.setDaemon(true);
    t.start();
    HopGui.main(new String[0]);
  }

  /** Closes what HopGui may show first (a welcome window), so that the main window has the focus. */
  private void closeOtherShells() throws Exception {
    pause(1000);
    ui(() -> {
      Shell main = HopGui.getInstance().getShell();
      for (Shell s : display.getShells()) {
        if (s != main && !s.isDisposed() && s.isVisible()) {
          s.close();
        }
      }
      return null;
    });
  }

  /** The visible window with this title, once it shows. */
  protected Shell waitForShell(String title) throws Exception {
    Shell shell = waitFor("the window " + title, () -> ui(() -> {
      for (Shell s : display.getShells()) {
        if (!s.isDisposed() && s.isVisible() && title.equals(s.getText())) {
          return s;
        }
      }
      return null;
    }));
    pause(500);
    return shell;
  }

  /** A visible window other than {@code main}, or null. */
  protected Shell otherShell(Shell main) {
    for (Shell s : display.getShells()) {
      if (s != main && !s.isDisposed() && s.isVisible()) {
        return s;
      }
    }
    return null;
  }

  /** Presses the button with this text, as a click does. */
  protected void press(Shell shell, String text) throws Exception {
    ui(() -> {
      Button button = java.util.Objects.requireNonNull(find(shell, Button.class, b -> text.equals(b.getText())),
          "no button " + text + " in " + shell.getText());
      button.notifyListeners(SWT.Selection, new Event());
      return null;
    });
  }

  /** Replaces a table's rows with these, as typed in. */
  protected static void fill(TableView table, String[]... rows) {
    table.table.removeAll();
    for (String[] row : rows) {
      table.add(row);
    }
    table.removeEmptyRows();
    table.setRowNums();
    table.optWidth(true);
  }

  protected void waitClosed(Shell shell) throws Exception {
    waitFor("the window to close", () -> ui(() -> shell.isDisposed() ? Boolean.TRUE : null));
    pause(300);
  }

  protected void record(String prefix, List<String> values) {
    for (int i = 0; i < values.size(); i++) {
      results.put(prefix + "." + i, String.valueOf(values.get(i)));
    }
  }

  protected static <T extends Control> T find(Control root, Class<T> type, Predicate<T> test) {
    return all(root, type).stream().filter(test).findFirst().orElse(null);
  }

  protected static <T extends Control> List<T> all(Control root, Class<T> type) {
    List<T> found = new ArrayList<>();
    collect(root, type, found);
    return found;
  }

  private static <T extends Control> void collect(Control c, Class<T> type, List<T> found) {
    if (type.isInstance(c)) {
      found.add(type.cast(c));
    }
    if (c instanceof Composite composite) {
      for (Control child : composite.getChildren()) {
        collect(child, type, found);
      }
    }
  }

  /** What was on the screen when the robot failed: the windows, and a screenshot in the work folder. */
  private void describeScreen() {
    try {
      results.put("shells", ui(() -> Arrays.stream(display.getShells())
          .map(sh -> "'" + sh.getText() + "' visible=" + sh.isVisible() + " " + sh.getBounds())
          .collect(Collectors.joining("; "))));
      new ProcessBuilder("import", "-window", "root", work.resolve("failure.png").toString()).start()
          .waitFor(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      results.put("shells", "unknown: " + e);
    }
  }

  /** A screenshot of a region of the X display, with ImageMagick; its size goes to the results. */
  protected void screenshot(Rectangle r, String name) throws Exception {
    Files.createDirectories(images);
    // the pointer in a corner, so that no tooltip shows, and the window painted
    new ProcessBuilder("xdotool", "mousemove", "1599", "999").start().waitFor(10, TimeUnit.SECONDS);
    ui(() -> {
      for (Shell s : display.getShells()) {
        s.redraw();
        s.update();
      }
      return null;
    });
    pause(700);
    Process p = new ProcessBuilder("import", "-window", "root", "-crop", r.width + "x" + r.height + "+" + r.x + "+" + r.y,
        "+repage", images.resolve(name).toString()).inheritIO().start();
    if (!p.waitFor(30, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new IllegalStateException("import did not end for " + name);
    }
    if (p.exitValue() != 0) {
      throw new IllegalStateException("import failed for " + name + ": exit " + p.exitValue());
    }
    results.put("image." + name, r.width + "x" + r.height);
  }

  /** Runs on the UI thread and returns the result (or throws what it threw). */
  protected <T> T ui(Callable<T> task) throws Exception {
    AtomicReference<T> result = new AtomicReference<>();
    AtomicReference<Exception> error = new AtomicReference<>();
    AtomicBoolean ran = new AtomicBoolean();
    display.asyncExec(() -> {
      try {
        result.set(task.call());
      } catch (Exception e) {
        error.set(e);
      } finally {
        ran.set(true);
      }
    });
    long end = System.currentTimeMillis() + WAIT_MILLIS;
    while (!ran.get()) {
      if (System.currentTimeMillis() > end) {
        throw new IllegalStateException("the UI thread did not run a task within " + WAIT_MILLIS + " ms");
      }
      Thread.sleep(10);
    }
    if (error.get() != null) {
      throw error.get();
    }
    return result.get();
  }

  /** Runs later on the UI thread, for what opens a modal window (and so returns only when it closes). */
  protected void uiLater(Runnable task) throws Exception {
    ui(() -> {
      display.asyncExec(task);
      return null;
    });
  }

  /** Polls until {@code check} gives a value; a check that throws (the GUI still starting) is tried again. */
  protected static <T> T waitFor(String what, CheckedSupplier<T> check) throws Exception {
    return waitFor(what, WAIT_MILLIS, check);
  }

  protected static <T> T waitFor(String what, long millis, CheckedSupplier<T> check) throws Exception {
    long end = System.currentTimeMillis() + millis;
    Exception last = null;
    while (true) {
      try {
        T value = check.get();
        if (value != null) {
          return value;
        }
      } catch (RuntimeException e) {
        last = e;
      }
      if (System.currentTimeMillis() > end) {
        throw new IllegalStateException("timed out waiting for " + what, last);
      }
      Thread.sleep(100);
    }
  }

  @FunctionalInterface
  protected interface CheckedSupplier<T> {
    T get() throws Exception;
  }

  protected static void pause(long millis) throws InterruptedException {
    Thread.sleep(millis);
  }

  private void write(Path file) throws IOException {
    Properties p = new Properties();
    p.putAll(results);
    try (Writer w = Files.newBufferedWriter(file)) {
      p.store(w, "what the robot found in HopGui");
    }
  }

  /** Opens a transform's dialog as a double click does, and waits for its window. */
  protected Shell open(HopGuiPipelineGraph graph, String transform, String title) throws Exception {
    ui(() -> {
      display.asyncExec(() -> graph.editTransform(graph.getPipelineMeta(), graph.getPipelineMeta().findTransform(transform)));
      return null;
    });
    return waitForShell(title);
  }

  /** The dialog's input widgets, found by the tooltips of their settings. */
  protected Map<String, Control> widgets(Shell shell, Class<?> pkg, String prefix, String... keys) throws Exception {
    return ui(() -> {
      Map<String, Control> found = new TreeMap<>();
      for (String key : keys) {
        String message = BaseMessages.getString(pkg, prefix + "." + key + ".Tooltip");
        // a text field shows its tooltip with the variables in it resolved: only the text before the first is fixed
        String tooltip = message.contains("${") ? message.substring(0, message.indexOf("${")) : message;
        Control c = find(shell, Control.class, x -> x.getToolTipText() != null
            && (message.contains("${") ? x.getToolTipText().contains(tooltip) : x.getToolTipText().endsWith(tooltip))
            && (x instanceof Text || x instanceof CCombo || (x instanceof Button b && (b.getStyle() & SWT.CHECK) != 0)));
        found.put(key, Objects.requireNonNull(c, "no widget for " + key));
      }
      return found;
    });
  }

  protected static void set(Map<String, Control> widgets, String key, String value) {
    Control c = widgets.get(key);
    if (c instanceof Text t) {
      t.setText(value);
    } else if (c instanceof CCombo combo) {
      combo.setText(value);
    } else {
      throw new IllegalArgumentException(key + " is not a text: " + c);
    }
  }


  protected void pressOk(Shell shell) throws Exception {
    press(shell, BaseMessages.getString(GuiRobot.class, "System.Button.OK"));
  }
}
