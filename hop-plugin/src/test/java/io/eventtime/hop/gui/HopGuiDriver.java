package io.eventtime.hop.gui;

import io.eventtime.hop.fileinput.EventFileInputMeta;
import io.eventtime.hop.fileinput.InputField;
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
 * transform's dialog the way a double click does, presses its Get fields, Preview and Help
 * buttons, fills it in, presses OK, and writes what the buttons did, how disabled settings look
 * and what the transform's settings then hold to a results file. Screenshots go to the images
 * folder.
 *
 */
public final class HopGuiDriver extends GuiRobot {
  private final Path events;

  private HopGuiDriver(Path images, Path work, Path events) {
    super(images, work);
    this.events = events;
  }

  /** Arguments: the results file, the images folder, a work folder, the sample events file. */
  public static void main(String[] args) {
    run(new HopGuiDriver(Path.of(args[1]), Path.of(args[2]), Path.of(args[3])), Path.of(args[0]));
  }

  @Override
  protected void drive() throws Exception {
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
  }

  /** The pipeline the dialogs are opened on: what a user would build to window a file of events. */
  private PipelineMeta pipeline() {
    PipelineMeta p = new PipelineMeta();
    p.setName("event-time");
    EventFileInputMeta in = new EventFileInputMeta();
    in.setDefault();
    // the fields a user has after Get fields (the time is stamped next): what Get fields in the window finds
    in.setFields(List.of(new InputField("merchant", "String", null), new InputField("amount", "Integer", null),
        new InputField("event_time", "String", null)));
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
          results.put("help." + id, plugin.getDocumentationUrl());
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
    getFieldsOfTheWindow(shell, pkg);
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
      results.put("window.gapLook", look(shell, w, pkg, "EventTimeWindowDialog", "Gap"));
      results.put("window.slideLook", look(shell, w, pkg, "EventTimeWindowDialog", "Slide"));
      return null;
    });
    help(shell, "window");
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

  /** Presses the two Get fields buttons of the group-by tab, and records the tables they filled. */
  private void getFieldsOfTheWindow(Shell shell, Class<?> pkg) throws Exception {
    String getFields = BaseMessages.getString(pkg, "EventTimeWindowDialog.Group.GetFields");
    List<Button> buttons = ui(() -> all(shell, Button.class).stream().filter(b -> getFields.equals(b.getText())).toList());
    if (buttons.size() != 2) {
      throw new IllegalStateException("expected the Get fields buttons of Group by and Aggregates, found " + buttons);
    }
    for (Button button : buttons) {
      // it asks what to do with rows already there in a window of its own: pressed as a click would, later
      uiLater(() -> button.notifyListeners(SWT.Selection, new Event()));
      pause(800);
    }
    ui(() -> {
      List<TableView> tables = all(shell, TableView.class);
      results.put("window.getGroup", rows(tables.get(0)));
      results.put("window.getAggregates", rows(tables.get(1)));
      return null;
    });
  }

  /** The rows of a table, / between the columns (the row number left out), comma between rows. */
  private static String rows(TableView table) {
    List<String> rows = new ArrayList<>();
    for (org.eclipse.swt.widgets.TableItem item : table.table.getItems()) {
      List<String> cells = new ArrayList<>();
      for (int c = 1; c < table.table.getColumnCount(); c++) {
        cells.add(item.getText(c));
      }
      rows.add(String.join("/", cells));
    }
    return String.join(",", rows);
  }

  /** How a setting looks: enabled or not, the colours of its input and of its label (RGB). */
  private static String look(Shell shell, Map<String, Control> widgets, Class<?> pkg, String prefix, String key) {
    Control input = widgets.get(key);
    String tooltip = BaseMessages.getString(pkg, prefix + "." + key + ".Tooltip");
    org.eclipse.swt.widgets.Label label = find(shell, org.eclipse.swt.widgets.Label.class,
        l -> tooltip.equals(l.getToolTipText()));
    return (input.isEnabled() ? "enabled" : "disabled") + " input " + rgb(input.getBackground()) + " on "
        + rgb(input.getForeground()) + ", label " + rgb(Objects.requireNonNull(label, "no label for " + key).getForeground());
  }

  private static String rgb(org.eclipse.swt.graphics.Color c) {
    return c.getRed() + "," + c.getGreen() + "," + c.getBlue();
  }

  /**
   * Presses Help as a click does and records the address the desktop was asked to open: the
   * test's desktop opens web addresses with a script that writes them to a file.
   */
  private void help(Shell shell, String prefix) throws Exception {
    Path opened = work.resolve("opened-urls.txt");
    Files.deleteIfExists(opened);
    String help = BaseMessages.getString(HopGuiDriver.class, "System.Button.Help");
    uiLater(() -> find(shell, Button.class, b -> help.equals(b.getText())).notifyListeners(SWT.Selection, new Event()));
    String url = waitFor("the desktop to be asked to open the help of " + prefix, 20_000,
        () -> Files.exists(opened) && !Files.readString(opened).isBlank() ? Files.readString(opened).strip() : null);
    results.put(prefix + ".help", url);
    Shell other = ui(() -> {
      for (Shell s : display.getShells()) {
        if (s != shell && s != HopGui.getInstance().getShell() && !s.isDisposed() && s.isVisible()) {
          return s;
        }
      }
      return null;
    });
    results.put(prefix + ".helpWindow", other == null ? "none" : other.getText());
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
        "Delimiter", "Header", "TimeZone", "FilenameField", "LineNumberField", "Follow", "FollowIdleStop");
    String getFields = BaseMessages.getString(EventFileInputMeta.class, "EventFileInputDialog.GetFields");
    ui(() -> {
      fill(all(shell, TableView.class).get(0), new String[] {events.toString(), ""});
      set(w, "Format", "ndjson");
      set(w, "TimeZone", "UTC");
      set(w, "FilenameField", "file");
      set(w, "LineNumberField", "line");
      ((Button) w.get("Header")).setSelection(false);
      Button follow = (Button) w.get("Follow");
      follow.setSelection(true);
      follow.notifyListeners(SWT.Selection, new Event());
      set(w, "FollowIdleStop", "1 SECOND"); // the preview ends by itself too
      Button get = find(shell, Button.class, b -> getFields.equals(b.getText()));
      get.notifyListeners(SWT.Selection, new Event());
      results.put("input.delimiterLook", look(shell, w, EventFileInputMeta.class, "EventFileInputDialog", "Delimiter"));
      return null;
    });
    pause(800);
    screenshot(ui(shell::getBounds), "hop-event-file-input-dialog.png");
    help(shell, "input");
    preview(shell);
    pressOk(shell);
    waitClosed(shell);
    EventFileInputMeta m = (EventFileInputMeta) ui(() -> graph.getPipelineMeta().findTransform("Read events").getTransform());
    results.put("input.files", m.getFiles().stream().map(f -> f.getName() + "/" + f.getMask()).collect(Collectors.joining(",")));
    record("input", List.of(m.getFormat(), String.valueOf(m.isCsvHeader()), m.getTimeZone(), m.getFilenameField(),
        m.getLineNumberField(), String.valueOf(m.isFollow()), m.getFollowIdleStop()));
    results.put("input.fields", m.getFields().stream().map(f -> f.getName() + "/" + f.getType() + "/" + f.getFormat())
        .collect(Collectors.joining(",")));
  }

  /** Presses Preview, asks for 3 rows, and records the rows the preview window shows. */
  private void preview(Shell shell) throws Exception {
    String previewText = BaseMessages.getString(HopGuiDriver.class, "System.Button.Preview");
    uiLater(() -> find(shell, Button.class, b -> previewText.equals(b.getText())).notifyListeners(SWT.Selection, new Event()));
    Shell size = waitForShell(BaseMessages.getString(EventFileInputMeta.class, "EventFileInputDialog.Preview.Size.Title"));
    ui(() -> {
      find(size, Text.class, t -> true).setText("3");
      return null;
    });
    pressOk(size);
    Shell rows = waitForShell(BaseMessages.getString(org.apache.hop.ui.core.dialog.PreviewRowsDialog.class,
        "PreviewRowsDialog.Title"));
    ui(() -> {
      // without a window manager the preview opens small: large enough for its rows in the picture
      rows.setSize(Math.max(rows.getSize().x, 900), Math.max(rows.getSize().y, 260));
      rows.layout(true, true);
      results.put("input.preview", rows(find(rows, TableView.class, t -> true)));
      return null;
    });
    pause(500);
    // the window's inside: without a window manager its bounds reach below what X shows of it
    screenshot(ui(() -> display.map(rows, null, rows.getClientArea())), "hop-event-file-input-preview.png");
    press(rows, BaseMessages.getString(HopGuiDriver.class, "System.Button.Close"));
    waitClosed(rows);
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
}
