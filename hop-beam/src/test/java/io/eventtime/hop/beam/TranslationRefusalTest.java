package io.eventtime.hop.beam;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.eventtime.hop.beam.testplugin.SortRowsStandInMeta;
import io.eventtime.hop.fileinput.EventFileInputMeta;
import io.eventtime.hop.kafkainput.EventKafkaInputMeta;
import io.eventtime.hop.kafkainput.KafkaField;
import io.eventtime.hop.window.EventTimeWindowMeta;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.beam.runners.spark.FakeSparkRunner;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.hop.core.exception.HopException;
import org.apache.hop.metadata.serializer.memory.MemoryMetadataProvider;
import org.apache.hop.pipeline.PipelineMeta;
import org.apache.hop.pipeline.transforms.dummy.DummyMeta;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pipelines that cannot run on Beam are refused when they are translated, before anything runs,
 * each problem naming the transform and what to do.
 */
class TranslationRefusalTest {
  @TempDir
  Path dir;
  private Path events;

  @BeforeAll
  static void hop() {
    HopBeamTesting.initHop();
  }

  @BeforeEach
  void data() throws IOException {
    events = dir.resolve("events.ndjson");
    Files.writeString(events, "{\"merchant\":\"acme\",\"amount\":250,\"event_time\":\"2026-07-18 10:00:03\"}\n");
  }

  private static List<String> problems(PipelineMeta meta) {
    TranslationException e = (TranslationException) org.assertj.core.api.Assertions.catchThrowable(() ->
        HopPipelineTranslator.translate(meta, PipelineVariables.of(meta, Map.of()), new MemoryMetadataProvider(),
            Pipeline.create(BeamRunner.DIRECT.options(null, null, List.of()))));
    assertThat(e).as("refused").isNotNull();
    return e.problems();
  }

  /** Read events > Window > Write windows, on the test's file. */
  private TestPipelines windowPipeline(EventTimeWindowMeta window) {
    TestPipelines p = new TestPipelines("windows");
    p.add("Read events", TestPipelines.input(events, "merchant", "String", "amount", "Integer", "event_time", "Timestamp"));
    p.add("Window", window);
    p.add("Write windows", TestPipelines.output(dir.resolve("out.ndjson")));
    return p.hop("Read events", "Window").hop("Window", "Write windows");
  }

  @Test
  void aLoop() {
    TestPipelines p = new TestPipelines("loop");
    p.add("A", new DummyMeta());
    p.add("B", new DummyMeta());
    p.hop("A", "B").hop("B", "A");
    assertThat(problems(p.meta())).containsExactly("The hops make a loop through 'A', 'B': rows cannot go round in"
        + " circles on Beam (nor on the local engine): remove one of the hops of the loop");
  }

  @Test
  void aTransformWithoutItsInput() {
    TestPipelines p = new TestPipelines("no input");
    p.add("Read events", TestPipelines.input(events, "merchant", "String", "event_time", "Timestamp"));
    p.add("Write", TestPipelines.output(dir.resolve("out.ndjson")));
    p.add("Window", TestPipelines.window());
    p.hop("Read events", "Write");
    assertThat(problems(p.meta())).containsExactly("Transform 'Window': it has no input: draw a hop into it from the"
        + " transform that sends the rows to window, e.g. an Event File Input");
  }

  @Test
  void aTransformWhosePluginIsNotInstalled() throws Exception {
    Path hpl = sampleCopy("example-c-tumbling.hpl",
        "<type>EventTimeWindow</type>", "<type>NoSuchWindowPlugin</type>");
    assertThat(problems(HopPipelines.load(hpl.toString(), new MemoryMetadataProvider()))).containsExactly(
        "Transform 'Window': its plugin 'NoSuchWindowPlugin' is not installed: install the plugin that provides it"
            + " (put it in Hop's plugins folder, or on the class path of the Beam run), or remove the transform");
  }

  @Test
  void aHopFromATransformThatIsNotThere() throws Exception {
    Path hpl = sampleCopy("example-c-tumbling.hpl", "  </order>",
        "    <hop>\n      <from>Ghost</from>\n      <to>Window</to>\n      <enabled>Y</enabled>\n    </hop>\n  </order>");
    assertThat(problems(HopPipelines.load(hpl.toString(), new MemoryMetadataProvider()))).containsExactly(
        "The hop from 'Ghost' to 'Window' names a transform that is not in the pipeline: remove the hop, or add the"
            + " transform");
  }

  @Test
  void aTransformThatNeedsEveryRowAtOnce() {
    TestPipelines p = new TestPipelines("sort");
    p.add("Read events", TestPipelines.input(events, "merchant", "String", "event_time", "Timestamp"));
    p.add("Sort", new SortRowsStandInMeta());
    p.add("Write", TestPipelines.output(dir.resolve("out.ndjson")));
    p.hop("Read events", "Sort").hop("Sort", "Write");
    assertThat(problems(p.meta())).containsExactly("Transform 'Sort': its plugin 'SortRows' needs every row at once,"
        + " but on Beam each worker sees only its share of the rows: aggregate over time with Event Time Window, or"
        + " run this pipeline on the local engine");
  }

  @Test
  void aWindowWithAPartitionField() {
    EventTimeWindowMeta window = TestPipelines.window("merchant");
    window.setPartitionField("amount");
    window.setPartitions("3");
    assertThat(problems(windowPipeline(window).meta())).containsExactly("Transform 'Window': its partition field"
        + " 'amount' is for a live stream of several partitions (Event Kafka Input); on Beam its rows here are a bounded"
        + " replay, read as one partition: clear the partition field, or read the rows with Event Kafka Input");
  }

  /** Read topic (no broker at its address) > Write. */
  private TestPipelines kafkaPipeline(EventKafkaInputMeta kafka) {
    TestPipelines p = new TestPipelines("kafka");
    p.add("Read topic", kafka);
    p.add("Write", TestPipelines.output(dir.resolve("out.ndjson")));
    return p.hop("Read topic", "Write");
  }

  private static EventKafkaInputMeta kafka() {
    EventKafkaInputMeta kafka = new EventKafkaInputMeta();
    kafka.setDefault();
    kafka.setBootstrapServers("127.0.0.1:1");
    kafka.setTopic("events");
    kafka.setConnectionTimeout("1 SECONDS");
    kafka.setFields(new ArrayList<>(List.of(new KafkaField("user", "String", null))));
    return kafka;
  }

  @Test
  void anEventKafkaInputWhoseBrokerDoesNotAnswer() {
    assertThat(problems(kafkaPipeline(kafka()).meta())).containsExactly("Transform 'Read topic': Bootstrap servers:"
        + " no broker at 127.0.0.1:1 answered within 1 s (asking for topic events): check the servers, the network,"
        + " and that the brokers run; a longer connection timeout waits longer");
  }

  @Test
  void anEventKafkaInputOnSpark() {
    PipelineOptions spark = PipelineOptionsFactory.create();
    spark.setRunner(FakeSparkRunner.class);
    PipelineMeta meta = kafkaPipeline(kafka()).meta();
    TranslationException e = (TranslationException) org.assertj.core.api.Assertions.catchThrowable(() ->
        HopPipelineTranslator.translate(meta, PipelineVariables.of(meta, Map.of()), new MemoryMetadataProvider(),
            Pipeline.create(spark)));
    assertThat(e.problems()).containsExactly("Transform 'Read topic': it reads the topic live, as an unbounded input,"
        + " which the Beam Spark (eventtime) engine cannot run: EventTimeWindow on an unbounded input needs event-time"
        + " timers, which Beam's Spark runner does not run in streaming mode (Beam 2.62): run it on the Direct runner,"
        + " the Flink runner (--runner=FlinkRunner --streaming) or Dataflow, or give it a bounded input");
  }

  @Test
  void aFollowedFileInput() {
    TestPipelines p = windowPipeline(TestPipelines.window("merchant"));
    ((EventFileInputMeta) p.meta().findTransform("Read events").getTransform()).setFollow(true);
    assertThat(problems(p.meta())).containsExactly("Transform 'Read events': it follows its files (Follow the files),"
        + " and a followed input never ends, while on Beam it is read as a bounded input: the files as they are when"
        + " the run starts, to their end. Untick Follow the files to read the files once on Beam, or run the pipeline"
        + " on the local engine to follow them");
  }

  @Test
  void rowsDealtOutInTurn() {
    TestPipelines p = windowPipeline(TestPipelines.window("merchant"));
    p.add("Write again", TestPipelines.output(dir.resolve("again.ndjson")));
    p.hop("Window", "Write again");
    assertThat(problems(p.meta())).containsExactly("Transform 'Window': it deals its rows out in turn over 2 hops"
        + " (distribute), which Beam cannot do in the local engine's order: set it to copy the rows to every next"
        + " transform (right-click the transform > Data routing > Copy)");
  }

  @Test
  void hopsInWithDifferentFields() throws IOException {
    Path users = dir.resolve("users.ndjson");
    Files.writeString(users, "{\"user\":\"ann\",\"event_time\":\"2026-07-18 10:00:03\"}\n");
    TestPipelines p = new TestPipelines("two inputs");
    p.add("Read A", TestPipelines.input(events, "merchant", "String", "event_time", "Timestamp"));
    p.add("Read B", TestPipelines.input(users, "user", "String", "event_time", "Timestamp"));
    p.add("Both", new DummyMeta());
    p.hop("Read A", "Both").hop("Read B", "Both");
    assertThat(problems(p.meta())).containsExactly("Transform 'Both': the rows from 'Read A' [merchant, event_time]"
        + " and from 'Read B' [user, event_time] have different fields: make every hop into it bring the same fields,"
        + " of the same types, in the same order (e.g. with Select values)");
  }

  @Test
  void aNumberTimeField() {
    TestPipelines p = new TestPipelines("number time");
    p.add("Read events", TestPipelines.input(events, "merchant", "String", "event_time", "Number"));
    p.add("Window", TestPipelines.window());
    p.hop("Read events", "Window");
    assertThat(problems(p.meta())).containsExactly("Transform 'Window': the time field 'event_time' is a Number: on"
        + " Beam the event time is read from a Date, Timestamp, Integer (epoch) or String field: make it an Integer"
        + " (e.g. with Select values)");
  }

  @Test
  void aWindowInSeveralCopies() {
    TestPipelines p = windowPipeline(TestPipelines.window());
    p.meta().findTransform("Window").setCopies(2);
    assertThat(problems(p.meta())).containsExactly("Transform 'Window': it runs in 2 copies, which would split its"
        + " rows: set the number of copies to 1 (on Beam the work is spread over the workers anyway)");
  }

  @Test
  void badWindowSettingsWithTheLocalEnginesWords() {
    EventTimeWindowMeta window = TestPipelines.window();
    window.setWindowKind("hopping");
    window.setWindowSize("1 MINUTE");
    window.setWindowSlide("2 MINUTES");
    assertThat(problems(windowPipeline(window).meta())).containsExactly("Transform 'Window': Window slide: the slide"
        + " (2 MINUTES) is larger than the size (1 MINUTE), so some rows would fall in no window: make the slide at"
        + " most the size, or use a tumbling window");
  }

  @Test
  void aLateTargetWithoutItsHop() {
    EventTimeWindowMeta window = TestPipelines.window();
    window.setLateTargetTransform("Late rows");
    assertThat(problems(windowPipeline(window).meta())).containsExactly("Transform 'Window': there is no hop to its"
        + " late rows target 'Late rows': draw one and choose 'Late rows', or clear the target");
  }

  @Test
  void everyProblemAtOnce_inTheMessage() {
    TestPipelines p = new TestPipelines("two problems");
    p.add("A", new DummyMeta());
    p.add("B", new DummyMeta());
    p.hop("A", "B").hop("B", "A");
    p.add("Window", TestPipelines.window());
    assertThatThrownBy(() -> HopPipelineTranslator.translate(p.meta(), PipelineVariables.of(p.meta(), Map.of()),
        new MemoryMetadataProvider(), Pipeline.create(BeamRunner.DIRECT.options(null, null, List.of()))))
        .isInstanceOf(HopException.class)
        .hasMessageContaining("The pipeline 'two problems' cannot run on Beam:\n"
            + "  - The hops make a loop through 'A', 'B'")
        .hasMessageContaining("\n  - Transform 'Window': it has no input");
  }

  /** A copy of a sample (and its data) with one piece of its XML replaced. */
  private Path sampleCopy(String sample, String from, String to) throws IOException {
    Path samples = HopBeamTesting.samples();
    Path copy = dir.resolve("samples");
    Files.createDirectories(copy.resolve("data"));
    Files.copy(samples.resolve("data/events.ndjson"), copy.resolve("data/events.ndjson"));
    String xml = Files.readString(samples.resolve(sample));
    assertThat(xml).contains(from);
    Path hpl = copy.resolve(sample);
    Files.writeString(hpl, xml.replace(from, to));
    return hpl;
  }
}
