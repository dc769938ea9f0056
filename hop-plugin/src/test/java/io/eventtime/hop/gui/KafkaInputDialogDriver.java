package io.eventtime.hop.gui;

import io.eventtime.hop.kafkainput.EventKafkaInputMeta;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.hop.core.variables.Variables;
import org.apache.hop.i18n.BaseMessages;
import org.apache.hop.pipeline.PipelineMeta;
import org.apache.hop.pipeline.transform.TransformMeta;
import org.apache.hop.ui.hopgui.HopGui;
import org.apache.hop.ui.hopgui.file.pipeline.HopGuiPipelineGraph;
import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Event;
import org.eclipse.swt.widgets.Shell;

/**
 * Drives Event Kafka Input's dialog in a real HopGui (its own JVM, under Xvfb): sets the brokers
 * and topic the test gives, presses Get fields (the topic sampled on the test's broker), takes the
 * screenshot, presses OK and records the settings the transform then holds.
 */
public final class KafkaInputDialogDriver extends GuiRobot {
  private final String servers;
  private final String topic;

  private KafkaInputDialogDriver(Path images, Path work, String servers, String topic) {
    super(images, work);
    this.servers = servers;
    this.topic = topic;
  }

  /** Arguments: the results file, the images folder, a work folder, the bootstrap servers, the topic. */
  public static void main(String[] args) {
    run(new KafkaInputDialogDriver(Path.of(args[1]), Path.of(args[2]), args[3], args[4]), Path.of(args[0]));
  }

  @Override
  protected void drive() throws Exception {
    Path hpl = work.resolve("kafka.hpl");
    ui(() -> {
      PipelineMeta p = new PipelineMeta();
      p.setName("kafka");
      EventKafkaInputMeta in = new EventKafkaInputMeta();
      in.setDefault();
      TransformMeta t = new TransformMeta("Read topic", in);
      t.setLocation(80, 120);
      p.addTransform(t);
      Files.writeString(hpl, p.getXml(new Variables()));
      HopGui.getInstance().fileDelegate.fileOpen(hpl.toString());
      return null;
    });
    HopGuiPipelineGraph graph = waitFor("the pipeline tab", () -> ui(HopGui::getActivePipelineGraph));
    pause(1000);
    Shell shell = open(graph, "Read topic", "Event Kafka Input");
    Map<String, Control> w = widgets(shell, EventKafkaInputMeta.class, "EventKafkaInputDialog", "Servers", "Topic",
        "Group", "StopWhenCaughtUp");
    String getFields = BaseMessages.getString(EventKafkaInputMeta.class, "EventKafkaInputDialog.GetFields");
    ui(() -> {
      set(w, "Servers", servers);
      set(w, "Topic", topic);
      set(w, "Group", "hop-designer");
      ((Button) w.get("StopWhenCaughtUp")).setSelection(true);
      find(shell, Button.class, b -> getFields.equals(b.getText())).notifyListeners(SWT.Selection, new Event());
      return null;
    });
    pause(800);
    screenshot(ui(shell::getBounds), "hop-event-kafka-input-dialog.png");
    pressOk(shell);
    waitClosed(shell);
    EventKafkaInputMeta m = (EventKafkaInputMeta) ui(() -> graph.getPipelineMeta().findTransform("Read topic")
        .getTransform());
    record("kafka", List.of(m.getBootstrapServers(), m.getTopic(), m.getConsumerGroup(),
        String.valueOf(m.isStopWhenCaughtUp()), m.getValueFormat(), m.getPartitionField(), m.getOffsetField()));
    results.put("kafka.fields", m.getFields().stream().map(f -> f.getName() + "/" + f.getType())
        .collect(Collectors.joining(",")));
  }
}
