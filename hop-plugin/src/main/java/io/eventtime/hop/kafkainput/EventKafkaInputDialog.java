package io.eventtime.hop.kafkainput;

import io.eventtime.hop.EventTransformDialog;
import io.eventtime.hop.fileinput.InputSettings;
import java.util.ArrayList;
import java.util.List;
import org.apache.hop.core.exception.HopException;
import org.apache.hop.core.variables.IVariables;
import org.apache.hop.pipeline.PipelineMeta;
import org.apache.hop.pipeline.transform.ITransformDialog;
import org.apache.hop.ui.core.PropsUi;
import org.apache.hop.ui.core.dialog.ErrorDialog;
import org.apache.hop.ui.core.widget.ColumnInfo;
import org.apache.hop.ui.core.widget.ComboVar;
import org.apache.hop.ui.core.widget.TableView;
import org.apache.hop.ui.core.widget.TextVar;
import org.eclipse.swt.SWT;
import org.eclipse.swt.layout.FormAttachment;
import org.eclipse.swt.layout.FormData;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.TableItem;

/** The dialog of the Event Kafka Input transform. */
public class EventKafkaInputDialog extends EventTransformDialog implements ITransformDialog {
  private static final Class<?> PKG = EventKafkaInputMeta.class;
  private static final int GUESS_RECORDS = 100;

  private final EventKafkaInputMeta input;

  TextVar wServers;
  TextVar wTopic;
  TextVar wGroup;
  ComboVar wStart;
  Button wStopWhenCaughtUp;
  TextVar wTimeout;
  ComboVar wFormat;
  TextVar wTimeZone;
  TextVar wValueField;
  TextVar wPartitionField;
  TextVar wOffsetField;
  TextVar wTimestampField;
  TextVar wKeyField;
  TableView wFields;
  Button wGetFields;

  public EventKafkaInputDialog(Shell parent, IVariables variables, EventKafkaInputMeta meta, PipelineMeta pipelineMeta) {
    super(parent, variables, meta, pipelineMeta, PKG, "EventKafkaInputDialog");
    this.input = meta;
  }

  @Override
  protected void addSettings(Composite container, Control above, Control buttons) {
    wServers = text(container, "Servers", above);
    wTopic = text(container, "Topic", wServers);
    wGroup = text(container, "Group", wTopic);
    wStart = combo(container, "Start", wGroup, KafkaInputSettings.START_POSITIONS);
    wStopWhenCaughtUp = checkbox(container, "StopWhenCaughtUp", wStart);
    wTimeout = text(container, "Timeout", wStopWhenCaughtUp);
    wFormat = combo(container, "Format", wTimeout, KafkaInputSettings.FORMATS);
    wTimeZone = text(container, "TimeZone", wFormat);
    wValueField = text(container, "ValueField", wTimeZone);
    wPartitionField = text(container, "PartitionField", wValueField);
    wOffsetField = text(container, "OffsetField", wPartitionField);
    wTimestampField = text(container, "TimestampField", wOffsetField);
    wKeyField = text(container, "KeyField", wTimestampField);

    wGetFields = new Button(container, SWT.PUSH);
    wGetFields.setText(message("GetFields"));
    wGetFields.setToolTipText(message("GetFields.Tooltip"));
    PropsUi.setLook(wGetFields);
    FormData getData = new FormData();
    getData.right = new FormAttachment(100, 0);
    getData.bottom = new FormAttachment(buttons, -margin * 2);
    wGetFields.setLayoutData(getData);
    wGetFields.addListener(SWT.Selection, e -> getFields());
    wFields = table(container, "Fields", wKeyField, wGetFields, input.getFields().size(),
        new ColumnInfo(message("Fields.Column.Name"), ColumnInfo.COLUMN_TYPE_TEXT, false),
        new ColumnInfo(message("Fields.Column.Type"), ColumnInfo.COLUMN_TYPE_CCOMBO, InputSettings.TYPES, true),
        new ColumnInfo(message("Fields.Column.Format"), ColumnInfo.COLUMN_TYPE_TEXT, false));
    wFormat.addModifyListener(e -> enableForFormat());
  }

  private void enableForFormat() {
    String format = wFormat.getText().trim();
    boolean raw = "raw".equalsIgnoreCase(format);
    boolean variable = format.contains("$");
    enable(wValueField, raw || variable);
    enable(wTimeZone, !raw || variable);
    wFields.setEnabled(!raw || variable);
    wGetFields.setEnabled(!raw || variable);
  }

  /** Proposes the fields from the first records of the topic, as the settings in the dialog name it. */
  private void getFields() {
    EventKafkaInputMeta current = new EventKafkaInputMeta();
    current.setDefault();
    saveInto(current);
    try {
      List<KafkaField> guessed = KafkaFieldGuesser.guess(current, variables, GUESS_RECORDS);
      wFields.table.removeAll();
      for (KafkaField f : guessed) {
        wFields.add(f.getName(), f.getType(), "");
      }
      wFields.removeEmptyRows();
      wFields.setRowNums();
      wFields.optWidth(true);
    } catch (HopException e) {
      new ErrorDialog(shell, message("GetFields.Error.Title"), message("GetFields.Error.Message"), e);
    }
  }

  @Override
  protected int minimumWidth() {
    return 700;
  }

  @Override
  protected int minimumHeight() {
    return 860;
  }

  @Override
  protected void getData() {
    wServers.setText(show(input.getBootstrapServers()));
    wTopic.setText(show(input.getTopic()));
    wGroup.setText(show(input.getConsumerGroup()));
    wStart.setText(show(input.getStartPosition()));
    wStopWhenCaughtUp.setSelection(input.isStopWhenCaughtUp());
    wTimeout.setText(show(input.getConnectionTimeout()));
    wFormat.setText(show(input.getValueFormat()));
    wTimeZone.setText(show(input.getTimeZone()));
    wValueField.setText(show(input.getValueField()));
    wPartitionField.setText(show(input.getPartitionField()));
    wOffsetField.setText(show(input.getOffsetField()));
    wTimestampField.setText(show(input.getTimestampField()));
    wKeyField.setText(show(input.getKeyField()));
    for (int i = 0; i < input.getFields().size(); i++) {
      KafkaField f = input.getFields().get(i);
      TableItem item = wFields.table.getItem(i);
      item.setText(1, show(f.getName()));
      item.setText(2, show(f.getType()));
      item.setText(3, show(f.getFormat()));
    }
    wFields.optWidth(true);
    enableForFormat();
  }

  @Override
  protected void save() {
    saveInto(input);
  }

  private void saveInto(EventKafkaInputMeta meta) {
    meta.setBootstrapServers(value(wServers.getText()));
    meta.setTopic(value(wTopic.getText()));
    meta.setConsumerGroup(value(wGroup.getText()));
    meta.setStartPosition(value(wStart.getText()));
    meta.setStopWhenCaughtUp(wStopWhenCaughtUp.getSelection());
    meta.setConnectionTimeout(value(wTimeout.getText()));
    meta.setValueFormat(value(wFormat.getText()));
    meta.setTimeZone(value(wTimeZone.getText()));
    meta.setValueField(value(wValueField.getText()));
    meta.setPartitionField(value(wPartitionField.getText()));
    meta.setOffsetField(value(wOffsetField.getText()));
    meta.setTimestampField(value(wTimestampField.getText()));
    meta.setKeyField(value(wKeyField.getText()));
    List<KafkaField> fields = new ArrayList<>();
    for (TableItem item : wFields.getNonEmptyItems()) {
      fields.add(new KafkaField(value(item.getText(1)), value(item.getText(2)), value(item.getText(3))));
    }
    meta.setFields(fields);
  }
}
