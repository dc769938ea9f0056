package io.eventtime.beam;

import static io.eventtime.core.contract.WorkedExamples.A;
import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.core.WindowSpec;
import io.eventtime.core.contract.WorkedExamples;
import io.eventtime.testing.kafka.KafkaBroker;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.runners.flink.FlinkRunner;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The live path on Beam's Flink runner in streaming mode (embedded cluster, two tasks wide), fed
 * from a real Kafka topic while the job runs: example A's rows are produced one at a time into a
 * one-partition topic read by {@link KafkaRows} (unbounded), through {@link EventTimeWindow}, to a
 * sink that writes one file per output row. The stream never ends, so only what the contract
 * closes before the end of the input may leave: example A's windows that the last watermark
 * closes and its late row, each exactly once; the windows still open must not appear.
 *
 * <p>In the package of {@link ConformanceSuite} for its row format, the one the examples' texts use.
 */
class FlinkLiveKafkaTest {
  private static final String TOPIC = "exampleA-live";
  /** How long the outputs may take to come; a bound on waiting, not an assertion on speed. */
  private static final long WAIT_MILLIS = 90_000;
  /** The pause between two produced rows, so that they arrive one at a time while the job runs. */
  private static final long PRODUCE_PAUSE_MILLIS = 300;
  /** After the expected rows came, how long a re-emission or an open window would have to show. */
  private static final long SETTLE_MILLIS = 5_000;

  /** Started once for the class, with the one-partition topic. */
  private static KafkaBroker broker;

  @BeforeAll
  static void startBrokerWithTheTopic() {
    broker = KafkaBroker.start();
    broker.createTopic(TOPIC, 1);
  }

  @AfterAll
  static void closeBroker() {
    broker.close();
  }

  /** The sink's folders: one per output of each window kind. */
  @TempDir
  Path dir;

  @Test
  void exampleA_producedWhileTheJobRuns_closedWindowsAndLateRowsLeaveOnce_openWindowsStay() throws Exception {
    Map<String, WindowSpec> specs = new LinkedHashMap<>();
    specs.put("tumbling", WindowSpec.tumbling(A.tumbling().sizeMillis()));
    specs.put("hopping", WindowSpec.hopping(A.hopping().slideMillis(), A.hopping().sizeMillis()));
    specs.put("session", WindowSpec.session(A.session().gapMillis()));
    Map<String, WorkedExamples.Case> cases = Map.of("tumbling", A.tumbling(), "hopping", A.hopping(), "session", A.session());

    FlinkPipelineOptions options = PipelineOptionsFactory.create().as(FlinkPipelineOptions.class);
    options.setRunner(FlinkRunner.class);
    options.setFlinkMaster("[local]");
    options.setParallelism(2);
    options.setStreaming(true);
    options.setAttachedMode(false); // run() returns while the job runs
    Pipeline p = Pipeline.create(options);
    KafkaRows.Result in = p.apply(KafkaRows.read().withBootstrapServers(broker.bootstrapServers()).withTopic(TOPIC)
        .withSchema(Schema.builder().addDateTimeField("event_time").build()));
    assertThat(in.rows().isBounded()).isEqualTo(PCollection.IsBounded.UNBOUNDED);
    for (String kind : specs.keySet()) {
      EventTimeWindowResult r = in.rows().apply(kind, LiveWindowExamplesTest.exampleA(specs.get(kind)));
      r.windows().apply(kind + "Windows", ParDo.of(new WriteEachRow(dir.resolve(kind).resolve("windows").toString())));
      r.late().apply(kind + "Late", ParDo.of(new WriteEachRow(dir.resolve(kind).resolve("late").toString())));
      r.rejected().apply(kind + "Rejected", ParDo.of(new WriteEachRow(dir.resolve(kind).resolve("rejected").toString())));
    }
    in.rejected().apply("ReadRejected", ParDo.of(new WriteEachRow(dir.resolve("read-rejected").toString())));

    Map<String, List<String>> expected = new LinkedHashMap<>();
    for (String kind : specs.keySet()) {
      expected.put(kind + "/windows", closedBeforeTheEnd(kind, cases.get(kind)));
      expected.put(kind + "/late", exampleALateFromKafka());
      expected.put(kind + "/rejected", List.of());
    }
    expected.put("read-rejected", List.of());

    PipelineResult result = p.run();
    try {
      for (String time : A.times()) {
        broker.produce(TOPIC, 0, "{\"event_time\":\"" + time + "\"}");
        Thread.sleep(PRODUCE_PAUSE_MILLIS);
      }
      awaitOutputs(expected, result);
      Thread.sleep(SETTLE_MILLIS);
      Map<String, List<String>> came = outputs(expected.keySet());
      for (String folder : expected.keySet()) {
        assertThat(came.get(folder)).as("%s (all outputs: %s)", folder, came)
            .containsExactlyInAnyOrderElementsOf(expected.get(folder));
      }
    } finally {
      FlinkLiveJobs.stop(result);
    }
  }

  /**
   * The example's windows that its last watermark (the latest event time less the delay) closes
   * (docs/semantics.md, "When a window closes": a grid window at {@code watermark >= end}, a
   * session at {@code watermark > end}); the others stay open while the stream goes on.
   */
  private static List<String> closedBeforeTheEnd(String kind, WorkedExamples.Case c) {
    long last = A.times().stream().mapToLong(WorkedExamples::millis).max().orElseThrow() - A.delayMillis();
    List<String> closed = c.windows().stream()
        .filter(w -> kind.equals("session") ? last > w.endMillis() : last >= w.endMillis())
        .map(WorkedExamples.Window::text).toList();
    assertThat(closed).as("%s: some windows close before the end, some stay open", kind)
        .isNotEmpty().hasSizeLessThan(c.windows().size());
    return closed;
  }

  /** Example A's late rows as they come from this topic: event_time, _partition, _arrival (the offset, arrival - 1). */
  private static List<String> exampleALateFromKafka() {
    return A.late().stream().map(l -> l.time() + "|0|" + (l.arrival() - 1) + "|event_time|arrival " + (l.arrival() - 1)
        + ": event time " + l.time() + " is behind the watermark " + l.watermark() + " (late policy " + A.policy() + ")")
        .toList();
  }

  /** Waits (bounded) until every expected row has come, failing with what did come. */
  private void awaitOutputs(Map<String, List<String>> expected, PipelineResult result) throws InterruptedException {
    long deadline = System.currentTimeMillis() + WAIT_MILLIS;
    Map<String, List<String>> came = outputs(expected.keySet());
    while (!allCame(expected, came)) {
      if (System.currentTimeMillis() > deadline || result.getState().isTerminal()) {
        throw new AssertionError("within " + WAIT_MILLIS / 1000 + " s, with the job " + result.getState()
            + ", the outputs that came: " + came + "; expected: " + expected);
      }
      Thread.sleep(200);
      came = outputs(expected.keySet());
    }
  }

  private static boolean allCame(Map<String, List<String>> expected, Map<String, List<String>> came) {
    return expected.entrySet().stream().allMatch(e -> came.get(e.getKey()).containsAll(e.getValue()));
  }

  /** The rows written to each folder so far. */
  private Map<String, List<String>> outputs(Iterable<String> folders) {
    Map<String, List<String>> came = new LinkedHashMap<>();
    for (String folder : folders) {
      List<String> rows = new ArrayList<>();
      Path d = dir.resolve(folder);
      if (Files.isDirectory(d)) {
        try (Stream<Path> files = Files.list(d)) {
          for (Path f : files.filter(f -> f.toString().endsWith(".row")).sorted().toList()) {
            rows.add(Files.readString(f, StandardCharsets.UTF_8));
          }
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
      came.put(folder, rows);
    }
    return came;
  }

  /**
   * Writes each row, in {@link ConformanceSuite#formatRow}'s text, to a file of its own named after
   * the text; a second emission of the same row gets a second file, so it shows. A file written
   * half is never read: it is moved into place once complete.
   */
  static final class WriteEachRow extends DoFn<Row, Void> {
    private final String folder;

    WriteEachRow(String folder) {
      this.folder = folder;
    }

    @ProcessElement
    public void process(@Element Row row) throws IOException {
      String text = ConformanceSuite.formatRow(row);
      Path d = Files.createDirectories(Path.of(folder));
      Path tmp = Files.writeString(d.resolve(UUID.randomUUID() + ".tmp"), text, StandardCharsets.UTF_8);
      String name = UUID.nameUUIDFromBytes(text.getBytes(StandardCharsets.UTF_8)).toString();
      for (int copy = 1; ; copy++) {
        try {
          Files.createLink(d.resolve(name + "-" + copy + ".row"), tmp);
          break;
        } catch (FileAlreadyExistsException again) {
          // the same row emitted before: keep both, for the test to see
        }
      }
      Files.delete(tmp);
    }
  }
}
