package io.eventtime.hop.stamp;

import io.eventtime.hop.Documentation;
import io.eventtime.hop.EventTimeReader;
import io.eventtime.hop.Settings;
import java.util.List;
import org.apache.hop.core.ICheckResult;
import org.apache.hop.core.annotations.Transform;
import org.apache.hop.core.exception.HopTransformException;
import org.apache.hop.core.row.IRowMeta;
import org.apache.hop.core.row.IValueMeta;
import org.apache.hop.core.row.value.ValueMetaTimestamp;
import org.apache.hop.core.variables.IVariables;
import org.apache.hop.i18n.BaseMessages;
import org.apache.hop.metadata.api.HopMetadataProperty;
import org.apache.hop.metadata.api.IHopMetadataProvider;
import org.apache.hop.pipeline.PipelineMeta;
import org.apache.hop.pipeline.transform.BaseTransformMeta;
import org.apache.hop.pipeline.transform.TransformMeta;

/**
 * The settings of the Event Time Stamp transform: the field that holds each row's event time,
 * how to read it, and the Timestamp field to write it to (the same field when left blank).
 */
@Transform(
    id = "EventTimeStamp",
    image = "io/eventtime/hop/stamp/event-time-stamp.svg",
    name = "i18n::EventTimeStamp.Name",
    description = "i18n::EventTimeStamp.Description",
    categoryDescription = "i18n::EventTime.Category",
    keywords = "i18n::EventTimeStamp.Keywords",
    documentationUrl = Documentation.PAGES + "event-time-stamp.md")
public class EventTimeStampMeta extends BaseTransformMeta<EventTimeStamp, EventTimeStampData> {
  private static final Class<?> PKG = EventTimeStampMeta.class;

  @HopMetadataProperty(
      key = "time_field",
      injectionKey = "TIME_FIELD",
      injectionKeyDescription = "EventTimeStampMeta.Injection.TIME_FIELD")
  private String timeField;

  @HopMetadataProperty(
      key = "time_format",
      injectionKey = "TIME_FORMAT",
      injectionKeyDescription = "EventTimeStampMeta.Injection.TIME_FORMAT")
  private String timeFormat;

  @HopMetadataProperty(
      key = "epoch_unit",
      injectionKey = "EPOCH_UNIT",
      injectionKeyDescription = "EventTimeStampMeta.Injection.EPOCH_UNIT")
  private String epochUnit;

  @HopMetadataProperty(
      key = "time_zone",
      injectionKey = "TIME_ZONE",
      injectionKeyDescription = "EventTimeStampMeta.Injection.TIME_ZONE")
  private String timeZone;

  /** The Timestamp field to write; blank replaces the time field itself. */
  @HopMetadataProperty(
      key = "output_field",
      injectionKey = "OUTPUT_FIELD",
      injectionKeyDescription = "EventTimeStampMeta.Injection.OUTPUT_FIELD")
  private String outputField;

  @Override
  public void setDefault() {
    timeField = "event_time";
    timeFormat = null;
    epochUnit = "milliseconds";
    timeZone = "UTC";
    outputField = null;
  }

  /** The settings resolved against variables and the input, or null with the problems. */
  public StampSettings resolve(IVariables variables, IRowMeta input, List<String> problems) {
    int before = problems.size();
    String field = Settings.resolve(variables, timeField);
    int index = Settings.fieldIndex(BaseMessages.getString(PKG, "EventTimeStampMeta.Setting.TimeField"), field, input,
        problems);
    EventTimeReader reader = EventTimeReader.of(Settings.resolve(variables, timeFormat),
        Settings.resolve(variables, epochUnit), Settings.resolve(variables, timeZone), problems);
    String output = Settings.resolve(variables, outputField);
    if (output != null && input != null && !output.equalsIgnoreCase(field) && input.indexOfValue(output) >= 0) {
      problems.add(BaseMessages.getString(PKG, "EventTimeStampMeta.Problem.OutputIsInput", output));
    }
    if (problems.size() > before) {
      return null;
    }
    int outputIndex = output == null || output.equalsIgnoreCase(field) ? index : -1;
    return new StampSettings(field, index, reader, output == null ? field : output, outputIndex);
  }

  /** What a run needs: where the time is, how to read it, where the Timestamp goes (-1: appended). */
  public record StampSettings(String timeField, int timeIndex, EventTimeReader reader, String outputField,
      int outputIndex) {}

  @Override
  public void getFields(IRowMeta rowMeta, String origin, IRowMeta[] info, TransformMeta nextTransform,
      IVariables variables, IHopMetadataProvider metadataProvider) throws HopTransformException {
    String field = Settings.resolve(variables, timeField);
    String output = Settings.resolve(variables, outputField);
    IValueMeta stamp = new ValueMetaTimestamp(output == null ? field : output);
    stamp.setOrigin(origin);
    int index = field == null ? -1 : rowMeta.indexOfValue(field);
    if ((output == null || output.equalsIgnoreCase(field)) && index >= 0) {
      rowMeta.setValueMeta(index, stamp);
    } else if (stamp.getName() != null) {
      rowMeta.addValueMeta(stamp);
    }
  }

  @Override
  public void check(List<ICheckResult> remarks, PipelineMeta pipelineMeta, TransformMeta transformMeta,
      IRowMeta prev, String[] input, String[] output, IRowMeta info, IVariables variables,
      IHopMetadataProvider metadataProvider) {
    List<String> problems = Settings.problems();
    if (input.length == 0) {
      problems.add(BaseMessages.getString(PKG, "EventTimeStampMeta.Problem.NoInput"));
    }
    resolve(variables, prev == null || prev.isEmpty() ? null : prev, problems);
    Settings.report(remarks, transformMeta, problems, BaseMessages.getString(PKG, "EventTimeStamp.CheckResult.OK"));
  }

  @Override
  public boolean supportsErrorHandling() {
    return true;
  }

  public String getTimeField() {
    return timeField;
  }

  public void setTimeField(String timeField) {
    this.timeField = timeField;
  }

  public String getTimeFormat() {
    return timeFormat;
  }

  public void setTimeFormat(String timeFormat) {
    this.timeFormat = timeFormat;
  }

  public String getEpochUnit() {
    return epochUnit;
  }

  public void setEpochUnit(String epochUnit) {
    this.epochUnit = epochUnit;
  }

  public String getTimeZone() {
    return timeZone;
  }

  public void setTimeZone(String timeZone) {
    this.timeZone = timeZone;
  }

  public String getOutputField() {
    return outputField;
  }

  public void setOutputField(String outputField) {
    this.outputField = outputField;
  }
}
