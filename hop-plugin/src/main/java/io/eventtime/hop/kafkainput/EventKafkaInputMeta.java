package io.eventtime.hop.kafkainput;

import io.eventtime.core.state.StateSource;
import io.eventtime.hop.Documentation;
import io.eventtime.hop.PipelineGraph;
import io.eventtime.hop.Settings;
import io.eventtime.hop.StateSourceMeta;
import io.eventtime.hop.window.EventTimeWindowMeta;
import java.util.ArrayList;
import java.util.List;
import org.apache.hop.core.ICheckResult;
import org.apache.hop.core.annotations.Transform;
import org.apache.hop.core.exception.HopTransformException;
import org.apache.hop.core.row.IRowMeta;
import org.apache.hop.core.variables.IVariables;
import org.apache.hop.i18n.BaseMessages;
import org.apache.hop.metadata.api.HopMetadataProperty;
import org.apache.hop.metadata.api.IHopMetadataProvider;
import org.apache.hop.pipeline.PipelineMeta;
import org.apache.hop.pipeline.transform.BaseTransformMeta;
import org.apache.hop.pipeline.transform.TransformMeta;

/**
 * The settings of the Event Kafka Input transform: the brokers and topic, the consumer group, where
 * to start (earliest or latest) and whether to stop once caught up with the end offsets found at
 * the start, the value format (JSON with typed fields, or the raw value as text), and the fields
 * for each record's partition, offset, Kafka timestamp and key.
 */
@Transform(
    id = "EventKafkaInput",
    image = "io/eventtime/hop/kafkainput/event-kafka-input.svg",
    name = "i18n::EventKafkaInput.Name",
    description = "i18n::EventKafkaInput.Description",
    categoryDescription = "i18n::EventTime.Category",
    keywords = "i18n::EventKafkaInput.Keywords",
    documentationUrl = Documentation.PAGES + "event-kafka-input.md")
public class EventKafkaInputMeta extends BaseTransformMeta<EventKafkaInput, EventKafkaInputData>
    implements StateSourceMeta {
  private static final Class<?> PKG = EventKafkaInputMeta.class;

  /** What copies would do, for the check and the run's refusal. */
  static String copies() {
    return BaseMessages.getString(PKG, "EventKafkaInputMeta.Problem.Copies");
  }

  /** host:port, comma-separated. */
  @HopMetadataProperty(
      key = "bootstrap_servers",
      injectionKey = "BOOTSTRAP_SERVERS",
      injectionKeyDescription = "EventKafkaInputMeta.Injection.BOOTSTRAP_SERVERS")
  private String bootstrapServers;

  @HopMetadataProperty(
      key = "topic",
      injectionKey = "TOPIC",
      injectionKeyDescription = "EventKafkaInputMeta.Injection.TOPIC")
  private String topic;

  /** The group the read offsets are committed to, for monitoring; blank for none. */
  @HopMetadataProperty(
      key = "consumer_group",
      injectionKey = "CONSUMER_GROUP",
      injectionKeyDescription = "EventKafkaInputMeta.Injection.CONSUMER_GROUP")
  private String consumerGroup;

  /** earliest or latest. */
  @HopMetadataProperty(
      key = "start_position",
      injectionKey = "START_POSITION",
      injectionKeyDescription = "EventKafkaInputMeta.Injection.START_POSITION")
  private String startPosition;

  @HopMetadataProperty(
      key = "stop_when_caught_up",
      injectionKey = "STOP_WHEN_CAUGHT_UP",
      injectionKeyDescription = "EventKafkaInputMeta.Injection.STOP_WHEN_CAUGHT_UP")
  private boolean stopWhenCaughtUp;

  /** How long to wait for a broker to answer at the start before the run fails. */
  @HopMetadataProperty(
      key = "connection_timeout",
      injectionKey = "CONNECTION_TIMEOUT",
      injectionKeyDescription = "EventKafkaInputMeta.Injection.CONNECTION_TIMEOUT")
  private String connectionTimeout;

  /** json or raw. */
  @HopMetadataProperty(
      key = "value_format",
      injectionKey = "VALUE_FORMAT",
      injectionKeyDescription = "EventKafkaInputMeta.Injection.VALUE_FORMAT")
  private String valueFormat;

  @HopMetadataProperty(
      groupKey = "fields",
      key = "field",
      injectionGroupKey = "FIELDS",
      injectionGroupDescription = "EventKafkaInputMeta.Injection.FIELDS")
  private List<KafkaField> fields;

  /** The zone of date-time text written without one. */
  @HopMetadataProperty(
      key = "time_zone",
      injectionKey = "TIME_ZONE",
      injectionKeyDescription = "EventKafkaInputMeta.Injection.TIME_ZONE")
  private String timeZone;

  /** The field of the raw value (format raw). */
  @HopMetadataProperty(
      key = "value_field",
      injectionKey = "VALUE_FIELD",
      injectionKeyDescription = "EventKafkaInputMeta.Injection.VALUE_FIELD")
  private String valueField;

  @HopMetadataProperty(
      key = "partition_field",
      injectionKey = "PARTITION_FIELD",
      injectionKeyDescription = "EventKafkaInputMeta.Injection.PARTITION_FIELD")
  private String partitionField;

  @HopMetadataProperty(
      key = "offset_field",
      injectionKey = "OFFSET_FIELD",
      injectionKeyDescription = "EventKafkaInputMeta.Injection.OFFSET_FIELD")
  private String offsetField;

  @HopMetadataProperty(
      key = "timestamp_field",
      injectionKey = "TIMESTAMP_FIELD",
      injectionKeyDescription = "EventKafkaInputMeta.Injection.TIMESTAMP_FIELD")
  private String timestampField;

  @HopMetadataProperty(
      key = "key_field",
      injectionKey = "KEY_FIELD",
      injectionKeyDescription = "EventKafkaInputMeta.Injection.KEY_FIELD")
  private String keyField;

  public EventKafkaInputMeta() {
    fields = new ArrayList<>();
  }

  @Override
  public void setDefault() {
    bootstrapServers = "localhost:9092";
    topic = null;
    consumerGroup = null;
    startPosition = "earliest";
    stopWhenCaughtUp = false;
    connectionTimeout = "30 SECONDS";
    valueFormat = "json";
    fields = new ArrayList<>();
    timeZone = "UTC";
    valueField = "value";
    partitionField = "_partition";
    offsetField = "_offset";
    timestampField = "_kafka_timestamp";
    keyField = "_key";
  }

  @Override
  public EventKafkaInputMeta clone() {
    EventKafkaInputMeta copy = (EventKafkaInputMeta) super.clone();
    copy.fields = new ArrayList<>();
    fields.forEach(f -> copy.fields.add(new KafkaField(f)));
    return copy;
  }

  /** The settings resolved against variables, or null with the problems. */
  public KafkaInputSettings resolve(IVariables variables, List<String> problems) {
    return KafkaInputSettings.resolve(this, variables, problems);
  }

  @Override
  public StateSource stateSource(IVariables variables) {
    String servers = Settings.resolve(variables, bootstrapServers);
    String name = Settings.resolve(variables, topic);
    return servers == null || name == null ? null : StateSource.of("kafka", "servers", servers, "topic", name);
  }

  /**
   * The Event Time Windows downstream with a state folder share it with this transform, which
   * starts each partition at the offset the state holds: there must be at most one, and it must
   * take each row's partition and offset from this transform's partition and offset fields.
   */
  void checkSharedState(PipelineMeta pipelineMeta, TransformMeta transformMeta, IVariables variables,
      List<String> problems) {
    List<TransformMeta> windows = PipelineGraph.downstream(pipelineMeta, transformMeta).stream()
        .filter(t -> t.getTransform() instanceof EventTimeWindowMeta w && Settings.resolve(variables, w.getStateFolder())
            != null).toList();
    if (windows.size() > 1) {
      problems.add(BaseMessages.getString(PKG, "EventKafkaInputMeta.Problem.TwoStates",
          String.join(", ", windows.stream().map(TransformMeta::getName).toList())));
      return;
    }
    if (windows.isEmpty()) {
      return;
    }
    EventTimeWindowMeta w = (EventTimeWindowMeta) windows.get(0).getTransform();
    String name = windows.get(0).getName();
    String partition = Settings.resolve(variables, partitionField);
    String offset = Settings.resolve(variables, offsetField);
    String windowPartition = Settings.resolve(variables, w.getPartitionField());
    String windowOffset = Settings.resolve(variables, w.getOffsetField());
    if (partition == null || offset == null) {
      problems.add(BaseMessages.getString(PKG, "EventKafkaInputMeta.Problem.StateNeedsFields", name));
    } else if (!partition.equals(windowPartition) || !offset.equals(windowOffset)) {
      problems.add(BaseMessages.getString(PKG, "EventKafkaInputMeta.Problem.StateFields", name, partition, offset,
          windowPartition == null ? "(none)" : windowPartition, windowOffset == null ? "(none)" : windowOffset));
    }
  }

  @Override
  public void getFields(IRowMeta rowMeta, String origin, IRowMeta[] info, TransformMeta nextTransform,
      IVariables variables, IHopMetadataProvider metadataProvider) throws HopTransformException {
    IRowMeta layout = KafkaInputSettings.layout(this, variables);
    layout.getValueMetaList().forEach(v -> v.setOrigin(origin));
    rowMeta.clear();
    rowMeta.addRowMeta(layout);
  }

  @Override
  public void check(List<ICheckResult> remarks, PipelineMeta pipelineMeta, TransformMeta transformMeta,
      IRowMeta prev, String[] input, String[] output, IRowMeta info, IVariables variables,
      IHopMetadataProvider metadataProvider) {
    List<String> problems = Settings.problems();
    if (input.length > 0) {
      problems.add(BaseMessages.getString(PKG, "EventKafkaInputMeta.Problem.Input"));
    }
    resolve(variables, problems);
    Settings.requireOneCopy(transformMeta, variables, copies(), problems);
    checkSharedState(pipelineMeta, transformMeta, variables, problems);
    Settings.report(remarks, transformMeta, problems, BaseMessages.getString(PKG, "EventKafkaInput.CheckResult.OK"));
  }

  @Override
  public boolean supportsErrorHandling() {
    return true;
  }

  /** One copy reads every partition in offset order; more copies would read the topic again. */
  @Override
  public boolean supportsMultiCopyExecution() {
    return false;
  }

  public String getBootstrapServers() {
    return bootstrapServers;
  }

  public void setBootstrapServers(String bootstrapServers) {
    this.bootstrapServers = bootstrapServers;
  }

  public String getTopic() {
    return topic;
  }

  public void setTopic(String topic) {
    this.topic = topic;
  }

  public String getConsumerGroup() {
    return consumerGroup;
  }

  public void setConsumerGroup(String consumerGroup) {
    this.consumerGroup = consumerGroup;
  }

  public String getStartPosition() {
    return startPosition;
  }

  public void setStartPosition(String startPosition) {
    this.startPosition = startPosition;
  }

  public boolean isStopWhenCaughtUp() {
    return stopWhenCaughtUp;
  }

  public void setStopWhenCaughtUp(boolean stopWhenCaughtUp) {
    this.stopWhenCaughtUp = stopWhenCaughtUp;
  }

  public String getConnectionTimeout() {
    return connectionTimeout;
  }

  public void setConnectionTimeout(String connectionTimeout) {
    this.connectionTimeout = connectionTimeout;
  }

  public String getValueFormat() {
    return valueFormat;
  }

  public void setValueFormat(String valueFormat) {
    this.valueFormat = valueFormat;
  }

  public List<KafkaField> getFields() {
    return fields;
  }

  public void setFields(List<KafkaField> fields) {
    this.fields = fields;
  }

  public String getTimeZone() {
    return timeZone;
  }

  public void setTimeZone(String timeZone) {
    this.timeZone = timeZone;
  }

  public String getValueField() {
    return valueField;
  }

  public void setValueField(String valueField) {
    this.valueField = valueField;
  }

  public String getPartitionField() {
    return partitionField;
  }

  public void setPartitionField(String partitionField) {
    this.partitionField = partitionField;
  }

  public String getOffsetField() {
    return offsetField;
  }

  public void setOffsetField(String offsetField) {
    this.offsetField = offsetField;
  }

  public String getTimestampField() {
    return timestampField;
  }

  public void setTimestampField(String timestampField) {
    this.timestampField = timestampField;
  }

  public String getKeyField() {
    return keyField;
  }

  public void setKeyField(String keyField) {
    this.keyField = keyField;
  }
}
