package io.eventtime.hop.window;

import io.eventtime.hop.EventTransformDialog;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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
import org.eclipse.swt.custom.CTabFolder;
import org.eclipse.swt.custom.CTabItem;
import org.eclipse.swt.layout.FormAttachment;
import org.eclipse.swt.layout.FormData;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.TableItem;

/**
 * The dialog of the Event Time Window transform, in four tabs: the event time (and the partition
 * of each row), the windows, the
 * group-by fields and aggregates, and where late rows and the state go.
 */
public class EventTimeWindowDialog extends EventTransformDialog implements ITransformDialog {
  private static final Class<?> PKG = EventTimeWindowMeta.class;
  private static final String[] EPOCH_UNITS = {"milliseconds", "seconds"};
  private static final String[] POLICIES = {"window", "event"};

  private final EventTimeWindowMeta input;

  CTabFolder wTabs;
  ComboVar wTimeField;
  TextVar wTimeFormat;
  ComboVar wEpochUnit;
  TextVar wTimeZone;
  ComboVar wPartitionField;
  TextVar wPartitions;
  ComboVar wOffsetField;
  ComboVar wKind;
  TextVar wSize;
  TextVar wSlide;
  TextVar wGap;
  TextVar wOffset;
  TextVar wDelay;
  ComboVar wPolicy;
  TextVar wStartField;
  TextVar wEndField;
  TableView wGroup;
  Button wGetGroup;
  TableView wAggregates;
  Button wGetAggregates;
  ComboVar wLateTarget;
  TextVar wLateReason;
  TextVar wIdleTimeout;
  TextVar wStateFolder;

  public EventTimeWindowDialog(Shell parent, IVariables variables, EventTimeWindowMeta meta, PipelineMeta pipelineMeta) {
    super(parent, variables, meta, pipelineMeta, PKG, "EventTimeWindowDialog");
    this.input = meta;
  }

  @Override
  protected void addSettings(Composite container, Control above, Control buttons) {
    String[] fields = previousFields();
    wTabs = new CTabFolder(container, SWT.BORDER);
    PropsUi.setLook(wTabs, PropsUi.WIDGET_STYLE_TAB);

    Composite time = tab("Tab.Time");
    wTimeField = combo(time, "TimeField", null, fields);
    wTimeFormat = text(time, "TimeFormat", wTimeField);
    wEpochUnit = combo(time, "EpochUnit", wTimeFormat, EPOCH_UNITS);
    wTimeZone = text(time, "TimeZone", wEpochUnit);
    wPartitionField = combo(time, "PartitionField", wTimeZone, fields);
    wPartitions = text(time, "Partitions", wPartitionField);
    wOffsetField = combo(time, "OffsetField", wPartitions, fields);

    Composite windows = tab("Tab.Windows");
    wKind = combo(windows, "Kind", null, WindowSettings.KINDS);
    wSize = text(windows, "Size", wKind);
    wSlide = text(windows, "Slide", wSize);
    wGap = text(windows, "Gap", wSlide);
    wOffset = text(windows, "Offset", wGap);
    wDelay = text(windows, "Delay", wOffset);
    wPolicy = combo(windows, "Policy", wDelay, POLICIES);
    wStartField = text(windows, "StartField", wPolicy);
    wEndField = text(windows, "EndField", wStartField);
    wKind.addModifyListener(e -> enableForKind());

    Composite groups = tab("Tab.Aggregates");
    wGetGroup = getFieldsButton(groups, "Group.GetFields");
    wGroup = table(groups, "Group", null, null, input.getGroupFields().size(),
        new ColumnInfo(message("Group.Column.Field"), ColumnInfo.COLUMN_TYPE_CCOMBO, fields, false));
    besideTable(wGetGroup, wGroup);
    ((FormData) wGroup.getLayoutData()).bottom = new FormAttachment(35, 0);
    // a row per field, named as the field: the aggregate is left for the user to choose
    wGetGroup.addListener(SWT.Selection, e -> getFieldsFromPrevious(variables, pipelineMeta,
        pipelineMeta.findTransform(transformName), wGroup, 1, new int[] {1}, null, -1, -1, null));
    wGetAggregates = getFieldsButton(groups, "Aggregates.GetFields");
    wAggregates = table(groups, "Aggregates", wGroup, null, input.getAggregates().size(),
        new ColumnInfo(message("Aggregates.Column.Field"), ColumnInfo.COLUMN_TYPE_CCOMBO, fields, false),
        new ColumnInfo(message("Aggregates.Column.Aggregate"), ColumnInfo.COLUMN_TYPE_CCOMBO,
            WindowSettings.AGGREGATES, true),
        new ColumnInfo(message("Aggregates.Column.Output"), ColumnInfo.COLUMN_TYPE_TEXT, false));
    besideTable(wGetAggregates, wAggregates);
    wGetAggregates.addListener(SWT.Selection, e -> getFieldsFromPrevious(variables, pipelineMeta,
        pipelineMeta.findTransform(transformName), wAggregates, 1, new int[] {1, 3}, null, -1, -1, null));

    Composite late = tab("Tab.Late");
    wLateTarget = combo(late, "LateTarget", null, nextTransforms());
    wLateReason = text(late, "LateReason", wLateTarget);
    wIdleTimeout = text(late, "IdleTimeout", wLateReason);
    Button browse = new Button(late, SWT.PUSH);
    browse.setText(message("StateFolder.Browse"));
    wStateFolder = text(late, "StateFolder", wIdleTimeout, browse);
    browse.addListener(SWT.Selection, e -> BaseDialog.presentDirectoryDialog(shell, wStateFolder, variables));

    FormData fd = new FormData();
    fd.left = new FormAttachment(0, 0);
    fd.top = new FormAttachment(above, margin * 2);
    fd.right = new FormAttachment(100, 0);
    fd.bottom = new FormAttachment(buttons, -margin * 2);
    wTabs.setLayoutData(fd);
    wTabs.setSelection(0);
  }

  private Button getFieldsButton(Composite parent, String key) {
    Button button = new Button(parent, SWT.PUSH);
    button.setText(message(key));
    button.setToolTipText(message(key + ".Tooltip"));
    PropsUi.setLook(button);
    return button;
  }

  /** Puts a Get fields button at the right of the top of its table, as Hop's Group By dialogs have it. */
  private static void besideTable(Button button, TableView table) {
    FormData tableData = (FormData) table.getLayoutData();
    FormData fd = new FormData();
    fd.right = new FormAttachment(100, 0);
    fd.top = new FormAttachment(tableData.top.control, tableData.top.offset);
    button.setLayoutData(fd);
    tableData.right = new FormAttachment(button, -PropsUi.getMargin());
  }

  private Composite tab(String key) {
    CTabItem item = new CTabItem(wTabs, SWT.NONE);
    item.setText(message(key));
    Composite page = page(wTabs);
    item.setControl(page);
    return page;
  }

  /** Only the sizes that the chosen kind of window uses can be edited. */
  private void enableForKind() {
    String kind = wKind.getText().trim().toLowerCase(Locale.ROOT);
    boolean variable = kind.contains("$");
    enable(wSize, variable || !kind.equals("session"));
    enable(wOffset, variable || !kind.equals("session"));
    enable(wSlide, variable || kind.equals("hopping"));
    enable(wGap, variable || kind.equals("session"));
  }

  @Override
  protected int minimumWidth() {
    return 660;
  }

  @Override
  protected int minimumHeight() {
    return 560;
  }

  @Override
  protected void getData() {
    wTimeField.setText(show(input.getTimeField()));
    wTimeFormat.setText(show(input.getTimeFormat()));
    wEpochUnit.setText(show(input.getEpochUnit()));
    wTimeZone.setText(show(input.getTimeZone()));
    wPartitionField.setText(show(input.getPartitionField()));
    wPartitions.setText(show(input.getPartitions()));
    wOffsetField.setText(show(input.getOffsetField()));
    wKind.setText(show(input.getWindowKind()));
    wSize.setText(show(input.getWindowSize()));
    wSlide.setText(show(input.getWindowSlide()));
    wGap.setText(show(input.getSessionGap()));
    wOffset.setText(show(input.getWindowOffset()));
    wDelay.setText(show(input.getWatermarkDelay()));
    wPolicy.setText(show(input.getLatePolicy()));
    wStartField.setText(show(input.getWindowStartField()));
    wEndField.setText(show(input.getWindowEndField()));
    for (int i = 0; i < input.getGroupFields().size(); i++) {
      wGroup.table.getItem(i).setText(1, show(input.getGroupFields().get(i).getName()));
    }
    for (int i = 0; i < input.getAggregates().size(); i++) {
      WindowAggregate a = input.getAggregates().get(i);
      TableItem item = wAggregates.table.getItem(i);
      item.setText(1, show(a.getField()));
      item.setText(2, show(a.getAggregate()));
      item.setText(3, show(a.getOutputName()));
    }
    wGroup.optWidth(true);
    wAggregates.optWidth(true);
    wLateTarget.setText(show(input.getLateTargetTransform()));
    wLateReason.setText(show(input.getLateReasonField()));
    wIdleTimeout.setText(show(input.getIdleTimeout()));
    wStateFolder.setText(show(input.getStateFolder()));
    enableForKind();
  }

  @Override
  protected void save() {
    input.setTimeField(value(wTimeField.getText()));
    input.setTimeFormat(value(wTimeFormat.getText()));
    input.setEpochUnit(value(wEpochUnit.getText()));
    input.setTimeZone(value(wTimeZone.getText()));
    input.setPartitionField(value(wPartitionField.getText()));
    input.setPartitions(value(wPartitions.getText()));
    input.setOffsetField(value(wOffsetField.getText()));
    input.setWindowKind(value(wKind.getText()));
    input.setWindowSize(value(wSize.getText()));
    input.setWindowSlide(value(wSlide.getText()));
    input.setSessionGap(value(wGap.getText()));
    input.setWindowOffset(value(wOffset.getText()));
    input.setWatermarkDelay(value(wDelay.getText()));
    input.setLatePolicy(value(wPolicy.getText()));
    input.setWindowStartField(value(wStartField.getText()));
    input.setWindowEndField(value(wEndField.getText()));
    List<GroupField> group = new ArrayList<>();
    for (TableItem item : wGroup.getNonEmptyItems()) {
      group.add(new GroupField(value(item.getText(1))));
    }
    input.setGroupFields(group);
    List<WindowAggregate> aggregates = new ArrayList<>();
    for (TableItem item : wAggregates.getNonEmptyItems()) {
      aggregates.add(new WindowAggregate(value(item.getText(1)), value(item.getText(2)), value(item.getText(3))));
    }
    input.setAggregates(aggregates);
    input.setLateTargetTransform(value(wLateTarget.getText()));
    input.getTransformIOMeta().getTargetStreams().get(0)
        .setTransformMeta(pipelineMeta.findTransform(value(wLateTarget.getText())));
    input.setLateReasonField(value(wLateReason.getText()));
    input.setIdleTimeout(value(wIdleTimeout.getText()));
    input.setStateFolder(value(wStateFolder.getText()));
  }
}
