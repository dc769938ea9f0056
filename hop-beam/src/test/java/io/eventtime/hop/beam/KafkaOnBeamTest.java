package io.eventtime.hop.beam;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.hop.beam.engine.BeamDirectRunConfiguration;
import io.eventtime.hop.window.EventTimeWindowMeta;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import org.apache.beam.runners.direct.DirectOptions;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.hop.core.encryption.Encr;
import org.apache.hop.core.logging.HopLogStore;
import org.apache.hop.core.variables.Variables;
import org.apache.hop.metadata.serializer.json.JsonMetadataProvider;
import org.apache.hop.metadata.serializer.memory.MemoryMetadataProvider;
import org.apache.hop.pipeline.PipelineMeta;
import org.apache.hop.pipeline.config.PipelineRunConfiguration;
import org.apache.hop.pipeline.engine.IPipelineEngine;
import org.apache.hop.pipeline.engine.PipelineEngineFactory;

/**
 * Event Kafka Input on Beam's Direct runner: the live pipeline of the suite writes the local
 * engine's rows; the Direct engine runs it from Hop until it is stopped; the window settings the
 * live path cannot give the local engine's meaning are refused before the run.
 */
class KafkaOnBeamTest extends LiveKafkaEquivalenceSuite {
  @Override
  protected PipelineOptions liveOptions() {
    DirectOptions options = PipelineOptionsFactory.fromArgs("--runner=DirectRunner").as(DirectOptions.class);
    options.setBlockOnRun(false);
    return options;
  }

  /**
   * From Hop (HopGui's Run, HopRun) with a Beam Direct (eventtime) run configuration: the live run
   * goes on until the pipeline is stopped, writes the window rows meanwhile, and a stop ends it
   * without an error.
   */
  @org.junit.jupiter.api.Test
  void theDirectEngineRunsTheLivePipelineUntilItIsStopped() throws Exception {
    String topic = "hop-beam-engine";
    broker.createTopic(topic, 1);
    broker.produce(topic, 0, event("ann", 1, String.valueOf(START + 1_000)), event("bob", 2, String.valueOf(START + 2_000)),
        event("ann", 3, String.valueOf(START + 16_000)));
    JsonMetadataProvider metadata = new JsonMetadataProvider(Encr.getEncoder(), dir.resolve("metadata").toString(),
        new Variables());
    metadata.getSerializer(PipelineRunConfiguration.class).save(new PipelineRunConfiguration("direct", "", null,
        List.of(), new BeamDirectRunConfiguration(), null, false));
    IPipelineEngine<PipelineMeta> engine = PipelineEngineFactory.createPipelineEngine(new Variables(), "direct",
        metadata, pipeline(topic, 1, false, dir.resolve("out")));
    engine.execute();
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (System.nanoTime() < deadline && !allThere(dir.resolve("out"), Map.of("windows.ndjson", 2))) {
      assertThat(engine.isFinished()).as("the live run goes on").isFalse();
      Thread.sleep(200);
    }
    engine.stopAll();
    engine.waitUntilFinished();

    assertThat(engine.getErrors()).isZero();
    // both windows leave at one watermark step, in the order the runner hands them on
    assertThat(Files.readAllLines(dir.resolve("out/windows.ndjson"))).containsExactlyInAnyOrder(
        "{\"user\":\"ann\",\"window_start\":\"2026-07-18 10:00:00\",\"window_end\":\"2026-07-18 10:00:10\",\"events\":1,"
            + "\"total\":1}",
        "{\"user\":\"bob\",\"window_start\":\"2026-07-18 10:00:00\",\"window_end\":\"2026-07-18 10:00:10\",\"events\":1,"
            + "\"total\":2}");
    assertThat(engine.findComponent("Read", 0).getLinesInput()).isEqualTo(3L);
    assertThat(HopLogStore.getAppender().getBuffer(engine.getLogChannelId(), false).toString())
        .contains("Execution stopped on Beam's direct runner with run configuration 'direct'");
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
    window.setIdleTimeout("30 SECONDS");
    assertThat(problems(meta)).containsExactly(
        "Transform 'Window': Idle timeout: on a live stream the Beam engines do not move a quiet partition's watermark"
            + " by the local engine's rule yet: clear the idle timeout, or run this pipeline on the local engine",
        "Transform 'Window': it reads the 3 partitions of the topic of 'Read' as one stream, whose order Beam does not"
            + " keep across partitions: set its partition field to '_partition' and Partitions to 3 (each partition then"
            + " has its own watermark), or run this pipeline on the local engine");
  }

  private static List<String> problems(PipelineMeta meta) {
    TranslationException e = (TranslationException) org.assertj.core.api.Assertions.catchThrowable(() ->
        HopBeamRun.prepare(meta, PipelineVariables.of(meta, Map.of()), new MemoryMetadataProvider(),
            PipelineOptionsFactory.fromArgs("--runner=DirectRunner").create()));
    assertThat(e).as("refused").isNotNull();
    return e.problems();
  }
}
