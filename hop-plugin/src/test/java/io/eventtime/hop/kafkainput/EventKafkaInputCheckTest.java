package io.eventtime.hop.kafkainput;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.hop.HopTestEnvironment;
import io.eventtime.hop.PipelineBuilder;
import java.util.ArrayList;
import java.util.List;
import org.apache.hop.core.ICheckResult;
import org.apache.hop.core.variables.Variables;
import org.apache.hop.pipeline.PipelineMeta;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The designer's check refuses every bad setting of Event Kafka Input, each with how to fix it. */
class EventKafkaInputCheckTest {
  @BeforeAll
  static void hop() {
    HopTestEnvironment.init();
  }

  private static EventKafkaInputMeta valid() {
    EventKafkaInputMeta m = new EventKafkaInputMeta();
    m.setDefault();
    m.setTopic("events");
    m.setFields(new ArrayList<>(List.of(new KafkaField("user", "String", null),
        new KafkaField("event_time", "Timestamp", null))));
    return m;
  }

  private static List<String> errors(EventKafkaInputMeta m, String... input) {
    PipelineMeta pipeline = new PipelineBuilder("check").transform("read", m).build();
    List<ICheckResult> remarks = new ArrayList<>();
    m.check(remarks, pipeline, pipeline.findTransform("read"), null, input, new String[0], null, new Variables(), null);
    return remarks.stream().filter(r -> r.getType() == ICheckResult.TYPE_RESULT_ERROR).map(ICheckResult::getText).toList();
  }

  @Test
  void validSettingsPass() {
    assertThat(errors(valid())).isEmpty();
    EventKafkaInputMeta raw = valid();
    raw.setValueFormat("raw");
    raw.setFields(new ArrayList<>());
    assertThat(errors(raw)).isEmpty();
  }

  @Test
  void everyBadSettingIsReportedWithHowToFixIt() {
    EventKafkaInputMeta m = valid();
    m.setBootstrapServers("localhost, broker:nine");
    m.setTopic("no spaces");
    m.setStartPosition("middle");
    m.setConnectionTimeout("0 SECONDS");
    m.setTimeZone("Mars/Olympus");
    m.setFields(new ArrayList<>(List.of(new KafkaField("user", "Text", null), new KafkaField(null, "String", null),
        new KafkaField("_offset", "Integer", null))));
    assertThat(errors(m, "somewhere")).containsExactlyInAnyOrder(
        "Input: this transform reads a Kafka topic and takes no rows: remove the hops into it",
        "Bootstrap servers: 'localhost' is not host:port: give each broker as host:port, separated by commas",
        "Bootstrap servers: 'broker:nine' is not host:port: give each broker as host:port, separated by commas",
        "Topic: 'no spaces' is not a Kafka topic name: use letters, digits, ., _ and - (at most 249)",
        "Start position: 'middle' is unknown: choose earliest or latest",
        "Connection timeout: must be positive, got '0 SECONDS': give a duration greater than zero, e.g. 10 MINUTE",
        "Time zone: 'Mars/Olympus' is not a time zone: give a zone id such as UTC or Europe/Paris",
        "Field 1 'user': the type 'Text' is not one this transform reads: choose one of String, Integer, Number,"
            + " BigNumber, Boolean, Timestamp, Date",
        "Field 2: no name: give the JSON key or CSV column to read",
        "Output fields: the output name '_offset' is used twice: give each output column its own name");
  }

  @Test
  void missingSettings() {
    EventKafkaInputMeta m = valid();
    m.setBootstrapServers(" ");
    m.setTopic(null);
    m.setFields(new ArrayList<>());
    m.setValueFormat("avro");
    assertThat(errors(m)).containsExactlyInAnyOrder(
        "Bootstrap servers: none: give the brokers as host:port, e.g. localhost:9092",
        "Topic: none: name the topic to read",
        "Value format: 'avro' is unknown: choose json or raw",
        "Fields: none: list the JSON fields to read (the Get fields button reads them from the topic), or choose the"
            + " raw value format");

    EventKafkaInputMeta raw = valid();
    raw.setValueFormat("raw");
    raw.setValueField(null);
    raw.setKeyField("value");
    raw.setTopic("${TOPIC}");
    assertThat(errors(raw)).containsExactlyInAnyOrder(
        "Topic: the variable ${TOPIC} is not defined: give it a value (a pipeline parameter, a variable of the run"
            + " configuration or of the environment), or write the setting without it",
        "Fields: the raw value format reads no JSON field: clear the fields, or choose json",
        "Value field: none: name the String field of the raw value, e.g. value",
        "Output fields: the output name 'value' is used twice: give each output column its own name");
  }

  @Test
  void twoCopiesAreRefused() {
    EventKafkaInputMeta m = valid();
    PipelineMeta pipeline = new PipelineBuilder("check").transform("read", m).build();
    pipeline.findTransform("read").setCopiesString("2");
    List<ICheckResult> remarks = new ArrayList<>();
    m.check(remarks, pipeline, pipeline.findTransform("read"), null, new String[0], new String[0], null,
        new Variables(), null);
    assertThat(remarks.stream().filter(r -> r.getType() == ICheckResult.TYPE_RESULT_ERROR).map(ICheckResult::getText))
        .containsExactly("Copies: it runs in 2 copies, and each copy would read every partition again, its rows mixed"
            + " with the other copies': set the number of copies to 1");
  }

  /** The Event Time Window downstream with a state folder must take the partition and offset from this transform. */
  @Test
  void aStatefulWindowDownstreamMustTakeThisTransformsPartitionAndOffsetFields() {
    EventKafkaInputMeta m = valid();
    io.eventtime.hop.window.EventTimeWindowMeta w = new io.eventtime.hop.window.EventTimeWindowMeta();
    w.setDefault();
    w.setStateFolder("/tmp/state");
    w.setPartitionField("_partition");
    w.setOffsetField("offset");
    assertThat(errorsWith(m, w)).containsExactly("State: Event Time Window 'window' downstream has a state folder,"
        + " and takes each row's partition and offset from '_partition' and 'offset', while this transform writes them"
        + " to '_partition' and '_offset': set the window's partition field to '_partition' and its offset field to"
        + " '_offset'");
    w.setOffsetField("_offset");
    assertThat(errorsWith(m, w)).isEmpty();
    m.setOffsetField(null);
    assertThat(errorsWith(m, w)).containsExactly("State: Event Time Window 'window' downstream has a state folder,"
        + " which records where each partition goes on: name this transform's partition field and offset field (e.g."
        + " _partition and _offset) and set them as the window's partition field and offset field");
  }

  private static List<String> errorsWith(EventKafkaInputMeta m, io.eventtime.hop.window.EventTimeWindowMeta w) {
    PipelineMeta pipeline = new PipelineBuilder("check").transform("read", m).dummy("between").transform("window", w)
        .hop("read", "between").hop("between", "window").build();
    List<ICheckResult> remarks = new ArrayList<>();
    m.check(remarks, pipeline, pipeline.findTransform("read"), null, new String[0], new String[0], null,
        new Variables(), null);
    return remarks.stream().filter(r -> r.getType() == ICheckResult.TYPE_RESULT_ERROR).map(ICheckResult::getText).toList();
  }
}
