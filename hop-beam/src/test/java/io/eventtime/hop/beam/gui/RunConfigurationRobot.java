package io.eventtime.hop.beam.gui;

import io.eventtime.hop.beam.engine.BeamRunSettings;
import io.eventtime.hop.gui.GuiRobot;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;
import org.apache.hop.i18n.BaseMessages;
import org.apache.hop.pipeline.config.PipelineRunConfiguration;
import org.apache.hop.pipeline.engine.IEngineComponent;
import org.apache.hop.pipeline.engine.IPipelineEngine;
import org.apache.hop.ui.core.metadata.MetadataEditorDialog;
import org.apache.hop.ui.core.metadata.MetadataManager;
import org.apache.hop.ui.core.widget.ComboVar;
import org.apache.hop.ui.core.widget.MetaSelectionLine;
import org.apache.hop.ui.core.widget.TableView;
import org.apache.hop.ui.core.widget.TextVar;
import org.apache.hop.ui.hopgui.HopGui;
import org.apache.hop.ui.hopgui.file.pipeline.HopGuiPipelineGraph;
import org.apache.hop.ui.pipeline.config.PipelineRunConfigurationEditor;
import org.apache.hop.ui.pipeline.dialog.PipelineExecutionConfigurationDialog;
import org.eclipse.swt.custom.ScrolledComposite;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.TableItem;
import org.eclipse.swt.widgets.Text;

/**
 * In a real HopGui: creates a pipeline run configuration of each eventtime Beam engine the way a
 * user does (HopGui's run configuration editor, in the dialog HopGui opens for a new one), picks
 * the engine in its combo, fills in the fields the engine shows, a variable among them, and
 * presses OK; then opens a sample pipeline and runs it with the Direct configuration from the
 * run options dialog HopGui shows on "Run". Records the engine's fields as shown, what HopGui's
 * metadata then holds and how the run ended.
 *
 * <p>Arguments: the results file, the images folder, a work folder, the sample .hpl, the output folder.
 */
public final class RunConfigurationRobot extends GuiRobot {
  private final Path sample;
  private final Path output;

  private RunConfigurationRobot(Path images, Path work, Path sample, Path output) {
    super(images, work);
    this.sample = sample;
    this.output = output;
  }

  public static void main(String[] args) {
    run(new RunConfigurationRobot(Path.of(args[1]), Path.of(args[2]), Path.of(args[3]), Path.of(args[4])),
        Path.of(args[0]));
  }

  @Override
  protected void drive() throws Exception {
    Map<String, String> flink = new LinkedHashMap<>();
    flink.put("Flink master", "${FLINK_MASTER}");
    flink.put("Parallelism", "4");
    flink.put("Other Beam options", "--objectReuse=true");
    newRunConfiguration("flink", "Beam Flink (eventtime)", flink, new String[] {"FLINK_MASTER", "jobmanager:8081", "the cluster"},
        "hop-run-configuration-flink.png");

    Map<String, String> spark = new LinkedHashMap<>();
    spark.put("Spark master", "spark://spark-master:7077");
    spark.put("Other Beam options", "--storageLevel=MEMORY_ONLY");
    newRunConfiguration("spark", "Beam Spark (eventtime)", spark, null, null);

    Map<String, String> direct = new LinkedHashMap<>();
    direct.put("Other Beam options", "--targetParallelism=${DIRECT_THREADS}");
    newRunConfiguration("direct", "Beam Direct (eventtime)", direct, new String[] {"DIRECT_THREADS", "2", ""}, null);

    runSample("direct");
  }

  private static String editorText(String key) {
    return BaseMessages.getString(PipelineRunConfigurationEditor.class, key);
  }

  /**
   * A new run configuration named after {@code prefix}: the engine picked in the combo, the fields
   * it shows (label to value, in the order shown) filled in, an optional variable (name, value,
   * description) in the Variables tab.
   */
  private void newRunConfiguration(String prefix, String engine, Map<String, String> fields, String[] variable,
      String image) throws Exception {
    String name = "beam-" + prefix + "-gui";
    Shell main = ui(() -> HopGui.getInstance().getShell());
    uiLater(() -> new MetadataManager<>(HopGui.getInstance().getVariables(), HopGui.getInstance().getMetadataProvider(),
        PipelineRunConfiguration.class, main).newMetadata());
    Shell editor = waitFor("the run configuration editor", () -> ui(() -> otherShell(main)));
    pause(500);
    ui(() -> {
      ((Text) besideLabel(editor, editorText("PipelineRunConfigurationDialog.label.name"))).setText(name);
      ((Text) besideLabel(editor, editorText("PipelineRunConfigurationDialog.label.Description")))
          .setText("eventtime on Beam's " + prefix + " runner");
      ComboVar engines = (ComboVar) besideLabel(editor, editorText("PipelineRunConfigurationDialog.label.EngineType"));
      results.put(prefix + ".engines", Arrays.stream(engines.getItems()).filter(e -> e.contains("eventtime"))
          .collect(Collectors.joining(",")));
      engines.setText(engine); // as a pick in the combo: the editor swaps in the engine's fields
      return null;
    });
    pause(500);
    ui(() -> {
      Composite engineFields = engineFields(editor);
      List<String> shown = new ArrayList<>();
      for (Control c : engineFields.getChildren()) {
        if (c instanceof Label l && l.isVisible()) {
          shown.add(l.getText());
        }
      }
      results.put(prefix + ".labels", String.join(",", shown));
      for (Map.Entry<String, String> f : fields.entrySet()) {
        ((TextVar) besideLabel(engineFields, f.getKey())).setText(f.getValue());
      }
      return null;
    });
    if (image != null) {
      ui(() -> {
        editor.setSize(760, 480); // the editor opens at the size of its main fields: enlarged, as a user does
        editor.layout(true, true);
        return null;
      });
      screenshot(ui(editor::getBounds), image);
    }
    if (variable != null) {
      ui(() -> {
        TableView variables = Objects.requireNonNull(find(editor, TableView.class, t -> true), "the variables table");
        fill(variables, variable);
        return null;
      });
    }
    press(editor, BaseMessages.getString(MetadataEditorDialog.class, "System.Button.OK"));
    waitClosed(editor);
    ui(() -> {
      PipelineRunConfiguration saved = HopGui.getInstance().getMetadataProvider()
          .getSerializer(PipelineRunConfiguration.class).load(name);
      results.put(prefix + ".hopgui", saved == null ? "none"
          : saved.getEngineRunConfiguration().getClass().getSimpleName() + " | "
          + ((BeamRunSettings) saved.getEngineRunConfiguration()).beamOptions());
      return null;
    });
  }

  /** The composite with the engine's own fields: the scrolled area just below the engine combo. */
  private static Composite engineFields(Shell editor) {
    Control engines = besideLabel(editor, editorText("PipelineRunConfigurationDialog.label.EngineType"));
    List<Control> siblings = Arrays.asList(engines.getParent().getChildren());
    Control next = siblings.get(siblings.indexOf(engines) + 1);
    return (Composite) ((ScrolledComposite) next).getContent();
  }

  /** The control laid out right of the label with this text (it follows the label among its siblings). */
  private static Control besideLabel(Composite root, String label) {
    Label l = Objects.requireNonNull(find(root, Label.class, x -> label.equals(x.getText())), "no label " + label);
    List<Control> siblings = Arrays.asList(l.getParent().getChildren());
    return siblings.get(siblings.indexOf(l) + 1);
  }

  /** Opens the sample, presses Run, picks the run configuration in the run options, sets the output folder, launches. */
  private void runSample(String prefix) throws Exception {
    String name = "beam-" + prefix + "-gui";
    ui(() -> {
      HopGui.getInstance().fileDelegate.fileOpen(sample.toString());
      return null;
    });
    HopGuiPipelineGraph graph = waitFor("the pipeline tab", () -> ui(HopGui::getActivePipelineGraph));
    pause(1000);
    ui(() -> {
      graph.start(); // the Run button's action
      return null;
    });
    Shell options = waitForShell(BaseMessages.getString(PipelineExecutionConfigurationDialog.class,
        "PipelineExecutionConfigurationDialog.Shell.Title"));
    ui(() -> {
      MetaSelectionLine<?> runConfiguration = Objects.requireNonNull(find(options, MetaSelectionLine.class, x -> true),
          "the run configuration line");
      runConfiguration.setText(name);
      TableItem folder = null;
      for (TableView t : all(options, TableView.class)) {
        for (TableItem item : t.table.getItems()) {
          if ("OUTPUT_FOLDER".equals(item.getText(1))) {
            folder = item;
          }
        }
      }
      Objects.requireNonNull(folder, "no OUTPUT_FOLDER parameter in the run options").setText(3, output.toString());
      return null;
    });
    screenshot(ui(options::getBounds), "hop-run-options-beam.png");
    press(options, BaseMessages.getString("System.Button.Launch"));
    waitClosed(options);
    IPipelineEngine<?> pipeline = waitFor("the run to end", 180_000, () -> ui(() -> {
      IPipelineEngine<?> p = graph.getPipeline();
      return p != null && p.isFinished() ? p : null;
    }));
    pause(1500); // the metrics tab refreshes
    screenshot(ui(() -> HopGui.getInstance().getShell().getBounds()), "hop-run-on-beam.png");
    ui(() -> {
      results.put("run.engine", pipeline.getClass().getSimpleName());
      results.put("run.errors", String.valueOf(pipeline.getErrors()));
      results.put("run.configuration", pipeline.getPipelineRunConfiguration().getName());
      for (IEngineComponent c : pipeline.getEngineMetrics().getComponents()) {
        results.put("run.metrics." + c.getName(), c.getLinesRead() + "/" + c.getLinesWritten() + "/" + c.getLinesRejected());
      }
      return null;
    });
  }
}
