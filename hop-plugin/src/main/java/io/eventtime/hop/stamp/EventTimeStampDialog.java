package io.eventtime.hop.stamp;

import io.eventtime.hop.EventTransformDialog;
import org.apache.hop.core.variables.IVariables;
import org.apache.hop.pipeline.PipelineMeta;
import org.apache.hop.pipeline.transform.ITransformDialog;
import org.apache.hop.ui.core.widget.ComboVar;
import org.apache.hop.ui.core.widget.TextVar;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Shell;

/** The dialog of the Event Time Stamp transform. */
public class EventTimeStampDialog extends EventTransformDialog implements ITransformDialog {
  private static final Class<?> PKG = EventTimeStampMeta.class;

  private final EventTimeStampMeta input;

  ComboVar wTimeField;
  TextVar wTimeFormat;
  ComboVar wEpochUnit;
  TextVar wTimeZone;
  TextVar wOutputField;

  public EventTimeStampDialog(Shell parent, IVariables variables, EventTimeStampMeta meta, PipelineMeta pipelineMeta) {
    super(parent, variables, meta, pipelineMeta, PKG, "EventTimeStampDialog");
    this.input = meta;
  }

  @Override
  protected void addSettings(Composite container, Control above, Control buttons) {
    wTimeField = combo(container, "TimeField", above, previousFields());
    wTimeFormat = text(container, "TimeFormat", wTimeField);
    wEpochUnit = combo(container, "EpochUnit", wTimeFormat, "milliseconds", "seconds");
    wTimeZone = text(container, "TimeZone", wEpochUnit);
    wOutputField = text(container, "OutputField", wTimeZone);
  }

  @Override
  protected void getData() {
    wTimeField.setText(show(input.getTimeField()));
    wTimeFormat.setText(show(input.getTimeFormat()));
    wEpochUnit.setText(show(input.getEpochUnit()));
    wTimeZone.setText(show(input.getTimeZone()));
    wOutputField.setText(show(input.getOutputField()));
  }

  @Override
  protected void save() {
    input.setTimeField(value(wTimeField.getText()));
    input.setTimeFormat(value(wTimeFormat.getText()));
    input.setEpochUnit(value(wEpochUnit.getText()));
    input.setTimeZone(value(wTimeZone.getText()));
    input.setOutputField(value(wOutputField.getText()));
  }
}
