package io.eventtime.beam;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.core.AggregateKind;
import io.eventtime.core.AggregateSpec;
import io.eventtime.core.EventTimeParser;
import io.eventtime.core.Key;
import io.eventtime.core.LatePolicy;
import io.eventtime.core.PartitionedWindowProcessor;
import io.eventtime.core.Stats;
import io.eventtime.core.TimeText;
import io.eventtime.core.WindowProcessor;
import io.eventtime.core.WindowQuery;
import io.eventtime.core.WindowResult;
import io.eventtime.core.WindowSpec;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.StringJoiner;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.transforms.Filter;
import org.apache.beam.sdk.transforms.Flatten;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionList;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TimestampedValue;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.junit.jupiter.api.Test;

/**
 * The live path over several partitions (docs/semantics.md, "Live, partitioned streams") on the
 * DirectRunner with TestStream: the contract's examples L2 and L3 as partitions, exactly; random
 * streams of 1 to 4 partitions equal to the core's {@link PartitionedWindowProcessor} fed each
 * partition whole, one after the other (so the answer does not depend on the interleaving that
 * TestStream delivers, cut into stretches between watermark advances, each out of position order in
 * random bundles); and a key whose rows all come from one partition gets that partition's answer
 * replayed alone. Every other stream ranks its window rows in close order
 * ({@link EventTimeWindow#withCloseOrder}): each rank is the core's window row of that place, in the
 * order the core emits them. {@value LiveEqualsReplayTest#STREAMS_PROPERTY} sets how many random streams
 * (default {@value #DEFAULT_STREAMS}).
 */
class LiveInterleavingTest {
  static final int DEFAULT_STREAMS = 6;
  private static final int STREAMS_PER_PIPELINE = 12;
  private static final Schema SCHEMA = Schema.builder().addInt32Field("stream").addInt32Field(KafkaRows.PARTITION_FIELD)
      .addStringField("user").addInt64Field("amount").addNullableField("event_time", Schema.FieldType.STRING)
      .addNullableField("tag", Schema.FieldType.STRING).addInt64Field(EventTimeWindow.DEFAULT_ARRIVAL_FIELD).build();
  private static final String[] USERS = {"ann", "bob", "cid", "dee", "eve"};
  private static final AggregateSpec[] AGGREGATES = {AggregateSpec.countAll("n"),
      AggregateSpec.of(AggregateKind.SUM, "amount", "total"), AggregateSpec.of(AggregateKind.AVG, "amount", "mean"),
      AggregateSpec.of(AggregateKind.FIRST, "tag", "first_tag"), AggregateSpec.of(AggregateKind.LAST, "tag", "last_tag"),
      AggregateSpec.of(AggregateKind.COUNT_DISTINCT, "tag", "tags")};

  /**
   * One stream: its query, its partition ids (ascending) and each partition's rows in order. With
   * {@code aggregates} the query's full list; without, count(*) only.
   */
  record Stream(int id, WindowQuery query, int[] partitionIds, List<List<Row>> partitions) {
    String name() {
      return String.format("Partitioned-%04d", id);
    }
  }

  /** What the contract gives for one stream, and the window rows of keys confined to one partition alone. */
  record Expected(List<String> windows, List<String> late, List<String> rejected, Stats stats,
      List<String> confinedAlone) {}

  @Test
  void exampleL2_lateByOwnPartition_emittedAtTheLeastWatermark() {
    WindowQuery query = WindowQuery.of(WindowSpec.tumbling(600_000)).withKeys("user")
        .withAggregates(AggregateSpec.countAll("n"));
    Stream l2 = new Stream(0, query, new int[] {0, 1}, List.of(
        rows(0, 0, "k", "00:01", "00:12", "00:03", "00:22"),
        rows(0, 1, "k", "00:02", "00:05", "00:14", "00:08")));
    List<String> windows = List.of(window("k", "00:00", "00:10", 3), window("k", "00:10", "00:20", 2),
        window("k", "00:20", "00:30", 1));
    List<String> late = List.of(
        "0|3|partition 0, arrival 3: every window of event time " + at("00:03") + " had closed at watermark "
            + at("00:12") + " (late policy window)",
        "1|4|partition 1, arrival 4: every window of event time " + at("00:08") + " had closed at watermark "
            + at("00:14") + " (late policy window)");
    Expected contract = expected(l2);
    assertThat(contract.windows).containsExactlyInAnyOrderElementsOf(windows);
    assertThat(contract.late).containsExactlyInAnyOrderElementsOf(late);
    assertThat(contract.stats).isEqualTo(new Stats(8, 3, 2, 3, 6, 0));
    for (long seed = 1; seed <= 3; seed++) {
      runAndAssert(List.of(l2), new Random(seed), 2);
    }
  }

  @Test
  void exampleL3_sessionsJoinedAcrossPartitions() {
    WindowQuery query = WindowQuery.of(WindowSpec.session(300_000)).withKeys("user").withLatePolicy(LatePolicy.EVENT)
        .withAggregates(AggregateSpec.countAll("n"));
    List<Row> p0 = new ArrayList<>();
    p0.add(row(1, 0, "acme", "00:01", 1));
    p0.add(row(1, 0, "globex", "00:02", 2));
    p0.add(row(1, 0, "acme", "00:04", 3));
    p0.add(row(1, 0, "globex", "00:20", 4));
    Stream l3 = new Stream(1, query, new int[] {0, 1}, List.of(p0, rows(1, 1, "globex", "00:06", "00:09", "00:30")));
    Expected contract = expected(l3);
    assertThat(contract.windows).containsExactlyInAnyOrder(window("acme", "00:01", "00:09", 2),
        window("globex", "00:02", "00:14", 3), window("globex", "00:20", "00:25", 1),
        window("globex", "00:30", "00:35", 1));
    assertThat(contract.stats).isEqualTo(new Stats(7, 4, 0, 4, 7, 0));
    assertThat(contract.confinedAlone).containsExactly(window("acme", "00:01", "00:09", 2));
    for (long seed = 1; seed <= 3; seed++) {
      runAndAssert(List.of(l3), new Random(seed), 2);
    }
  }

  /** The window rows of example L4's runs, gathered in this JVM (the DirectRunner runs in it). */
  private static final java.util.Queue<String> L4_ROWS = new java.util.concurrent.ConcurrentLinkedQueue<>();

  /**
   * L4, the documented exception: under policy {@code window} P1's session grows backwards with
   * late rows and joins P0's only if that one is still waiting; the output is one of exactly the
   * two outcomes, never a third, with the stats that go with it.
   */
  @Test
  void exampleL4_aSessionGrowingBackwardsGivesOneOfTheTwoOutcomes() {
    WindowQuery query = WindowQuery.of(WindowSpec.session(300_000)).withKeys("user").withLatePolicy(LatePolicy.WINDOW)
        .withAggregates(AggregateSpec.countAll("n"));
    Stream l4 = new Stream(2, query, new int[] {0, 1}, List.of(rows(2, 0, "k", "00:10", "00:12", "00:40"),
        rows(2, 1, "k", "00:30", "00:25", "00:20", "00:16")));
    List<String> apart = List.of(window("k", "00:10", "00:17", 2), window("k", "00:16", "00:35", 4),
        window("k", "00:40", "00:45", 1));
    List<String> joined = List.of(window("k", "00:10", "00:35", 6), window("k", "00:40", "00:45", 1));
    for (long seed = 1; seed <= 3; seed++) {
      L4_ROWS.clear();
      Random random = new Random(seed);
      Pipeline p = LiveWindowExamplesTest.pipeline();
      List<TimestampedValue<Row>> arrivals = interleave(List.of(l4), random, 1);
      EventTimeWindowResult r = p.apply("Live", LiveStreams.shuffled(SCHEMA, arrivals, random, 2))
          .apply(l4.name(), EventTimeWindow.of(query).withTimeField("event_time")
              .withPartitionField(KafkaRows.PARTITION_FIELD).withPartitions(0, 1));
      r.windows().apply("Gather", MapElements.into(TypeDescriptors.strings()).via((Row w) -> {
        String text = ConformanceSuite.formatRow(w);
        L4_ROWS.add(text);
        return text;
      }));
      PipelineResult result = p.run();
      result.waitUntilFinish();
      List<String> got = new ArrayList<>(L4_ROWS);
      Stats stats = EventTimeMetrics.stats(result, l4.name());
      if (got.size() == apart.size()) {
        assertThat(got).containsExactlyInAnyOrderElementsOf(apart);
        assertThat(stats).isEqualTo(new Stats(7, 3, 0, 3, 7, 0));
      } else {
        assertThat(got).containsExactlyInAnyOrderElementsOf(joined);
        assertThat(stats).isEqualTo(new Stats(7, 2, 0, 2, 7, 0));
      }
    }
  }

  @Test
  void randomPartitionedStreamsEqualTheCoreProcessor() {
    int streams = Integer.getInteger(LiveEqualsReplayTest.STREAMS_PROPERTY, DEFAULT_STREAMS);
    Random random = new Random(20261203);
    long late = 0;
    long confined = 0;
    for (int first = 0; first < streams; first += STREAMS_PER_PIPELINE) {
      List<Stream> batch = new ArrayList<>();
      for (int id = first; id < Math.min(streams, first + STREAMS_PER_PIPELINE); id++) {
        batch.add(generate(100 + id, random));
      }
      List<Expected> expected = runAndAssert(batch, random, 8);
      late += expected.stream().mapToLong(e -> e.stats.lateDropped()).sum();
      confined += expected.stream().mapToLong(e -> e.confinedAlone.size()).sum();
    }
    assertThat(late).as("the streams have late rows").isPositive();
    assertThat(confined).as("the streams have keys confined to one partition").isPositive();
  }

  /**
   * Runs the streams in one pipeline, each its own EventTimeWindow over its rows interleaved with
   * the others', and asserts each against the core: window rows, late rows with reasons, rejected
   * rows and stats; and the rows of keys confined to one partition against that partition alone.
   */
  private static List<Expected> runAndAssert(List<Stream> streams, Random random, int perStamp) {
    Pipeline p = LiveWindowExamplesTest.pipeline();
    List<TimestampedValue<Row>> arrivals = interleave(streams, random, perStamp);
    PCollection<Row> live = p.apply("Live",
        LiveStreams.shuffled(SCHEMA, arrivals, random, Math.max(2, arrivals.size() / 5)));
    List<Expected> expected = new ArrayList<>();
    List<String> all = new ArrayList<>();
    PCollectionList<String> outputs = PCollectionList.empty(p);
    for (Stream s : streams) {
      int id = s.id;
      String name = s.name();
      EventTimeWindow window = EventTimeWindow.of(s.query).withTimeField("event_time")
          .withPartitionField(KafkaRows.PARTITION_FIELD).withPartitions(s.partitionIds);
      // every other stream ranks its window rows: rank i is the core's i-th window row
      boolean ranked = id % 2 == 1;
      EventTimeWindowResult r = live
          .apply(name + "-only", Filter.by((Row row) -> row.getInt32("stream") == id))
          .apply(name, ranked ? window.withCloseOrder() : window);
      Expected e = expected(s);
      expected.add(e);
      if (ranked) {
        for (int i = 0; i < e.windows.size(); i++) {
          all.add(name + " rank " + i + " " + e.windows.get(i));
        }
        outputs = outputs.and(r.windowsInCloseOrder().apply(name + "-ranks", MapElements.into(TypeDescriptors.strings())
            .via((KV<Long, Row> w) -> name + " rank " + w.getKey() + " " + ConformanceSuite.formatRow(w.getValue()))));
      }
      e.windows.forEach(w -> all.add(name + " window " + w));
      e.late.forEach(l -> all.add(name + " late " + l));
      e.rejected.forEach(l -> all.add(name + " rejected " + l));
      outputs = outputs
          .and(r.windows().apply(name + "-rows", MapElements.into(TypeDescriptors.strings())
              .via((Row w) -> name + " window " + ConformanceSuite.formatRow(w))))
          .and(r.late().apply(name + "-late", MapElements.into(TypeDescriptors.strings())
              .via((Row l) -> name + " late " + place(l.getRow(ProblemRows.ROW)) + "|" + l.getString(ProblemRows.REASON))))
          .and(r.rejected().apply(name + "-rejected", MapElements.into(TypeDescriptors.strings())
              .via((Row l) -> name + " rejected " + place(l.getRow(ProblemRows.ROW)))));
      // a key confined to one partition: its rows are those of that partition replayed alone
      Set<String> confinedWindows = new HashSet<>(e.confinedAlone);
      assertThat(e.windows).containsAll(confinedWindows);
    }
    PAssert.that(outputs.apply("AllOutputs", Flatten.pCollections())).containsInAnyOrder(all);
    PipelineResult result = p.run();
    result.waitUntilFinish();
    for (int i = 0; i < streams.size(); i++) {
      assertThat(EventTimeMetrics.stats(result, streams.get(i).name())).as(streams.get(i).name())
          .isEqualTo(expected.get(i).stats);
    }
    return expected;
  }

  private static String place(Row row) {
    return row.getInt32(KafkaRows.PARTITION_FIELD) + "|" + row.getInt64(EventTimeWindow.DEFAULT_ARRIVAL_FIELD);
  }

  /** The partitions' rows merged at random, each partition's in its order, stamped on one clock. */
  private static List<TimestampedValue<Row>> interleave(List<Stream> streams, Random random, int perStamp) {
    List<List<Row>> queues = new ArrayList<>();
    streams.forEach(s -> queues.addAll(s.partitions));
    List<Row> merged = new ArrayList<>();
    int[] next = new int[queues.size()];
    int left = queues.stream().mapToInt(List::size).sum();
    while (left > 0) {
      int q = random.nextInt(queues.size());
      if (next[q] < queues.get(q).size()) {
        merged.add(queues.get(q).get(next[q]++));
        left--;
      }
    }
    return LiveStreams.stamped(merged, random, perStamp);
  }

  /**
   * A random stream: 1 to 4 partitions (ids with gaps), every window kind and policy, disorder and
   * late rows, rows without a usable time. Keys are confined to one partition each, or spread over
   * all, except sessions under policy {@code window}, whose keys are always confined: with a key
   * spread there, the contract's answer depends on the interleaving (example L4).
   */
  private static Stream generate(int id, Random random) {
    WindowSpec spec = switch (random.nextInt(3)) {
      case 0 -> WindowSpec.tumbling(60_000);
      case 1 -> WindowSpec.hopping(20_000, 60_000);
      default -> WindowSpec.session(45_000);
    };
    LatePolicy policy = LatePolicy.values()[random.nextInt(LatePolicy.values().length)];
    WindowQuery query = WindowQuery.of(spec).withKeys("user").withDelay(random.nextBoolean() ? 0 : 30_000)
        .withLatePolicy(policy).withAggregates(AGGREGATES);
    int n = 1 + random.nextInt(4);
    int[] ids = new int[n];
    for (int i = 0; i < n; i++) {
      ids[i] = i == 0 ? random.nextInt(2) : ids[i - 1] + 1 + random.nextInt(3);
    }
    boolean confined = spec instanceof WindowSpec.Session && policy == LatePolicy.WINDOW || random.nextBoolean();
    List<List<Row>> partitions = new ArrayList<>();
    long start = java.time.Instant.parse("2026-05-01T08:00:00Z").toEpochMilli();
    for (int p = 0; p < n; p++) {
      List<Row> rows = new ArrayList<>();
      long clock = start;
      int count = 8 + random.nextInt(30);
      for (int i = 1; i <= count; i++) {
        clock += random.nextInt(9000);
        long ts = random.nextInt(6) == 0 ? clock - random.nextInt(120_000) : clock;
        String time = random.nextInt(40) == 0 ? "not a time" : TimeText.format(ts);
        // confined: partition p's keys are USERS[p] and USERS[p + 1] of its own, apart from the others'
        String user = confined ? USERS[p] + (random.nextBoolean() ? "" : "-2") : USERS[random.nextInt(3)];
        rows.add(Row.withSchema(SCHEMA).addValues(id, ids[p], user, (long) random.nextInt(1000) - 100, time,
            random.nextInt(4) == 0 ? null : "t" + random.nextInt(5), (long) (i * 2)).build());
      }
      partitions.add(rows);
    }
    return new Stream(id, query, ids, partitions);
  }

  /**
   * The contract's answer: the core's partitioned processor fed each partition whole, in
   * partition order; and, for the keys whose rows all come from one partition, the window rows of
   * that partition replayed alone through {@link WindowProcessor}.
   */
  private static Expected expected(Stream s) {
    List<String> windows = new ArrayList<>();
    List<String> late = new ArrayList<>();
    List<String> rejected = new ArrayList<>();
    PartitionedWindowProcessor core = new PartitionedWindowProcessor(s.query, s.partitions.size(),
        w -> windows.add(format(w)));
    EventTimeParser parser = EventTimeParser.defaults();
    List<Set<String>> keysOf = new ArrayList<>();
    for (int p = 0; p < s.partitions.size(); p++) {
      Set<String> keys = new HashSet<>();
      for (Row r : s.partitions.get(p)) {
        long position = r.getInt64(EventTimeWindow.DEFAULT_ARRIVAL_FIELD);
        String where = s.partitionIds[p] + "|" + position;
        Long ts = parse(parser, r);
        if (ts == null) {
          core.reject(p);
          rejected.add(where);
          continue;
        }
        keys.add(r.getString("user"));
        if (!core.process(p, Key.of(r.getString("user")), ts, inputs(s.query, r))) {
          late.add(where + "|partition " + s.partitionIds[p] + ", arrival " + position + ": " + core.lateReason(p, ts));
        }
      }
      keysOf.add(keys);
    }
    core.finish();
    List<String> confinedAlone = new ArrayList<>();
    for (int p = 0; p < s.partitions.size(); p++) {
      Set<String> only = new HashSet<>(keysOf.get(p));
      for (int q = 0; q < s.partitions.size(); q++) {
        if (q != p) {
          only.removeAll(keysOf.get(q));
        }
      }
      WindowProcessor alone = new WindowProcessor(s.query, w -> {
        if (only.contains((String) w.key().get(0))) {
          confinedAlone.add(format(w));
        }
      });
      for (Row r : s.partitions.get(p)) {
        Long ts = parse(parser, r);
        if (ts == null) {
          alone.reject();
        } else {
          alone.process(Key.of(r.getString("user")), ts, inputs(s.query, r));
        }
      }
      alone.finish();
    }
    return new Expected(windows, late, rejected, core.stats(), confinedAlone);
  }

  private static Long parse(EventTimeParser parser, Row r) {
    try {
      return parser.parse(r.getString("event_time"));
    } catch (RuntimeException noTime) {
      return null;
    }
  }

  private static Object[] inputs(WindowQuery query, Row r) {
    if (query.aggregates().size() == 1) {
      return new Object[] {null};
    }
    return new Object[] {null, r.getInt64("amount"), r.getInt64("amount"), r.getString("tag"), r.getString("tag"),
        r.getString("tag")};
  }

  private static String format(WindowResult w) {
    StringJoiner j = new StringJoiner("|");
    for (int i = 0; i < w.key().size(); i++) {
      j.add(ConformanceSuite.formatValue(w.key().get(i)));
    }
    j.add(TimeText.format(w.start())).add(TimeText.format(w.end()));
    for (Object v : w.values()) {
      j.add(ConformanceSuite.formatValue(v));
    }
    return j.toString();
  }

  /** A window row of the examples, as {@link ConformanceSuite#formatRow} writes it. */
  private static String window(String key, String start, String end, long n) {
    return key + "|" + at(start) + "|" + at(end) + "|" + n;
  }

  private static String at(String hhmm) {
    return TimeText.format(time(hhmm));
  }

  private static long time(String hhmm) {
    return java.time.Instant.parse("2026-03-01T" + hhmm + ":00Z").toEpochMilli();
  }

  /** The rows of one partition of the examples, each at the next position from 1. */
  private static List<Row> rows(int stream, int partition, String user, String... times) {
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < times.length; i++) {
      rows.add(row(stream, partition, user, times[i], i + 1));
    }
    return rows;
  }

  private static Row row(int stream, int partition, String user, String hhmm, long position) {
    return Row.withSchema(SCHEMA).addValues(stream, partition, user, 1L, TimeText.format(time(hhmm)), "t", position)
        .build();
  }
}
