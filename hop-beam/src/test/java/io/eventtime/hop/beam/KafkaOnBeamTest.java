package io.eventtime.hop.beam;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.hop.PipelineBuilder;
import io.eventtime.hop.beam.engine.BeamDirectRunConfiguration;
import io.eventtime.hop.beam.engine.BeamRunConfiguration;
import io.eventtime.hop.kafkainput.EventKafkaInputMeta;
import io.eventtime.hop.stamp.EventTimeStampMeta;
import io.eventtime.hop.window.EventTimeWindowMeta;
import java.util.List;
import java.util.Map;
import org.apache.beam.runners.direct.DirectOptions;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.hop.metadata.serializer.memory.MemoryMetadataProvider;
import org.apache.hop.pipeline.PipelineMeta;

/**
 * Event Kafka Input on Beam's Direct runner: the suite (the live pipeline writes the local
 * engine's rows; the Direct engine runs it from Hop until it is stopped), and the window settings
 * the live path cannot give the local engine's meaning, refused before the run.
 */
class KafkaOnBeamTest extends LiveKafkaEquivalenceSuite {
  @Override
  protected BeamRunConfiguration runConfiguration() {
    return new BeamDirectRunConfiguration();
  }

  @Override
  protected PipelineOptions liveOptions() {
    DirectOptions options = PipelineOptionsFactory.fromArgs("--runner=DirectRunner").as(DirectOptions.class);
    options.setBlockOnRun(false);
    return options;
  }

  @org.junit.jupiter.api.Test
  void aWindowSettingTheLiveRunCannotGiveTheLocalEnginesMeaningIsRefusedBeforeTheRun() throws Exception {
    broker.createTopic("hop-beam-refused", 3);
    PipelineMeta meta = pipeline("hop-beam-refused", 3, false, dir);
    EventTimeWindowMeta window = (EventTimeWindowMeta) meta.findTransform("Window").getTransform();
    window.setStateFolder(dir.resolve("state").toString());
    window.setOffsetField("_offset");
    window.setPartitions("2");
    assertThat(problems(meta)).containsExactly(
        "Transform 'Window': State folder: on a live stream (Event Kafka Input) the Beam engines do not keep the"
            + " window's state yet (a streaming run ends by being cancelled, which hands nothing on): clear the state"
            + " folder, or run this pipeline on the local engine, which keeps it",
        "Transform 'Window': Partitions: 2, but the topic of 'Read' has 3 partitions: set Partitions to 3");

    window.setStateFolder(null);
    window.setOffsetField(null);
    window.setPartitionField(null);
    window.setPartitions(null);
    assertThat(problems(meta)).containsExactly(
        "Transform 'Window': it reads the 3 partitions of the topic of 'Read' as one stream, whose order Beam does not"
            + " keep across partitions: set its partition field to '_partition' and Partitions to 3 (each partition then"
            + " has its own watermark), or run this pipeline on the local engine");
  }

  @org.junit.jupiter.api.Test
  void anEventTimeStampOnTheLiveStreamIsRefusedBeforeTheRun() throws Exception {
    broker.createTopic("hop-beam-stamp", 1);
    EventKafkaInputMeta read = (EventKafkaInputMeta) pipeline("hop-beam-stamp", 1, false, dir)
        .findTransform("Read").getTransform();
    EventTimeStampMeta stamp = new EventTimeStampMeta();
    stamp.setDefault();
    stamp.setTimeField("event_time");
    PipelineMeta meta = new PipelineBuilder("stamp").transform("Read", read).transform("Stamp", stamp).dummy("Out")
        .hop("Read", "Stamp").hop("Stamp", "Out").build();
    assertThat(problems(meta)).containsExactly("Transform 'Stamp': on a live stream (Event Kafka Input) the Beam"
        + " engines cannot stamp rows with their event times: an Event Time Window reads the time field itself: remove"
        + " this transform (or convert the field with Select values), or run this pipeline on the local engine");
  }

  private static List<String> problems(PipelineMeta meta) {
    TranslationException e = (TranslationException) org.assertj.core.api.Assertions.catchThrowable(() ->
        HopBeamRun.prepare(meta, PipelineVariables.of(meta, Map.of()), new MemoryMetadataProvider(),
            PipelineOptionsFactory.fromArgs("--runner=DirectRunner").create()));
    assertThat(e).as("refused").isNotNull();
    return e.problems();
  }
}
