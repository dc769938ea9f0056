package io.eventtime.hop.window;

import io.eventtime.hop.Documentation;
import io.eventtime.hop.PipelineGraph;
import io.eventtime.hop.Settings;
import io.eventtime.hop.StateSourceMeta;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.hop.core.ICheckResult;
import org.apache.hop.core.annotations.Transform;
import org.apache.hop.core.exception.HopTransformException;
import org.apache.hop.core.row.IRowMeta;
import org.apache.hop.core.row.value.ValueMetaString;
import org.apache.hop.core.variables.IVariables;
import org.apache.hop.i18n.BaseMessages;
import org.apache.hop.metadata.api.HopMetadataProperty;
import org.apache.hop.metadata.api.IHopMetadataProvider;
import org.apache.hop.pipeline.PipelineMeta;
import org.apache.hop.pipeline.transform.BaseTransformMeta;
import org.apache.hop.pipeline.transform.ITransformIOMeta;
import org.apache.hop.pipeline.transform.TransformIOMeta;
import org.apache.hop.pipeline.transform.TransformMeta;
import org.apache.hop.pipeline.transform.stream.IStream;
import org.apache.hop.pipeline.transform.stream.Stream;
import org.apache.hop.pipeline.transform.stream.StreamIcon;

/**
 * The settings of the Event Time Window transform: which field holds the event time, the
 * windows (tumbling, hopping or session), the group-by fields and aggregates, the watermark
 * delay and late policy, where late rows go, and the idle timeout. Every text setting takes
 * variables.
 */
@Transform(
    id = "EventTimeWindow",
    image = "io/eventtime/hop/window/event-time-window.svg",
    name = "i18n::EventTimeWindow.Name",
    description = "i18n::EventTimeWindow.Description",
    categoryDescription = "i18n::EventTime.Category",
    keywords = "i18n::EventTimeWindow.Keywords",
    documentationUrl = Documentation.PAGES + "event-time-window.md")
public class EventTimeWindowMeta extends BaseTransformMeta<EventTimeWindow, EventTimeWindowData> {
  private static final Class<?> PKG = EventTimeWindowMeta.class;

  /** What copies would do, for the check and the run's refusal. */
  static String copies() {
    return BaseMessages.getString(PKG, "EventTimeWindowMeta.Problem.Copies");
  }

  @HopMetadataProperty(
      key = "time_field",
      injectionKey = "TIME_FIELD",
      injectionKeyDescription = "EventTimeWindowMeta.Injection.TIME_FIELD")
  private String timeField;

  /** A DateTimeFormatter pattern for String times; blank reads ISO-8601. */
  @HopMetadataProperty(
      key = "time_format",
      injectionKey = "TIME_FORMAT",
      injectionKeyDescription = "EventTimeWindowMeta.Injection.TIME_FORMAT")
  private String timeFormat;

  /** milliseconds or seconds, for times given as whole epoch numbers. */
  @HopMetadataProperty(
      key = "epoch_unit",
      injectionKey = "EPOCH_UNIT",
      injectionKeyDescription = "EventTimeWindowMeta.Injection.EPOCH_UNIT")
  private String epochUnit;

  /** The zone of String times written without one. */
  @HopMetadataProperty(
      key = "time_zone",
      injectionKey = "TIME_ZONE",
      injectionKeyDescription = "EventTimeWindowMeta.Injection.TIME_ZONE")
  private String timeZone;

  /** tumbling, hopping or session. */
  @HopMetadataProperty(
      key = "window_kind",
      injectionKey = "WINDOW_KIND",
      injectionKeyDescription = "EventTimeWindowMeta.Injection.WINDOW_KIND")
  private String windowKind;

  @HopMetadataProperty(
      key = "window_size",
      injectionKey = "WINDOW_SIZE",
      injectionKeyDescription = "EventTimeWindowMeta.Injection.WINDOW_SIZE")
  private String windowSize;

  @HopMetadataProperty(
      key = "window_slide",
      injectionKey = "WINDOW_SLIDE",
      injectionKeyDescription = "EventTimeWindowMeta.Injection.WINDOW_SLIDE")
  private String windowSlide;

  @HopMetadataProperty(
      key = "session_gap",
      injectionKey = "SESSION_GAP",
      injectionKeyDescription = "EventTimeWindowMeta.Injection.SESSION_GAP")
  private String sessionGap;

  /** Shifts the grid of tumbling and hopping windows; blank for none. */
  @HopMetadataProperty(
      key = "window_offset",
      injectionKey = "WINDOW_OFFSET",
      injectionKeyDescription = "EventTimeWindowMeta.Injection.WINDOW_OFFSET")
  private String windowOffset;

  @HopMetadataProperty(
      groupKey = "group_by",
      key = "field",
      injectionGroupKey = "GROUP_BY",
      injectionGroupDescription = "EventTimeWindowMeta.Injection.GROUP_BY")
  private List<GroupField> groupFields;

  @HopMetadataProperty(
      groupKey = "aggregates",
      key = "aggregate",
      injectionGroupKey = "AGGREGATES",
      injectionGroupDescription = "EventTimeWindowMeta.Injection.AGGREGATES")
  private List<WindowAggregate> aggregates;

  @HopMetadataProperty(
      key = "window_start_field",
      injectionKey = "WINDOW_START_FIELD",
      injectionKeyDescription = "EventTimeWindowMeta.Injection.WINDOW_START_FIELD")
  private String windowStartField;

  @HopMetadataProperty(
      key = "window_end_field",
      injectionKey = "WINDOW_END_FIELD",
      injectionKeyDescription = "EventTimeWindowMeta.Injection.WINDOW_END_FIELD")
  private String windowEndField;

  @HopMetadataProperty(
      key = "watermark_delay",
      injectionKey = "WATERMARK_DELAY",
      injectionKeyDescription = "EventTimeWindowMeta.Injection.WATERMARK_DELAY")
  private String watermarkDelay;

  /** window or event. */
  @HopMetadataProperty(
      key = "late_policy",
      injectionKey = "LATE_POLICY",
      injectionKeyDescription = "EventTimeWindowMeta.Injection.LATE_POLICY")
  private String latePolicy;

  /** Kept in the target stream of the transform's IO metadata; serialised through the accessors. */
  @HopMetadataProperty(
      key = "late_target",
      injectionKey = "LATE_TARGET",
      injectionKeyDescription = "EventTimeWindowMeta.Injection.LATE_TARGET")
  private String lateTargetTransform;

  @HopMetadataProperty(
      key = "late_reason_field",
      injectionKey = "LATE_REASON_FIELD",
      injectionKeyDescription = "EventTimeWindowMeta.Injection.LATE_REASON_FIELD")
  private String lateReasonField;

  /** Wall-clock time without rows after which windows close by the clock; blank for never. */
  @HopMetadataProperty(
      key = "idle_timeout",
      injectionKey = "IDLE_TIMEOUT",
      injectionKeyDescription = "EventTimeWindowMeta.Injection.IDLE_TIMEOUT")
  private String idleTimeout;

  /**
   * A folder that carries the watermark and the open windows from one run to the next (the
   * core's state store); blank to emit every window at the end of the run.
   */
  @HopMetadataProperty(
      key = "state_folder",
      injectionKey = "STATE_FOLDER",
      injectionKeyDescription = "EventTimeWindowMeta.Injection.STATE_FOLDER")
  private String stateFolder;

  /**
   * The Integer field that tells each row's partition (Event Kafka Input's _partition, Hop's
   * Kafka Consumer's partition); blank for one stream in arrival order.
   */
  @HopMetadataProperty(
      key = "partition_field",
      injectionKey = "PARTITION_FIELD",
      injectionKeyDescription = "EventTimeWindowMeta.Injection.PARTITION_FIELD")
  private String partitionField;

  /** How many partitions the stream has (0 to n-1), with a partition field: the topic's partition count. */
  @HopMetadataProperty(
      key = "partitions",
      injectionKey = "PARTITIONS",
      injectionKeyDescription = "EventTimeWindowMeta.Injection.PARTITIONS")
  private String partitions;

  /**
   * With a partition field and a state folder: the Integer field with each row's offset in its
   * partition (Event Kafka Input's _offset), so that the state records where each partition goes
   * on and Event Kafka Input starts there on the next run.
   */
  @HopMetadataProperty(
      key = "offset_field",
      injectionKey = "OFFSET_FIELD",
      injectionKeyDescription = "EventTimeWindowMeta.Injection.OFFSET_FIELD")
  private String offsetField;

  public EventTimeWindowMeta() {
    groupFields = new ArrayList<>();
    aggregates = new ArrayList<>();
  }

  @Override
  public void setDefault() {
    timeField = "event_time";
    timeFormat = null;
    epochUnit = "milliseconds";
    timeZone = "UTC";
    windowKind = "tumbling";
    windowSize = "1 MINUTE";
    windowSlide = "30 SECONDS";
    sessionGap = "5 MINUTES";
    windowOffset = null;
    groupFields = new ArrayList<>();
    aggregates = new ArrayList<>(List.of(new WindowAggregate(null, "count", "events")));
    windowStartField = "window_start";
    windowEndField = "window_end";
    watermarkDelay = "0 SECONDS";
    latePolicy = "window";
    lateReasonField = "late_reason";
    idleTimeout = null;
    stateFolder = null;
    partitionField = null;
    partitions = null;
    offsetField = null;
  }

  @Override
  public EventTimeWindowMeta clone() {
    EventTimeWindowMeta copy = (EventTimeWindowMeta) super.clone();
    copy.groupFields = new ArrayList<>();
    groupFields.forEach(g -> copy.groupFields.add(new GroupField(g)));
    copy.aggregates = new ArrayList<>();
    aggregates.forEach(a -> copy.aggregates.add(new WindowAggregate(a)));
    return copy;
  }

  /** The settings resolved against variables and the input fields, or null with the problems. */
  public WindowSettings resolve(IVariables variables, IRowMeta input, List<String> problems) {
    return WindowSettings.resolve(this, variables, input, problems);
  }

  @Override
  public void getFields(IRowMeta rowMeta, String origin, IRowMeta[] info, TransformMeta nextTransform,
      IVariables variables, IHopMetadataProvider metadataProvider) throws HopTransformException {
    String reason = Settings.resolve(variables, lateReasonField);
    if (nextTransform != null && lateTargetTransform() != null
        && nextTransform.getName().equalsIgnoreCase(lateTargetTransform())) {
      if (reason != null) {
        ValueMetaString v = new ValueMetaString(reason);
        v.setOrigin(origin);
        rowMeta.addValueMeta(v);
      }
      return;
    }
    IRowMeta output = WindowSettings.outputLayout(this, variables, rowMeta);
    rowMeta.clear();
    output.getValueMetaList().forEach(v -> v.setOrigin(origin));
    rowMeta.addRowMeta(output);
  }

  @Override
  public void check(List<ICheckResult> remarks, PipelineMeta pipelineMeta, TransformMeta transformMeta,
      IRowMeta prev, String[] input, String[] output, IRowMeta info, IVariables variables,
      IHopMetadataProvider metadataProvider) {
    List<String> problems = Settings.problems();
    if (input.length == 0) {
      problems.add(BaseMessages.getString(PKG, "EventTimeWindowMeta.Problem.NoInput"));
    }
    resolve(variables, prev == null || prev.isEmpty() ? null : prev, problems);
    Settings.requireOneCopy(transformMeta, variables, copies(), problems);
    if (Settings.resolve(variables, stateFolder) != null && Settings.resolve(variables, partitionField) != null
        && PipelineGraph.upstream(pipelineMeta, transformMeta).stream()
            .noneMatch(t -> t.getTransform() instanceof StateSourceMeta)) {
      problems.add(BaseMessages.getString(PKG, "EventTimeWindow.Problem.StateFolder",
          BaseMessages.getString(PKG, "EventTimeWindow.Problem.NoKafkaUpstream")));
    }
    String target = lateTargetTransform();
    if (target != null && (output == null || java.util.Arrays.stream(output).noneMatch(target::equalsIgnoreCase))) {
      problems.add(BaseMessages.getString(PKG, "EventTimeWindowMeta.Problem.LateTargetNotNext", target));
    }
    Settings.report(remarks, transformMeta, problems, BaseMessages.getString(PKG, "EventTimeWindow.CheckResult.OK"));
  }

  @Override
  public boolean supportsErrorHandling() {
    return true;
  }

  /** One copy sees every row in arrival order; copies would each see a part of the stream. */
  @Override
  public boolean supportsMultiCopyExecution() {
    return false;
  }

  @Override
  public boolean excludeFromCopyDistributeVerification() {
    // the late rows go to their target, not to the main output, so there is nothing to ask
    return true;
  }

  @Override
  public ITransformIOMeta getTransformIOMeta() {
    ITransformIOMeta ioMeta = super.getTransformIOMeta(false);
    if (ioMeta == null) {
      ioMeta = new TransformIOMeta(true, true, false, false, false, false);
      ioMeta.addStream(new Stream(IStream.StreamType.TARGET, null,
          BaseMessages.getString(PKG, "EventTimeWindow.LateStream.Description"), StreamIcon.TARGET, null));
      setTransformIOMeta(ioMeta);
    }
    return ioMeta;
  }

  @Override
  public void searchInfoAndTargetTransforms(List<TransformMeta> transforms) {
    IStream stream = lateStream();
    stream.setTransformMeta(TransformMeta.findTransform(transforms, (String) stream.getSubject()));
  }

  @Override
  public void resetTransformIoMeta() {
    // keep the late target: it lives in the IO metadata
  }

  private IStream lateStream() {
    return getTransformIOMeta().getTargetStreams().get(0);
  }

  private String lateTargetTransform() {
    IStream stream = lateStream();
    if (stream.getTransformMeta() != null) {
      return stream.getTransformMeta().getName();
    }
    Object subject = stream.getSubject();
    return subject == null || subject.toString().isBlank() ? null : subject.toString();
  }

  public String getLateTargetTransform() {
    return lateTargetTransform();
  }

  public void setLateTargetTransform(String name) {
    IStream stream = lateStream();
    stream.setSubject(name);
    if (stream.getTransformMeta() != null && !Objects.equals(stream.getTransformMeta().getName(), name)) {
      stream.setTransformMeta(null);
    }
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

  public String getWindowKind() {
    return windowKind;
  }

  public void setWindowKind(String windowKind) {
    this.windowKind = windowKind;
  }

  public String getWindowSize() {
    return windowSize;
  }

  public void setWindowSize(String windowSize) {
    this.windowSize = windowSize;
  }

  public String getWindowSlide() {
    return windowSlide;
  }

  public void setWindowSlide(String windowSlide) {
    this.windowSlide = windowSlide;
  }

  public String getSessionGap() {
    return sessionGap;
  }

  public void setSessionGap(String sessionGap) {
    this.sessionGap = sessionGap;
  }

  public String getWindowOffset() {
    return windowOffset;
  }

  public void setWindowOffset(String windowOffset) {
    this.windowOffset = windowOffset;
  }

  public List<GroupField> getGroupFields() {
    return groupFields;
  }

  public void setGroupFields(List<GroupField> groupFields) {
    this.groupFields = groupFields;
  }

  public List<WindowAggregate> getAggregates() {
    return aggregates;
  }

  public void setAggregates(List<WindowAggregate> aggregates) {
    this.aggregates = aggregates;
  }

  public String getWindowStartField() {
    return windowStartField;
  }

  public void setWindowStartField(String windowStartField) {
    this.windowStartField = windowStartField;
  }

  public String getWindowEndField() {
    return windowEndField;
  }

  public void setWindowEndField(String windowEndField) {
    this.windowEndField = windowEndField;
  }

  public String getWatermarkDelay() {
    return watermarkDelay;
  }

  public void setWatermarkDelay(String watermarkDelay) {
    this.watermarkDelay = watermarkDelay;
  }

  public String getLatePolicy() {
    return latePolicy;
  }

  public void setLatePolicy(String latePolicy) {
    this.latePolicy = latePolicy;
  }

  public String getLateReasonField() {
    return lateReasonField;
  }

  public void setLateReasonField(String lateReasonField) {
    this.lateReasonField = lateReasonField;
  }

  public String getStateFolder() {
    return stateFolder;
  }

  public void setStateFolder(String stateFolder) {
    this.stateFolder = stateFolder;
  }

  public String getIdleTimeout() {
    return idleTimeout;
  }

  public void setIdleTimeout(String idleTimeout) {
    this.idleTimeout = idleTimeout;
  }

  public String getPartitionField() {
    return partitionField;
  }

  public void setPartitionField(String partitionField) {
    this.partitionField = partitionField;
  }

  public String getPartitions() {
    return partitions;
  }

  public void setPartitions(String partitions) {
    this.partitions = partitions;
  }

  public String getOffsetField() {
    return offsetField;
  }

  public void setOffsetField(String offsetField) {
    this.offsetField = offsetField;
  }
}
