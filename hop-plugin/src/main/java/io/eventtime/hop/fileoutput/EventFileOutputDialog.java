package io.eventtime.hop.fileoutput;

import io.eventtime.hop.EventTransformDialog;
import java.util.ArrayList;
import java.util.List;
import org.apache.hop.core.variables.IVariables;
import org.apache.hop.pipeline.PipelineMeta;
import org.apache.hop.pipeline.transform.ITransformDialog;
import org.apache.hop.ui.core.PropsUi;
import org.apache.hop.ui.core.dialog.BaseDialog;
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

/** The dialog of the Event File Output transform. */
public class EventFileOutputDialog extends EventTransformDialog implements ITransformDialog {
  private static final Class<?> PKG = EventFileOutputMeta.class;

  private final EventFileOutputMeta input;

  TextVar wFilename;
  ComboVar wFormat;
  TextVar wDelimiter;
  Button wHeader;
  Button wAppend;
  Button wCreateParent;
  TableView wFields;
  Button wGetFields;

  public EventFileOutputDialog(Shell parent, IVariables variables, EventFileOutputMeta meta, PipelineMeta pipelineMeta) {
    super(parent, variables, meta, pipelineMeta, PKG, "EventFileOutputDialog");
    this.input = meta;
  }

  @Override
  protected void addSettings(Composite container, Control above, Control buttons) {
    Button browse = new Button(container, SWT.PUSH);
    browse.setText(message("Filename.Browse"));
    wFilename = text(container, "Filename", above, browse);
    browse.addListener(SWT.Selection, e -> BaseDialog.presentFileDialog(true, shell, wFilename, variables,
        new String[] {"*.ndjson", "*.csv", "*"},
        new String[] {message("Filter.Ndjson"), message("Filter.Csv"), message("Filter.All")}, true));
    wFormat = combo(container, "Format", wFilename, EventFileOutputMeta.FORMATS);
    wDelimiter = text(container, "Delimiter", wFormat);
    wHeader = checkbox(container, "Header", wDelimiter);
    wAppend = checkbox(container, "Append", wHeader);
    wCreateParent = checkbox(container, "CreateParent", wAppend);

    wGetFields = new Button(container, SWT.PUSH);
    wGetFields.setText(message("GetFields"));
    PropsUi.setLook(wGetFields);
    FormData getData = new FormData();
    getData.right = new FormAttachment(100, 0);
    getData.bottom = new FormAttachment(buttons, -margin * 2);
    wGetFields.setLayoutData(getData);
    wGetFields.addListener(SWT.Selection, e -> {
      wFields.table.removeAll();
      for (String field : previousFields()) {
        wFields.add(field);
      }
      wFields.removeEmptyRows();
      wFields.setRowNums();
      wFields.optWidth(true);
    });
    wFields = table(container, "Fields", wCreateParent, wGetFields, input.getFields().size(),
        new ColumnInfo(message("Fields.Column.Name"), ColumnInfo.COLUMN_TYPE_CCOMBO, previousFields(), false));
    wFormat.addModifyListener(e -> enableForFormat());
  }

  private void enableForFormat() {
    boolean csv = !"ndjson".equalsIgnoreCase(wFormat.getText().trim());
    enable(wDelimiter, csv);
    enable(wHeader, csv);
  }

  @Override
  protected int minimumWidth() {
    return 620;
  }

  @Override
  protected int minimumHeight() {
    return 620;
  }

  @Override
  protected void getData() {
    wFilename.setText(show(input.getFilename()));
    wFormat.setText(show(input.getFormat()));
    wDelimiter.setText(show(input.getCsvDelimiter()));
    wHeader.setSelection(input.isCsvHeader());
    wAppend.setSelection(input.isAppend());
    wCreateParent.setSelection(input.isCreateParentFolder());
    for (int i = 0; i < input.getFields().size(); i++) {
      wFields.table.getItem(i).setText(1, show(input.getFields().get(i).getName()));
    }
    wFields.optWidth(true);
    enableForFormat();
  }

  @Override
  protected void save() {
    input.setFilename(value(wFilename.getText()));
    input.setFormat(value(wFormat.getText()));
    input.setCsvDelimiter(wDelimiter.getText().isEmpty() ? null : wDelimiter.getText());
    input.setCsvHeader(wHeader.getSelection());
    input.setAppend(wAppend.getSelection());
    input.setCreateParentFolder(wCreateParent.getSelection());
    List<OutputField> fields = new ArrayList<>();
    for (TableItem item : wFields.getNonEmptyItems()) {
      fields.add(new OutputField(value(item.getText(1))));
    }
    input.setFields(fields);
  }
}
