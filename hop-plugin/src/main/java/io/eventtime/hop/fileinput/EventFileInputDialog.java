package io.eventtime.hop.fileinput;

import io.eventtime.hop.EventTransformDialog;
import java.util.ArrayList;
import java.util.List;
import org.apache.hop.core.exception.HopException;
import org.apache.hop.core.variables.IVariables;
import org.apache.hop.i18n.BaseMessages;
import org.apache.hop.pipeline.Pipeline;
import org.apache.hop.pipeline.PipelineMeta;
import org.apache.hop.pipeline.PipelinePreviewFactory;
import org.apache.hop.pipeline.transform.ITransformDialog;
import org.apache.hop.ui.core.PropsUi;
import org.apache.hop.ui.core.dialog.BaseDialog;
import org.apache.hop.ui.core.dialog.EnterNumberDialog;
import org.apache.hop.ui.core.dialog.EnterTextDialog;
import org.apache.hop.ui.core.dialog.ErrorDialog;
import org.apache.hop.ui.core.dialog.PreviewRowsDialog;
import org.apache.hop.ui.core.widget.ColumnInfo;
import org.apache.hop.ui.core.widget.ComboVar;
import org.apache.hop.ui.core.widget.TableView;
import org.apache.hop.ui.core.widget.TextVar;
import org.apache.hop.ui.pipeline.dialog.PipelinePreviewProgressDialog;
import org.eclipse.swt.SWT;
import org.eclipse.swt.layout.FormAttachment;
import org.eclipse.swt.layout.FormData;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.TableItem;

/** The dialog of the Event File Input transform. */
public class EventFileInputDialog extends EventTransformDialog implements ITransformDialog {
  private static final Class<?> PKG = EventFileInputMeta.class;
  private static final int GUESS_LINES = 100;

  private final EventFileInputMeta input;

  TableView wFiles;
  ComboVar wFormat;
  TextVar wDelimiter;
  Button wHeader;
  TextVar wTimeZone;
  TextVar wFilenameField;
  TextVar wLineNumberField;
  Button wFollow;
  TextVar wFollowIdleStop;
  TableView wFields;
  Button wGetFields;
  Button wPreview;

  public EventFileInputDialog(Shell parent, IVariables variables, EventFileInputMeta meta, PipelineMeta pipelineMeta) {
    super(parent, variables, meta, pipelineMeta, PKG, "EventFileInputDialog");
    this.input = meta;
  }

  @Override
  protected void addSettings(Composite container, Control above, Control buttons) {
    Button browse = new Button(container, SWT.PUSH);
    browse.setText(message("Files.Browse"));
    PropsUi.setLook(browse);
    wFiles = table(container, "Files", above, null, input.getFiles().size(),
        new ColumnInfo(message("Files.Column.Name"), ColumnInfo.COLUMN_TYPE_TEXT, false),
        new ColumnInfo(message("Files.Column.Mask"), ColumnInfo.COLUMN_TYPE_TEXT, false));
    FormData filesData = (FormData) wFiles.getLayoutData();
    filesData.right = new FormAttachment(browse, -margin);
    filesData.bottom = new FormAttachment(28, 0);
    FormData browseData = new FormData();
    browseData.right = new FormAttachment(100, 0);
    browseData.top = filesData.top;
    browse.setLayoutData(browseData);
    browse.addListener(SWT.Selection, e -> {
      String file = BaseDialog.presentFileDialog(shell, new String[] {"*.ndjson;*.jsonl;*.json;*.csv", "*"},
          new String[] {message("Files.Filter.Events"), message("Files.Filter.All")}, true);
      if (file != null) {
        wFiles.add(file, "");
        wFiles.removeEmptyRows();
        wFiles.setRowNums();
        wFiles.optWidth(true);
      }
    });

    wFormat = combo(container, "Format", wFiles, InputSettings.FORMATS);
    wDelimiter = text(container, "Delimiter", wFormat);
    wHeader = checkbox(container, "Header", wDelimiter);
    wTimeZone = text(container, "TimeZone", wHeader);
    wFilenameField = text(container, "FilenameField", wTimeZone);
    wLineNumberField = text(container, "LineNumberField", wFilenameField);
    wFollow = checkbox(container, "Follow", wLineNumberField);
    wFollowIdleStop = text(container, "FollowIdleStop", wFollow);
    wFollow.addListener(SWT.Selection, e -> enable(wFollowIdleStop, wFollow.getSelection()));

    wGetFields = new Button(container, SWT.PUSH);
    wGetFields.setText(message("GetFields"));
    PropsUi.setLook(wGetFields);
    FormData getData = new FormData();
    getData.right = new FormAttachment(100, 0);
    getData.bottom = new FormAttachment(buttons, -margin * 2);
    wGetFields.setLayoutData(getData);
    wGetFields.addListener(SWT.Selection, e -> getFields());
    wFields = table(container, "Fields", wFollowIdleStop, wGetFields, input.getFields().size(),
        new ColumnInfo(message("Fields.Column.Name"), ColumnInfo.COLUMN_TYPE_TEXT, false),
        new ColumnInfo(message("Fields.Column.Type"), ColumnInfo.COLUMN_TYPE_CCOMBO, InputSettings.TYPES, true),
        new ColumnInfo(message("Fields.Column.Format"), ColumnInfo.COLUMN_TYPE_TEXT, false));
    wFormat.addModifyListener(e -> enableForFormat());
  }

  private void enableForFormat() {
    boolean csv = !"ndjson".equalsIgnoreCase(wFormat.getText().trim());
    enable(wDelimiter, csv);
    enable(wHeader, csv);
  }

  @Override
  protected Button[] moreButtons(Shell shell) {
    wPreview = new Button(shell, SWT.PUSH);
    wPreview.setText(BaseMessages.getString(PKG, "System.Button.Preview"));
    wPreview.setToolTipText(message("Preview.Tooltip"));
    wPreview.addListener(SWT.Selection, e -> preview());
    return new Button[] {wPreview};
  }

  /**
   * Runs the transform, as the dialog has it, in a pipeline of its own for as many rows as asked,
   * and shows them, as Hop's CSV Input does; the log comes first when the run had errors.
   */
  private void preview() {
    EventFileInputMeta current = new EventFileInputMeta();
    current.setDefault();
    saveInto(current);
    String name = wTransformName.getText();
    PipelineMeta previewMeta = PipelinePreviewFactory.generatePreviewPipeline(pipelineMeta.getMetadataProvider(),
        current, name);
    int size = new EnterNumberDialog(shell, props.getDefaultPreviewSize(), message("Preview.Size.Title"),
        message("Preview.Size.Message")).open();
    if (size <= 0) {
      return;
    }
    PipelinePreviewProgressDialog progress = new PipelinePreviewProgressDialog(shell, variables, previewMeta,
        new String[] {name}, new int[] {size});
    progress.open();
    if (progress.isCancelled()) {
      return;
    }
    Pipeline pipeline = progress.getPipeline();
    String log = progress.getLoggingText();
    if (pipeline != null && pipeline.getResult() != null && pipeline.getResult().getNrErrors() > 0) {
      EnterTextDialog errors = new EnterTextDialog(shell, BaseMessages.getString(PKG, "System.Dialog.PreviewError.Title"),
          BaseMessages.getString(PKG, "System.Dialog.PreviewError.Message"), log, true);
      errors.setReadOnly();
      errors.open();
    }
    new PreviewRowsDialog(shell, variables, SWT.NONE, name, progress.getPreviewRowsMeta(name),
        progress.getPreviewRows(name), log).open();
  }

  /** Proposes the fields from the first lines of the first file, as the settings in the dialog list it. */
  private void getFields() {
    EventFileInputMeta current = new EventFileInputMeta();
    current.setDefault();
    saveInto(current);
    try {
      List<InputField> guessed = FieldGuesser.guess(current, variables, GUESS_LINES);
      wFields.table.removeAll();
      for (InputField f : guessed) {
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
    return 760;
  }

  @Override
  protected int minimumHeight() {
    return 760;
  }

  @Override
  protected void getData() {
    for (int i = 0; i < input.getFiles().size(); i++) {
      TableItem item = wFiles.table.getItem(i);
      item.setText(1, show(input.getFiles().get(i).getName()));
      item.setText(2, show(input.getFiles().get(i).getMask()));
    }
    wFiles.optWidth(true);
    wFormat.setText(show(input.getFormat()));
    wDelimiter.setText(show(input.getCsvDelimiter()));
    wHeader.setSelection(input.isCsvHeader());
    wTimeZone.setText(show(input.getTimeZone()));
    wFilenameField.setText(show(input.getFilenameField()));
    wLineNumberField.setText(show(input.getLineNumberField()));
    wFollow.setSelection(input.isFollow());
    wFollowIdleStop.setText(show(input.getFollowIdleStop()));
    enable(wFollowIdleStop, input.isFollow());
    for (int i = 0; i < input.getFields().size(); i++) {
      InputField f = input.getFields().get(i);
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

  private void saveInto(EventFileInputMeta meta) {
    List<InputFile> files = new ArrayList<>();
    for (TableItem item : wFiles.getNonEmptyItems()) {
      files.add(new InputFile(value(item.getText(1)), value(item.getText(2))));
    }
    meta.setFiles(files);
    meta.setFormat(value(wFormat.getText()));
    meta.setCsvDelimiter(wDelimiter.getText().isEmpty() ? null : wDelimiter.getText());
    meta.setCsvHeader(wHeader.getSelection());
    meta.setTimeZone(value(wTimeZone.getText()));
    meta.setFilenameField(value(wFilenameField.getText()));
    meta.setLineNumberField(value(wLineNumberField.getText()));
    meta.setFollow(wFollow.getSelection());
    meta.setFollowIdleStop(value(wFollowIdleStop.getText()));
    List<InputField> fields = new ArrayList<>();
    for (TableItem item : wFields.getNonEmptyItems()) {
      fields.add(new InputField(value(item.getText(1)), value(item.getText(2)), value(item.getText(3))));
    }
    meta.setFields(fields);
  }
}
