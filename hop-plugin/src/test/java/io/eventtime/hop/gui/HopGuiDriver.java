package io.eventtime.hop.gui;

import io.eventtime.hop.fileinput.EventFileInputMeta;
import io.eventtime.hop.fileoutput.EventFileOutputMeta;
import io.eventtime.hop.fileoutput.OutputField;
import io.eventtime.hop.stamp.EventTimeStampMeta;
import io.eventtime.hop.window.EventTimeWindowMeta;
import io.eventtime.hop.window.GroupField;
import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.apache.hop.core.gui.Point;
import org.apache.hop.core.plugins.IPlugin;
import org.apache.hop.core.plugins.PluginRegistry;
import org.apache.hop.core.plugins.TransformPluginType;
import org.apache.hop.core.variables.Variables;
import org.apache.hop.i18n.BaseMessages;
import org.apache.hop.pipeline.PipelineMeta;
import org.apache.hop.pipeline.transform.TransformMeta;
import org.apache.hop.ui.core.widget.TableView;
import org.apache.hop.ui.hopgui.HopGui;
import org.apache.hop.ui.hopgui.context.GuiContextUtil;
import org.apache.hop.ui.hopgui.file.pipeline.HopGuiPipelineGraph;
import org.apache.hop.ui.hopgui.file.pipeline.context.HopGuiPipelineContext;
import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.CCombo;
import org.eclipse.swt.custom.CTabFolder;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.Event;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.Text;

/**
 * Runs in its own JVM under Xvfb: starts the real HopGui (its main), then, from another thread,
 * opens a pipeline of our four transforms, shows the palette filtered on them, and opens each
 * transform's dialog the way a double click does, fills it in, presses OK, and writes what the
 * transform's settings then hold to a results file. Screenshots go to the images folder.
 *
 * <p>Arguments: the images folder, the results file, a work folder, the sample events file.
 */
public final class HopGuiDriver {
  private static final long WAIT_MILLIS = 60_000;

  private final Thread uiThread;
  private final Path images;
  private final Path work;
  private final Path events;
  private final Map<String, String> results = new TreeMap<>();
  private Display display;

  private HopGuiDriver(Thread uiThread, Path images, Path work, Path events) {
    this.uiThread = uiThread;
    this.images = images;
    this.work = work;
    this.events = events;
  }

  public static void main(String[] args) {
    Path results = Path.of(args[1]);
    HopGuiDriver driver = new HopGuiDriver(Thread.currentThread(), Path.of(args[0]), Path.of(args[2]), Path.of(args[3]));
    Thread t = new Thread(() -> {
      int status = 0;
      try {
        driver.drive();
      } catch (Throwable e) {
        e.printStackTrace();
        driver.results.put("error", String.valueOf(e));
        driver.describeScreen();
        status = 3;
      }
      try {
        driver.write(results);
      } catch (IOException e) {
        e.printStackTrace();
        status = 4;
      }
      System.out.flush();
      Runtime.getRuntime().halt(status);
    }, "hop-gui-driver");
    t.setDaemon(true);
    t.start();
    HopGui.main(new String[0]);
  }

  private void drive() throws Exception {
    display = waitFor("the display", () -> Display.findDisplay(uiThread));
    waitFor("the HopGui window", () -> ui(() -> {
      Shell shell = HopGui.getInstance().getShell();
      return shell != null && shell.isVisible() ? shell : null;
    }));
    closeOtherShells();

    Path hpl = work.resolve("event-time.hpl");
    ui(() -> {
      Files.writeString(hpl, pipeline().getXml(new Variables()));
      HopGui.getInstance().fileDelegate.fileOpen(hpl.toString());
      return null;
    });
    HopGuiPipelineGraph graph = waitFor("the pipeline tab", () -> ui(HopGui::getActivePipelineGraph));
    pause(1500);
    screenshot(ui(() -> HopGui.getInstance().getShell().getBounds()), "hop-pipeline.png");

    palette(graph);
    recordPlugins();

    windowDialog(graph);
    stampDialog(graph);
    fileInputDialog(graph);
    fileOutputDialog(graph);
    results.put("done", "yes");
  }

  /** The pipeline the dialogs are opened on: what a user would build to window a file of events. */
  private PipelineMeta pipeline() {
    PipelineMeta p = new PipelineMeta();
    p.setName("event-time");
    EventFileInputMeta in = new EventFileInputMeta();
    in.setDefault();
    EventTimeStampMeta stamp = new EventTimeStampMeta();
    stamp.setDefault();
    EventTimeWindowMeta window = new EventTimeWindowMeta();
    window.setDefault();
    EventFileOutputMeta out = new EventFileOutputMeta();
    out.setDefault();
    add(p, "Read events", in, 80, 120);
    add(p, "Stamp", stamp, 280, 120);
    add(p, "Window", window, 480, 120);
    add(p, "Write windows", out, 680, 120);
    add(p, "Late rows", new org.apache.hop.pipeline.transforms.dummy.DummyMeta(), 480, 280);
    hop(p, "Read events", "Stamp");
    hop(p, "Stamp", "Window");
    hop(p, "Window", "Write windows");
    hop(p, "Window", "Late rows");
    window.setLateTargetTransform("Late rows");
    window.searchInfoAndTargetTransforms(p.getTransforms());
    return p;
  }

  private static void add(PipelineMeta p, String name, org.apache.hop.pipeline.transform.ITransformMeta meta, int x, int y) {
    TransformMeta t = new TransformMeta(name, meta);
    t.setLocation(x, y);
    p.addTransform(t);
  }

  private static void hop(PipelineMeta p, String from, String to) {
    p.addPipelineHop(new org.apache.hop.pipeline.PipelineHopMeta(p.findTransform(from), p.findTransform(to)));
  }

  /** The palette: the pipeline's context dialog, searched for our transforms. */
  private void palette(HopGuiPipelineGraph graph) throws Exception {
    Shell main = ui(() -> HopGui.getInstance().getShell());
    // The palette closes when its window loses the focus. Xvfb has no window manager to give it
    // the focus for good, so it can lose it as it opens: keep it open while the test uses it.
    org.eclipse.swt.widgets.Listener keepOpen = e -> {
      if (e.widget instanceof Shell s && s != main) {
        e.type = SWT.None;
      }
    };
    ui(() -> {
      display.addFilter(SWT.Deactivate, keepOpen);
      display.asyncExec(() -> GuiContextUtil.getInstance().handleActionSelection(main, "Pipeline actions",
          new Point(300, 300), new HopGuiPipelineContext(graph.getPipelineMeta(), graph, new Point(300, 300))));
      return null;
    });
    Shell dialog = waitFor("the palette", () -> ui(() -> otherShell(main)));
    ui(() -> {
      Text search = find(dialog, Text.class, c -> true);
      search.setText("event");
      search.notifyListeners(SWT.Modify, new Event());
      return null;
    });
    pause(1200);
    screenshot(ui(dialog::getBounds), "hop-palette.png");
    ui(() -> {
      dialog.close();
      return null;
    });
    waitFor("the palette to close", () -> ui(() -> otherShell(main) == null ? Boolean.TRUE : null));
    ui(() -> {
      display.removeFilter(SWT.Deactivate, keepOpen);
      return null;
    });
  }

  /** What the palette is built from: our transforms' names, category and icon, as Hop registered them. */
  private void recordPlugins() throws Exception {
    ui(() -> {
      for (IPlugin plugin : PluginRegistry.getInstance().getPlugins(TransformPluginType.class)) {
        String id = plugin.getIds()[0];
        if (id.startsWith("Event")) {
          results.put("plugin." + id, plugin.getName() + " | " + plugin.getCategory() + " | " + plugin.getImageFile());
        }
      }
      return null;
    });
  }

  private void windowDialog(HopGuiPipelineGraph graph) throws Exception {
    Class<?> pkg = EventTimeWindowMeta.class;
    Shell shell = open(graph, "Window", "Event Time Window");
    Map<String, Control> w = widgets(shell, pkg, "EventTimeWindowDialog", "TimeField", "TimeFormat", "EpochUnit",
        "TimeZone", "Kind", "Size", "Slide", "Gap", "Offset", "Delay", "Policy", "StartField", "EndField",
        "LateTarget", "LateReason", "IdleTimeout", "StateFolder");
    ui(() -> {
      set(w, "TimeField", "event_time");
      set(w, "TimeFormat", "yyyy-MM-dd HH:mm:ss");
      set(w, "EpochUnit", "seconds");
      set(w, "TimeZone", "Europe/Paris");
      set(w, "Kind", "hopping");
      set(w, "Size", "10 MINUTES");
      set(w, "Slide", "${SLIDE}");
      set(w, "Offset", "1 MINUTE");
      set(w, "Delay", "2 MINUTES");
      set(w, "Policy", "event");
      set(w, "StartField", "from");
      set(w, "EndField", "to");
      set(w, "LateTarget", "Late rows");
      set(w, "LateReason", "why");
      set(w, "IdleTimeout", "30 SECONDS");
      set(w, "StateFolder", "${java.io.tmpdir}/gui-state");
      List<TableView> tables = all(shell, TableView.class);
      fill(tables.get(0), new String[] {"merchant"});
      fill(tables.get(1), new String[] {"", "count", "n"}, new String[] {"amount", "sum", "total"});
      results.put("window.gapEnabled", String.valueOf(w.get("Gap").isEnabled()));
      results.put("window.slideEnabled", String.valueOf(w.get("Slide").isEnabled()));
      return null;
    });
    CTabFolder tabs = ui(() -> find(shell, CTabFolder.class, c -> true));
    String[] names = {"time", "windows", "aggregates", "late"};
    for (int i = names.length - 1; i >= 0; i--) {
      int tab = i;
      ui(() -> {
        tabs.setSelection(tab);
        return null;
      });
      pause(500);
      screenshot(ui(shell::getBounds),
          "hop-event-time-window-dialog" + (names[i].equals("windows") ? "" : "-" + names[i]) + ".png");
    }
    pressOk(shell);
    waitClosed(shell);
    EventTimeWindowMeta m = (EventTimeWindowMeta) ui(() -> graph.getPipelineMeta().findTransform("Window").getTransform());
    record("window", List.of(m.getTimeField(), m.getTimeFormat(), m.getEpochUnit(), m.getTimeZone(), m.getWindowKind(),
        m.getWindowSize(), m.getWindowSlide(), m.getSessionGap(), m.getWindowOffset(), m.getWatermarkDelay(),
        m.getLatePolicy(), m.getWindowStartField(), m.getWindowEndField(), m.getLateTargetTransform(),
        m.getLateReasonField(), m.getIdleTimeout(), m.getStateFolder()));
    results.put("window.group", m.getGroupFields().stream().map(GroupField::getName).collect(Collectors.joining(",")));
    results.put("window.aggregates", m.getAggregates().stream()
        .map(a -> a.getField() + "/" + a.getAggregate() + "/" + a.getOutputName()).collect(Collectors.joining(",")));
    results.put("window.lateStream", String.valueOf(ui(() -> {
      TransformMeta target = m.getTransformIOMeta().getTargetStreams().get(0).getTransformMeta();
      return target == null ? null : target.getName();
    })));
  }

  private void stampDialog(HopGuiPipelineGraph graph) throws Exception {
    Shell shell = open(graph, "Stamp", "Event Time Stamp");
    Map<String, Control> w = widgets(shell, EventTimeStampMeta.class, "EventTimeStampDialog", "TimeField",
        "TimeFormat", "EpochUnit", "TimeZone", "OutputField");
    ui(() -> {
      set(w, "TimeField", "event_time");
      set(w, "TimeFormat", "dd/MM/yyyy HH:mm");
      set(w, "EpochUnit", "milliseconds");
      set(w, "TimeZone", "UTC");
      set(w, "OutputField", "stamped");
      return null;
    });
    pause(500);
    screenshot(ui(shell::getBounds), "hop-event-time-stamp-dialog.png");
    pressOk(shell);
    waitClosed(shell);
    EventTimeStampMeta m = (EventTimeStampMeta) ui(() -> graph.getPipelineMeta().findTransform("Stamp").getTransform());
    record("stamp", List.of(m.getTimeField(), m.getTimeFormat(), m.getEpochUnit(), m.getTimeZone(), m.getOutputField()));
  }

  private void fileInputDialog(HopGuiPipelineGraph graph) throws Exception {
    Shell shell = open(graph, "Read events", "Event File Input");
    Map<String, Control> w = widgets(shell, EventFileInputMeta.class, "EventFileInputDialog", "Format",
        "Delimiter", "Header", "TimeZone", "FilenameField", "LineNumberField");
    String getFields = BaseMessages.getString(EventFileInputMeta.class, "EventFileInputDialog.GetFields");
    ui(() -> {
      fill(all(shell, TableView.class).get(0), new String[] {events.toString(), ""});
      set(w, "Format", "ndjson");
      set(w, "TimeZone", "UTC");
      set(w, "FilenameField", "file");
      set(w, "LineNumberField", "line");
      ((Button) w.get("Header")).setSelection(false);
      Button get = find(shell, Button.class, b -> getFields.equals(b.getText()));
      get.notifyListeners(SWT.Selection, new Event());
      return null;
    });
    pause(800);
    screenshot(ui(shell::getBounds), "hop-event-file-input-dialog.png");
    pressOk(shell);
    waitClosed(shell);
    EventFileInputMeta m = (EventFileInputMeta) ui(() -> graph.getPipelineMeta().findTransform("Read events").getTransform());
    results.put("input.files", m.getFiles().stream().map(f -> f.getName() + "/" + f.getMask()).collect(Collectors.joining(",")));
    record("input", List.of(m.getFormat(), String.valueOf(m.isCsvHeader()), m.getTimeZone(), m.getFilenameField(),
        m.getLineNumberField()));
    results.put("input.fields", m.getFields().stream().map(f -> f.getName() + "/" + f.getType() + "/" + f.getFormat())
        .collect(Collectors.joining(",")));
  }

  private void fileOutputDialog(HopGuiPipelineGraph graph) throws Exception {
    Shell shell = open(graph, "Write windows", "Event File Output");
    Map<String, Control> w = widgets(shell, EventFileOutputMeta.class, "EventFileOutputDialog", "Filename", "Format",
        "Delimiter", "Header", "Append", "CreateParent");
    ui(() -> {
      set(w, "Filename", "${java.io.tmpdir}/windows.csv");
      set(w, "Format", "csv");
      set(w, "Delimiter", ";");
      ((Button) w.get("Header")).setSelection(false);
      ((Button) w.get("Append")).setSelection(true);
      ((Button) w.get("CreateParent")).setSelection(true);
      fill(all(shell, TableView.class).get(0), new String[] {"merchant"}, new String[] {"total"});
      return null;
    });
    pause(500);
    screenshot(ui(shell::getBounds), "hop-event-file-output-dialog.png");
    pressOk(shell);
    waitClosed(shell);
    EventFileOutputMeta m = (EventFileOutputMeta) ui(() -> graph.getPipelineMeta().findTransform("Write windows").getTransform());
    record("output", List.of(m.getFilename(), m.getFormat(), m.getCsvDelimiter(), String.valueOf(m.isCsvHeader()),
        String.valueOf(m.isAppend()), String.valueOf(m.isCreateParentFolder())));
    results.put("output.fields", m.getFields().stream().map(OutputField::getName).collect(Collectors.joining(",")));
  }

  /** Opens a transform's dialog as a double click does, and waits for its window. */
  private Shell open(HopGuiPipelineGraph graph, String transform, String title) throws Exception {
    ui(() -> {
      display.asyncExec(() -> graph.editTransform(graph.getPipelineMeta(), graph.getPipelineMeta().findTransform(transform)));
      return null;
    });
    Shell shell = waitFor("the dialog " + title, () -> ui(() -> {
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

  /** The dialog's input widgets, found by the tooltips of their settings. */
  private Map<String, Control> widgets(Shell shell, Class<?> pkg, String prefix, String... keys) throws Exception {
    return ui(() -> {
      Map<String, Control> found = new TreeMap<>();
      for (String key : keys) {
        String tooltip = BaseMessages.getString(pkg, prefix + "." + key + ".Tooltip");
        Control c = find(shell, Control.class, x -> x.getToolTipText() != null && x.getToolTipText().endsWith(tooltip)
            && (x instanceof Text || x instanceof CCombo || (x instanceof Button b && (b.getStyle() & SWT.CHECK) != 0)));
        found.put(key, Objects.requireNonNull(c, "no widget for " + key));
      }
      return found;
    });
  }

  private static void set(Map<String, Control> widgets, String key, String value) {
    Control c = widgets.get(key);
    if (c instanceof Text t) {
      t.setText(value);
    } else if (c instanceof CCombo combo) {
      combo.setText(value);
    } else {
      throw new IllegalArgumentException(key + " is not a text: " + c);
    }
  }

  private static void fill(TableView table, String[]... rows) {
    table.table.removeAll();
    for (String[] row : rows) {
      table.add(row);
    }
    table.removeEmptyRows();
    table.setRowNums();
    table.optWidth(true);
  }

  private void pressOk(Shell shell) throws Exception {
    String ok = BaseMessages.getString(HopGuiDriver.class, "System.Button.OK");
    ui(() -> {
      Button button = find(shell, Button.class, b -> ok.equals(b.getText()));
      button.notifyListeners(SWT.Selection, new Event());
      return null;
    });
  }

  private void waitClosed(Shell shell) throws Exception {
    waitFor("the dialog to close", () -> ui(() -> shell.isDisposed() ? Boolean.TRUE : null));
    pause(300);
  }

  private void record(String prefix, List<String> values) {
    for (int i = 0; i < values.size(); i++) {
      results.put(prefix + "." + i, String.valueOf(values.get(i)));
    }
  }

  private Shell otherShell(Shell main) {
    for (Shell s : display.getShells()) {
      if (s != main && !s.isDisposed() && s.isVisible()) {
        return s;
      }
    }
    return null;
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

  private static <T extends Control> T find(Control root, Class<T> type, java.util.function.Predicate<T> test) {
    List<T> found = new ArrayList<>();
    collect(root, type, found);
    return found.stream().filter(test).findFirst().orElse(null);
  }

  private static <T extends Control> List<T> all(Control root, Class<T> type) {
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

  /** What was on the screen when the driver failed: the windows, and a screenshot in the work folder. */
  private void describeScreen() {
    try {
      results.put("shells", ui(() -> java.util.Arrays.stream(display.getShells())
          .map(sh -> "'" + sh.getText() + "' visible=" + sh.isVisible() + " " + sh.getBounds())
          .collect(Collectors.joining("; "))));
      new ProcessBuilder("import", "-window", "root", work.resolve("failure.png").toString()).start()
          .waitFor(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      results.put("shells", "unknown: " + e);
    }
  }

  /** A screenshot of a region of the X display, with ImageMagick. */
  private void screenshot(Rectangle r, String name) throws Exception {
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
  private <T> T ui(Callable<T> task) throws Exception {
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

  /** Polls until {@code check} gives a value; a check that throws (the GUI still starting) is tried again. */
  private static <T> T waitFor(String what, CheckedSupplier<T> check) throws Exception {
    long end = System.currentTimeMillis() + WAIT_MILLIS;
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
  private interface CheckedSupplier<T> {
    T get() throws Exception;
  }

  private static void pause(long millis) throws InterruptedException {
    Thread.sleep(millis);
  }

  private void write(Path file) throws IOException {
    Properties p = new Properties();
    p.putAll(results);
    try (Writer w = Files.newBufferedWriter(file)) {
      p.store(w, "what the dialogs left in the transforms' settings");
    }
  }
}
