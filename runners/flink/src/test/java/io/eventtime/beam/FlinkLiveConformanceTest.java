package io.eventtime.beam;

import static io.eventtime.core.contract.WorkedExamples.A;
import static io.eventtime.core.contract.WorkedExamples.C;
import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.core.AggregateKind;
import io.eventtime.core.AggregateSpec;
import io.eventtime.core.LatePolicy;
import io.eventtime.core.WindowQuery;
import io.eventtime.core.WindowSpec;
import io.eventtime.testing.kafka.KafkaBroker;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.transforms.ParDo;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The worked examples A and C and the conformance suite's random stream (a sample of its
 * queries: every kind under both policies) produced into one-partition topics of the test broker,
 * half before the job starts (KafkaRows infers the schema from them, as NdjsonIO does from a file)
 * and half while an embedded Flink streaming job reads them: the window rows, late rows with
 * their reasons, rejected rows and the records KafkaRows rejects are the bounded run's (the
 * examples' fixture; core's processor over the arrivals), to the row. A live stream never ends,
 * so each topic ends with one row a day after the rest: its watermark closes every window the
 * bounded run's end emits, and its own window stays open (not emitted, as the exact comparison
 * checks). The reasons name the offset ({@code arrival N}) where a file's name its line. Stats
 * counters are compared on the DirectRunner (LiveConformanceTest): a detached Flink job does not
 * report them.
 */
class FlinkLiveConformanceTest {
  private static final long MIN = 60_000L;
  private static final int RANDOM_ROWS = 300;
  private static final long PRODUCE_PAUSE_MILLIS = 2;
  /** After the expected rows came, how long a second emission would have to show. */
  private static final long SETTLE_MILLIS = 3_000;
  private static final List<String> FOLDERS = List.of("windows", "late", "rejected", "read-rejected");
  private static final Pattern SUITE_LATE = Pattern.compile("(\\d+)\\|line \\d+ of FILE: (.*)");

  private static KafkaBroker broker;

  @BeforeAll
  static void startBroker() {
    broker = KafkaBroker.start();
  }

  @AfterAll
  static void closeBroker() {
    broker.close();
  }

  @TempDir
  Path dir;

  /** One query over one topic, and what it must give. */
  record Case(String name, String topic, EventTimeWindow window, int keys, Map<String, Map<String, String>> expected) {}

  @Test
  void examplesAndTheSuitesRandomStream_liveOnFlinkAreTheBoundedRun() throws Exception {
    Map<String, List<String>> topics = new HashMap<>();
    List<Case> cases = new ArrayList<>();

    List<String> a = new ArrayList<>(A.times().stream().map(t -> "{\"event_time\":\"" + t + "\"}").toList());
    a.add("{\"event_time\":\"2026-03-02 00:00:00\"}");
    topics.put("ExampleA", a);
    Map<String, String> aLate = new HashMap<>();
    for (var l : A.late()) {
      String id = RowFiles.identity(0, l.arrival() - 1);
      aLate.put(id, id + "|arrival " + (l.arrival() - 1) + ": event time " + l.time() + " is behind the watermark "
          + l.watermark() + " (late policy " + A.policy() + ")");
    }
    EventTimeWindow aBase = ConformanceSuite.exampleATumbling();
    cases.add(new Case("A-Tumbling", "ExampleA", aBase, 0, expected(A.tumbling().texts(), 0, aLate)));
    cases.add(new Case("A-Hopping", "ExampleA", EventTimeWindow.of(aBase.query().withSpec(WindowSpec.hopping(
        A.hopping().slideMillis(), A.hopping().sizeMillis()))).withTimeField("event_time"), 0,
        expected(A.hopping().texts(), 0, aLate)));
    cases.add(new Case("A-Session", "ExampleA", EventTimeWindow.of(aBase.query().withSpec(WindowSpec.session(
        A.session().gapMillis()))).withTimeField("event_time"), 0, expected(A.session().texts(), 0, aLate)));

    List<String> c = new ArrayList<>(C.lines());
    c.add("{\"merchant\":\"zz\",\"amount\":0,\"event_time\":\"2026-07-19 10:00:00\"}");
    topics.put("ExampleC", c);
    EventTimeWindow cBase = EventTimeWindow.of(WindowSpec.tumbling(C.tumbling().sizeMillis()))
        .withTimeField(C.timeField()).withKeys(C.keyField());
    cases.add(new Case("C-Tumbling", "ExampleC", cBase.withAggregates(AggregateSpec.countAll("n"),
        AggregateSpec.of(AggregateKind.SUM, "amount", "total")), 1, expected(C.tumbling().texts(), 1, Map.of())));
    cases.add(new Case("C-Hopping", "ExampleC", EventTimeWindow.of(cBase.query().withSpec(WindowSpec.hopping(
        C.hopping().slideMillis(), C.hopping().sizeMillis())).withAggregates(AggregateSpec.countAll("n")))
        .withTimeField(C.timeField()), 1, expected(C.hopping().texts(), 1, Map.of())));
    cases.add(new Case("C-Session", "ExampleC", EventTimeWindow.of(cBase.query().withSpec(WindowSpec.session(
        C.session().gapMillis())).withAggregates(AggregateSpec.countAll("n"))).withTimeField(C.timeField()), 1,
        expected(C.session().texts(), 1, Map.of())));

    ConformanceSuite.RandomStream stream = ConformanceSuite.RandomStream.generate(new Random(20261130), RANDOM_ROWS);
    List<String> random = new ArrayList<>(stream.lines);
    random.add("{\"user\":\"zz\",\"amount\":0,\"event_time\":\"2026-05-09 08:00:00\",\"tag\":null}");
    topics.put("Random", random);
    Map<String, String> rejected = new HashMap<>();
    stream.nullTimePositions.forEach(line -> rejected.put(RowFiles.identity(0, line - 1), RowFiles.identity(0, line - 1)));
    Map<String, String> readRejected = new HashMap<>();
    stream.malformedLines.forEach(line -> readRejected.put(RowFiles.identity(0, line - 1), RowFiles.identity(0, line - 1)));
    assertThat(rejected).as("rows with a null time").isNotEmpty();
    assertThat(readRejected).as("malformed lines").isNotEmpty();
    for (WindowSpec spec : new WindowSpec[] {WindowSpec.tumbling(MIN), WindowSpec.hopping(20_000, MIN),
        WindowSpec.session(45_000)}) {
      for (LatePolicy policy : LatePolicy.values()) {
        WindowQuery q = WindowQuery.of(spec).withKeys("user").withDelay(30_000).withLatePolicy(policy)
            .withAggregates(AggregateSpec.countAll("n"), AggregateSpec.of(AggregateKind.SUM, "amount", "total"),
                AggregateSpec.of(AggregateKind.MIN, "amount", "low"), AggregateSpec.of(AggregateKind.MAX, "event_time", "latest"),
                AggregateSpec.of(AggregateKind.AVG, "amount", "mean"), AggregateSpec.of(AggregateKind.FIRST, "tag", "first_tag"),
                AggregateSpec.of(AggregateKind.LAST, "tag", "last_tag"),
                AggregateSpec.of(AggregateKind.COUNT_DISTINCT, "tag", "tags"), AggregateSpec.of(AggregateKind.COUNT, "tag", "tagged"));
        ConformanceSuite.Expectation e = stream.expected(q);
        assertThat(e.lateRows).as("%s %s has late rows", spec.kind(), policy).isNotEmpty();
        Map<String, String> late = new HashMap<>();
        for (String l : e.lateRows) {
          Matcher m = SUITE_LATE.matcher(l);
          assertThat(m.matches()).as(l).isTrue();
          long offset = Long.parseLong(m.group(1)) - 1;
          String id = RowFiles.identity(0, offset);
          late.put(id, id + "|arrival " + offset + ": " + m.group(2));
        }
        Map<String, Map<String, String>> want = expected(e.rows, 1, late);
        want.put("rejected", rejected);
        want.put("read-rejected", readRejected);
        cases.add(new Case("Random-" + spec.kind() + "-" + policy.label(), "Random",
            EventTimeWindow.of(q).withTimeField("event_time"), 1, want));
      }
    }

    for (Map.Entry<String, List<String>> t : topics.entrySet()) {
      broker.createTopic(t.getKey(), 1);
      List<String> values = t.getValue();
      broker.produce(t.getKey(), 0, values.subList(0, values.size() / 2).toArray(String[]::new));
    }
    Pipeline p = Pipeline.create(FlinkLiveJobs.options(dir.resolve("checkpoints")));
    Map<String, KafkaRows.Result> reads = new HashMap<>();
    for (String topic : topics.keySet()) {
      reads.put(topic, p.apply(topic + "-Read", KafkaRows.read().withBootstrapServers(broker.bootstrapServers())
          .withTopic(topic).withStartPosition(KafkaRows.EARLIEST)));
      reads.get(topic).rejected().apply(topic + "-ReadRejected", ParDo.of(new RowFiles(
          dir.resolve(topic).resolve("read-rejected"), RowFiles.Kind.READ_REJECTED, 0)));
    }
    for (Case k : cases) {
      EventTimeWindowResult r = reads.get(k.topic).rows().apply(k.name, k.window);
      Path out = dir.resolve(k.name);
      r.windows().apply(k.name + "-Windows", ParDo.of(new RowFiles(out.resolve("windows"), RowFiles.Kind.WINDOW, k.keys)));
      r.late().apply(k.name + "-Late", ParDo.of(new RowFiles(out.resolve("late"), RowFiles.Kind.LATE, k.keys)));
      r.rejected().apply(k.name + "-Rejected", ParDo.of(new RowFiles(out.resolve("rejected"), RowFiles.Kind.REJECTED,
          k.keys)));
    }
    PipelineResult job = p.run();
    try {
      for (Map.Entry<String, List<String>> t : topics.entrySet()) {
        List<String> values = t.getValue();
        for (String v : values.subList(values.size() / 2, values.size())) {
          broker.produce(t.getKey(), 0, v);
          Thread.sleep(PRODUCE_PAUSE_MILLIS);
        }
      }
      for (Case k : cases) {
        FlinkLiveJobs.await(k.name + "'s outputs, expected " + k.expected,
            () -> FlinkLiveJobs.allCame(k.expected, read(k)), job);
      }
      Thread.sleep(SETTLE_MILLIS);
      for (Case k : cases) {
        Map<String, Map<String, String>> came = read(k);
        for (String folder : FOLDERS) {
          assertThat(came.get(folder)).as("%s %s", k.name, folder).isEqualTo(k.expected.getOrDefault(folder, Map.of()));
        }
        assertThat(RowFiles.conflicts(dir.resolve(k.name), FOLDERS)).as("%s: a row emitted twice, differing", k.name)
            .isEmpty();
      }
    } finally {
      FlinkLiveJobs.stop(job);
    }
  }

  /** A case's outputs so far, with its topic's records that KafkaRows rejected. */
  private Map<String, Map<String, String>> read(Case k) {
    Map<String, Map<String, String>> came = new HashMap<>(RowFiles.read(dir.resolve(k.name), FOLDERS.subList(0, 3)));
    came.putAll(RowFiles.read(dir.resolve(k.topic), List.of("read-rejected")));
    return came;
  }

  /** The expected files of a case: its window texts (named by their keys, start and end) and late rows. */
  private static Map<String, Map<String, String>> expected(List<String> windows, int keys, Map<String, String> late) {
    Map<String, String> byIdentity = new HashMap<>();
    for (String w : windows) {
      String[] fields = w.split("\\|", -1);
      byIdentity.put(String.join("|", java.util.Arrays.copyOf(fields, keys + 2)), w);
    }
    Map<String, Map<String, String>> all = new HashMap<>();
    all.put("windows", byIdentity);
    all.put("late", late);
    all.put("rejected", Map.of());
    all.put("read-rejected", Map.of());
    return all;
  }
}
