package io.eventtime.hop;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.hop.fileinput.EventFileInputMeta;
import io.eventtime.hop.kafkainput.EventKafkaInputMeta;
import io.eventtime.hop.kafkainput.KafkaField;
import io.eventtime.hop.fileinput.InputField;
import io.eventtime.hop.fileinput.InputFile;
import io.eventtime.hop.fileoutput.EventFileOutputMeta;
import io.eventtime.hop.fileoutput.OutputField;
import io.eventtime.hop.stamp.EventTimeStampMeta;
import io.eventtime.hop.window.EventTimeWindowMeta;
import io.eventtime.hop.window.GroupField;
import io.eventtime.hop.window.WindowAggregate;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.hop.core.variables.Variables;
import org.apache.hop.metadata.serializer.memory.MemoryMetadataProvider;
import org.apache.hop.pipeline.PipelineMeta;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Every setting of the four transforms survives the .hpl XML, the late target included. */
class SettingsRoundTripTest {

  @BeforeAll
  static void hop() {
    HopTestEnvironment.init();
  }

  @Test
  void allSettingsRoundTripThroughThePipelineXml() throws Exception {
    EventFileInputMeta in = new EventFileInputMeta();
    in.setDefault();
    in.setFiles(List.of(new InputFile("${DATA}/a.csv", null), new InputFile("${DATA}", ".*\\.csv")));
    in.setFormat("csv");
    in.setCsvDelimiter(";");
    in.setCsvHeader(false);
    in.setFields(List.of(new InputField("user", "String", null), new InputField("ts", "Timestamp", "dd/MM/yyyy HH:mm")));
    in.setTimeZone("Europe/Paris");
    in.setFilenameField("file");
    in.setLineNumberField("line");

    EventTimeStampMeta stamp = new EventTimeStampMeta();
    stamp.setDefault();
    stamp.setTimeField("ts");
    stamp.setTimeFormat("dd/MM/yyyy HH:mm");
    stamp.setEpochUnit("seconds");
    stamp.setTimeZone("Europe/Paris");
    stamp.setOutputField("event_time");

    EventTimeWindowMeta w = new EventTimeWindowMeta();
    w.setDefault();
    w.setTimeField("event_time");
    w.setTimeFormat("yyyy-MM-dd HH:mm:ss");
    w.setEpochUnit("seconds");
    w.setTimeZone("Europe/Paris");
    w.setWindowKind("hopping");
    w.setWindowSize("${SIZE}");
    w.setWindowSlide("30 SECONDS");
    w.setSessionGap("7 MINUTES");
    w.setWindowOffset("5 SECONDS");
    w.setGroupFields(List.of(new GroupField("user"), new GroupField("file")));
    w.setAggregates(List.of(new WindowAggregate(null, "count", "n"), new WindowAggregate("line", "count distinct", "lines"),
        new WindowAggregate("line", "max", "last_line")));
    w.setWindowStartField("from");
    w.setWindowEndField("to");
    w.setWatermarkDelay("2 MINUTES");
    w.setLatePolicy("event");
    w.setLateReasonField("why");
    w.setIdleTimeout("30 SECONDS");
    w.setLateTargetTransform("late");
    w.setStateFolder("${STATE}/window");

    EventFileOutputMeta out = new EventFileOutputMeta();
    out.setDefault();
    out.setFilename("${OUT}/windows.csv");
    out.setFormat("csv");
    out.setCsvDelimiter("\\t");
    out.setCsvHeader(false);
    out.setAppend(true);
    out.setCreateParentFolder(false);
    out.setFields(List.of(new OutputField("user"), new OutputField("n")));

    PipelineMeta p = new PipelineBuilder("round-trip").transform("in", in).transform("stamp", stamp)
        .transform("window", w).transform("out", out).dummy("late")
        .hop("in", "stamp").hop("stamp", "window").hop("window", "out").hop("window", "late").build();
    String xml = p.getXml(new Variables());

    PipelineMeta loaded = new PipelineMeta(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)),
        new MemoryMetadataProvider(), new Variables());
    for (String name : List.of("in", "stamp", "window", "out")) {
      assertThat(loaded.findTransform(name).getXml()).isEqualTo(p.findTransform(name).getXml());
    }

    EventFileInputMeta in2 = (EventFileInputMeta) loaded.findTransform("in").getTransform();
    assertThat(in2.getFiles()).extracting(InputFile::getName, InputFile::getMask)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("${DATA}/a.csv", null),
            org.assertj.core.groups.Tuple.tuple("${DATA}", ".*\\.csv"));
    assertThat(in2.getFields()).extracting(InputField::getName, InputField::getType, InputField::getFormat)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("user", "String", null),
            org.assertj.core.groups.Tuple.tuple("ts", "Timestamp", "dd/MM/yyyy HH:mm"));
    assertThat(List.of(in2.getFormat(), in2.getCsvDelimiter(), in2.getTimeZone(), in2.getFilenameField(),
        in2.getLineNumberField())).containsExactly("csv", ";", "Europe/Paris", "file", "line");
    assertThat(in2.isCsvHeader()).isFalse();

    EventTimeStampMeta stamp2 = (EventTimeStampMeta) loaded.findTransform("stamp").getTransform();
    assertThat(List.of(stamp2.getTimeField(), stamp2.getTimeFormat(), stamp2.getEpochUnit(), stamp2.getTimeZone(),
        stamp2.getOutputField())).containsExactly("ts", "dd/MM/yyyy HH:mm", "seconds", "Europe/Paris", "event_time");

    EventTimeWindowMeta w2 = (EventTimeWindowMeta) loaded.findTransform("window").getTransform();
    assertThat(List.of(w2.getTimeField(), w2.getTimeFormat(), w2.getEpochUnit(), w2.getTimeZone(), w2.getWindowKind(),
        w2.getWindowSize(), w2.getWindowSlide(), w2.getSessionGap(), w2.getWindowOffset(), w2.getWindowStartField(),
        w2.getWindowEndField(), w2.getWatermarkDelay(), w2.getLatePolicy(), w2.getLateReasonField(),
        w2.getIdleTimeout(), w2.getLateTargetTransform(), w2.getStateFolder())).containsExactly("event_time", "yyyy-MM-dd HH:mm:ss",
        "seconds", "Europe/Paris", "hopping", "${SIZE}", "30 SECONDS", "7 MINUTES", "5 SECONDS", "from", "to",
        "2 MINUTES", "event", "why", "30 SECONDS", "late", "${STATE}/window");
    assertThat(w2.getGroupFields()).extracting(GroupField::getName).containsExactly("user", "file");
    assertThat(w2.getAggregates()).extracting(WindowAggregate::getField, WindowAggregate::getAggregate,
        WindowAggregate::getOutputName).containsExactly(org.assertj.core.groups.Tuple.tuple(null, "count", "n"),
        org.assertj.core.groups.Tuple.tuple("line", "count distinct", "lines"),
        org.assertj.core.groups.Tuple.tuple("line", "max", "last_line"));
    // the late target is resolved to the transform itself, as Hop's runtime needs it
    assertThat(w2.getTransformIOMeta().getTargetStreams().get(0).getTransformMeta())
        .isSameAs(loaded.findTransform("late"));

    EventFileOutputMeta out2 = (EventFileOutputMeta) loaded.findTransform("out").getTransform();
    assertThat(List.of(out2.getFilename(), out2.getFormat(), out2.getCsvDelimiter()))
        .containsExactly("${OUT}/windows.csv", "csv", "\\t");
    assertThat(List.of(out2.isCsvHeader(), out2.isAppend(), out2.isCreateParentFolder())).containsExactly(false, true, false);
    assertThat(out2.getFields()).extracting(OutputField::getName).containsExactly("user", "n");
  }

  @Test
  void aCloneIsDeep() {
    EventTimeWindowMeta w = new EventTimeWindowMeta();
    w.setDefault();
    w.setGroupFields(new java.util.ArrayList<>(List.of(new GroupField("user"))));
    EventTimeWindowMeta copy = w.clone();
    copy.getGroupFields().get(0).setName("other");
    copy.getAggregates().get(0).setOutputName("other");
    assertThat(w.getGroupFields().get(0).getName()).isEqualTo("user");
    assertThat(w.getAggregates().get(0).getOutputName()).isEqualTo("events");
  }

  @Test
  void eventKafkaInputAndTheWindowsPartitionSettingsRoundTripThroughThePipelineXml() throws Exception {
    EventKafkaInputMeta in = new EventKafkaInputMeta();
    in.setDefault();
    in.setBootstrapServers("${KAFKA}");
    in.setTopic("events");
    in.setConsumerGroup("hop");
    in.setStartPosition("latest");
    in.setStopWhenCaughtUp(true);
    in.setConnectionTimeout("5 SECONDS");
    in.setFields(new java.util.ArrayList<>(List.of(new KafkaField("user", "String", null),
        new KafkaField("ts", "Timestamp", "dd/MM/yyyy HH:mm"))));
    in.setTimeZone("Europe/Paris");
    in.setKeyField(null);
    EventTimeWindowMeta w = new EventTimeWindowMeta();
    w.setDefault();
    w.setPartitionField("_partition");
    w.setPartitions("3");
    w.setOffsetField("_offset");
    PipelineMeta p = new PipelineBuilder("kafka").transform("in", in).transform("window", w).hop("in", "window").build();
    PipelineMeta loaded = new PipelineMeta(new ByteArrayInputStream(p.getXml(new Variables()).getBytes(StandardCharsets.UTF_8)),
        new MemoryMetadataProvider(), new Variables());

    EventKafkaInputMeta in2 = (EventKafkaInputMeta) loaded.findTransform("in").getTransform();
    assertThat(java.util.Arrays.asList(in2.getBootstrapServers(), in2.getTopic(), in2.getConsumerGroup(),
        in2.getStartPosition(), in2.getConnectionTimeout(), in2.getValueFormat(), in2.getTimeZone(), in2.getValueField(),
        in2.getPartitionField(), in2.getOffsetField(), in2.getTimestampField(), in2.getKeyField()))
        .containsExactly("${KAFKA}", "events", "hop", "latest", "5 SECONDS", "json", "Europe/Paris", "value",
            "_partition", "_offset", "_kafka_timestamp", null);
    assertThat(in2.isStopWhenCaughtUp()).isTrue();
    assertThat(in2.getFields()).extracting(KafkaField::getName, KafkaField::getType, KafkaField::getFormat)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("user", "String", null),
            org.assertj.core.groups.Tuple.tuple("ts", "Timestamp", "dd/MM/yyyy HH:mm"));
    EventTimeWindowMeta w2 = (EventTimeWindowMeta) loaded.findTransform("window").getTransform();
    assertThat(List.of(w2.getPartitionField(), w2.getPartitions(), w2.getOffsetField()))
        .containsExactly("_partition", "3", "_offset");
  }
}
