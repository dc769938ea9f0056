package io.eventtime.hop;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hop.core.Const;
import org.apache.hop.core.exception.HopException;
import org.apache.hop.core.row.IRowMeta;
import org.apache.hop.core.util.Utils;
import org.apache.hop.core.variables.IVariables;
import org.apache.hop.i18n.BaseMessages;
import org.apache.hop.pipeline.PipelineMeta;
import org.apache.hop.pipeline.transform.ITransformMeta;
import org.apache.hop.pipeline.transform.TransformMeta;
import org.apache.hop.ui.core.PropsUi;
import org.apache.hop.ui.core.dialog.BaseDialog;
import org.apache.hop.ui.core.gui.GuiResource;
import org.apache.hop.ui.core.widget.ColumnInfo;
import org.apache.hop.ui.core.widget.ComboVar;
import org.apache.hop.ui.core.widget.TableView;
import org.apache.hop.ui.core.widget.TextVar;
import org.apache.hop.ui.pipeline.transform.BaseTransformDialog;
import org.eclipse.swt.SWT;
import org.eclipse.swt.events.ModifyListener;
import org.eclipse.swt.layout.FormAttachment;
import org.eclipse.swt.layout.FormData;
import org.eclipse.swt.layout.FormLayout;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.Text;

/**
 * What the dialogs of our transforms share, in Hop's conventions: the shell, the transform name
 * line, OK and Cancel at the bottom, Enter and Escape, and lines of a label and a widget (labels
 * and tooltips from the transform's message bundle: {@code <Dialog>.<Key>.Label} and
 * {@code .Tooltip}). Each dialog adds its settings between the name line and the buttons.
 */
public abstract class EventTransformDialog extends BaseTransformDialog {
  private final Class<?> pkg;
  private final String prefix;
  private final Map<Control, Label> labels = new HashMap<>();
  protected ModifyListener lsMod;
  protected int middle;
  protected int margin;

  protected EventTransformDialog(Shell parent, IVariables variables, ITransformMeta meta, PipelineMeta pipelineMeta,
      Class<?> pkg, String prefix) {
    super(parent, variables, meta, pipelineMeta);
    this.pkg = pkg;
    this.prefix = prefix;
  }

  /** Adds the settings below {@code above}, above the buttons; returns nothing, it lays out itself. */
  protected abstract void addSettings(Composite container, Control above, Control buttons);

  /** Buttons that go between OK and Cancel at the bottom (e.g. Preview), made on {@code shell}. */
  protected Button[] moreButtons(Shell shell) {
    return new Button[0];
  }

  /** The smallest size the dialog opens at, so that its tables show a few rows. */
  protected int minimumWidth() {
    return 520;
  }

  protected int minimumHeight() {
    return 320;
  }

  /** Copies the settings of the transform into the widgets. */
  protected abstract void getData();

  /** Copies the widgets into the settings of the transform. */
  protected abstract void save();

  @Override
  public String open() {
    shell = new Shell(getParent(), SWT.DIALOG_TRIM | SWT.RESIZE | SWT.MIN | SWT.MAX);
    PropsUi.setLook(shell);
    setShellImage(shell, baseTransformMeta);
    lsMod = e -> baseTransformMeta.setChanged();
    changed = baseTransformMeta.hasChanged();
    FormLayout formLayout = new FormLayout();
    formLayout.marginWidth = PropsUi.getFormMargin();
    formLayout.marginHeight = PropsUi.getFormMargin();
    shell.setLayout(formLayout);
    shell.setText(message("Shell.Title"));
    middle = props.getMiddlePct();
    margin = PropsUi.getMargin();

    wlTransformName = new Label(shell, SWT.RIGHT);
    wlTransformName.setText(BaseMessages.getString(PKG_SYSTEM, "System.Label.TransformName"));
    PropsUi.setLook(wlTransformName);
    fdlTransformName = new FormData();
    fdlTransformName.left = new FormAttachment(0, 0);
    fdlTransformName.right = new FormAttachment(middle, -margin);
    fdlTransformName.top = new FormAttachment(0, margin);
    wlTransformName.setLayoutData(fdlTransformName);
    wTransformName = new Text(shell, SWT.SINGLE | SWT.LEFT | SWT.BORDER);
    wTransformName.setText(transformName);
    PropsUi.setLook(wTransformName);
    wTransformName.addModifyListener(lsMod);
    fdTransformName = new FormData();
    fdTransformName.left = new FormAttachment(middle, 0);
    fdTransformName.top = new FormAttachment(0, margin);
    fdTransformName.right = new FormAttachment(100, 0);
    wTransformName.setLayoutData(fdTransformName);

    wOk = new Button(shell, SWT.PUSH);
    wOk.setText(BaseMessages.getString(PKG_SYSTEM, "System.Button.OK"));
    List<Button> buttons = new ArrayList<>(List.of(wOk));
    buttons.addAll(List.of(moreButtons(shell)));
    wCancel = new Button(shell, SWT.PUSH);
    wCancel.setText(BaseMessages.getString(PKG_SYSTEM, "System.Button.Cancel"));
    buttons.add(wCancel);
    setButtonPositions(buttons.toArray(Button[]::new), margin, null);
    wOk.addListener(SWT.Selection, e -> ok());
    wCancel.addListener(SWT.Selection, e -> cancel());

    addSettings(shell, wTransformName, wOk);
    shell.setMinimumSize(minimumWidth(), minimumHeight());

    getData();
    wTransformName.selectAll();
    wTransformName.setFocus();
    baseTransformMeta.setChanged(changed);
    BaseDialog.defaultShellHandling(shell, c -> ok(), c -> cancel());
    return transformName;
  }

  private static final Class<?> PKG_SYSTEM = BaseTransformDialog.class;

  protected void ok() {
    if (Utils.isEmpty(wTransformName.getText())) {
      return;
    }
    transformName = wTransformName.getText();
    save();
    baseTransformMeta.setChanged();
    dispose();
  }

  protected void cancel() {
    transformName = null;
    baseTransformMeta.setChanged(changed);
    dispose();
  }

  protected String message(String key) {
    return BaseMessages.getString(pkg, prefix + "." + key);
  }

  /** The names of the fields coming in, or none when they cannot be worked out. */
  protected String[] previousFields() {
    try {
      IRowMeta prev = pipelineMeta.getPrevTransformFields(variables, transformName);
      return prev == null ? new String[0] : prev.getFieldNames();
    } catch (HopException e) {
      return new String[0];
    }
  }

  /** The names of the transforms this one has hops to. */
  protected String[] nextTransforms() {
    TransformMeta self = pipelineMeta.findTransform(transformName);
    if (self == null) {
      return new String[0];
    }
    List<TransformMeta> next = pipelineMeta.findNextTransforms(self);
    return next.stream().map(TransformMeta::getName).toArray(String[]::new);
  }

  /** A composite for a tab or a group, laid out like the shell. */
  protected Composite page(Composite parent) {
    Composite c = new Composite(parent, SWT.NONE);
    PropsUi.setLook(c);
    FormLayout layout = new FormLayout();
    layout.marginWidth = PropsUi.getFormMargin();
    layout.marginHeight = PropsUi.getFormMargin();
    c.setLayout(layout);
    return c;
  }

  /**
   * Enables or disables a setting's widget and makes it look so: Hop gives every widget fixed
   * colours, which GTK keeps on a disabled one, so the widget and its label are greyed here.
   */
  protected void enable(Control widget, boolean enabled) {
    widget.setEnabled(enabled);
    GuiResource colours = GuiResource.getInstance();
    Control input = widget instanceof TextVar t ? t.getTextWidget() : widget instanceof ComboVar c ? c.getCComboWidget() : null;
    if (input != null) {
      input.setBackground(enabled ? colours.getColorWhite() : colours.getColorLightGray());
      input.setForeground(enabled ? colours.getColorBlack() : colours.getColorDarkGray());
    }
    Label label = labels.get(widget);
    if (label != null) {
      label.setForeground(enabled ? colours.getColorBlack() : colours.getColorDarkGray());
    }
  }

  private Label label(Composite parent, String key, Control above) {
    Label label = new Label(parent, SWT.RIGHT);
    label.setText(message(key + ".Label"));
    label.setToolTipText(message(key + ".Tooltip"));
    PropsUi.setLook(label);
    FormData fd = new FormData();
    fd.left = new FormAttachment(0, 0);
    fd.right = new FormAttachment(middle, -margin);
    fd.top = above == null ? new FormAttachment(0, margin) : new FormAttachment(above, margin);
    label.setLayoutData(fd);
    return label;
  }

  private void place(Control control, Control above, Control rightOf) {
    FormData fd = new FormData();
    fd.left = new FormAttachment(middle, 0);
    fd.right = rightOf == null ? new FormAttachment(100, 0) : new FormAttachment(rightOf, -margin);
    fd.top = above == null ? new FormAttachment(0, margin) : new FormAttachment(above, margin);
    control.setLayoutData(fd);
  }

  /** A labelled text line that takes variables. */
  protected TextVar text(Composite parent, String key, Control above) {
    return text(parent, key, above, null);
  }

  /** A labelled text line that takes variables, with a button at its right (e.g. Browse). */
  protected TextVar text(Composite parent, String key, Control above, Button button) {
    Label label = label(parent, key, above);
    if (button != null) {
      FormData fb = new FormData();
      fb.right = new FormAttachment(100, 0);
      fb.top = above == null ? new FormAttachment(0, margin) : new FormAttachment(above, margin);
      button.setLayoutData(fb);
      PropsUi.setLook(button);
    }
    TextVar w = new TextVar(variables, parent, SWT.SINGLE | SWT.LEFT | SWT.BORDER);
    w.setToolTipText(message(key + ".Tooltip"));
    PropsUi.setLook(w);
    w.addModifyListener(lsMod);
    place(w, above, button);
    labels.put(w, label);
    return w;
  }

  /** A labelled combo box that takes variables too. */
  protected ComboVar combo(Composite parent, String key, Control above, String... items) {
    Label label = label(parent, key, above);
    ComboVar w = new ComboVar(variables, parent, SWT.SINGLE | SWT.LEFT | SWT.BORDER);
    w.setItems(items);
    w.setToolTipText(message(key + ".Tooltip"));
    PropsUi.setLook(w);
    w.addModifyListener(lsMod);
    place(w, above, null);
    labels.put(w, label);
    return w;
  }

  /** A labelled check box. */
  protected Button checkbox(Composite parent, String key, Control above) {
    Label label = label(parent, key, above);
    Button w = new Button(parent, SWT.CHECK);
    w.setToolTipText(message(key + ".Tooltip"));
    PropsUi.setLook(w);
    w.addListener(SWT.Selection, e -> baseTransformMeta.setChanged());
    place(w, above, null);
    labels.put(w, label);
    return w;
  }

  /** A label over a table that fills the width, from {@code above} down to {@code bottom}. */
  protected TableView table(Composite parent, String key, Control above, Control bottom, int rows,
      ColumnInfo... columns) {
    Label label = new Label(parent, SWT.NONE);
    label.setText(message(key + ".Label"));
    label.setToolTipText(message(key + ".Tooltip"));
    PropsUi.setLook(label);
    FormData fl = new FormData();
    fl.left = new FormAttachment(0, 0);
    fl.top = new FormAttachment(above, margin);
    label.setLayoutData(fl);
    TableView table = new TableView(variables, parent, SWT.BORDER | SWT.FULL_SELECTION | SWT.MULTI, columns,
        Math.max(rows, 1), lsMod, props);
    FormData ft = new FormData();
    ft.left = new FormAttachment(0, 0);
    ft.right = new FormAttachment(100, 0);
    ft.top = new FormAttachment(label, margin);
    ft.bottom = bottom == null ? new FormAttachment(100, 0) : new FormAttachment(bottom, -margin);
    table.setLayoutData(ft);
    return table;
  }

  /** The text of a widget as a setting: null when blank. */
  protected static String value(String text) {
    return text == null || text.isBlank() ? null : text.trim();
  }

  protected static String show(String setting) {
    return Const.NVL(setting, "");
  }
}
