package io.eventtime.beam;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.core.AggregateKind;
import io.eventtime.core.AggregateSpec;
import io.eventtime.core.EventTimeParser;
import io.eventtime.core.Key;
import io.eventtime.core.LatePolicy;
import io.eventtime.core.Stats;
import io.eventtime.core.TimeText;
import io.eventtime.core.WindowProcessor;
import io.eventtime.core.WindowQuery;
import io.eventtime.core.WindowSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.StringJoiner;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.transforms.Filter;
import org.apache.beam.sdk.transforms.Flatten;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionList;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TimestampedValue;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.junit.jupiter.api.Test;

/**
 * Random one-partition streams (fixed seeds) fed live through TestStream give what the contract
 * gives over the same rows replayed in arrival order: the core's {@link WindowProcessor}, which
 * the bounded path equals on every runner ({@link ConformanceSuite}). Each stream has its own
 * random query (window kind, late policy, delay, aggregates), disordered event times with late
 * rows, rows without a usable time, and arrives interleaved with the others in one TestStream, cut
 * at random into stretches between watermark advances, each delivered out of order in random
 * bundles. {@value #STREAMS_PROPERTY} sets how many streams (default {@value #DEFAULT_STREAMS}).
 */
class LiveEqualsReplayTest {
  static final String STREAMS_PROPERTY = "eventtime.live.streams";
  static final int DEFAULT_STREAMS = 10;
  /** Streams per pipeline: each is its own EventTimeWindow in the pipeline. */
  private static final int STREAMS_PER_PIPELINE = 25;
  private static final Schema SCHEMA = Schema.builder().addInt32Field("stream").addStringField("user")
      .addInt64Field("amount").addNullableField("event_time", Schema.FieldType.STRING)
      .addNullableField("tag", Schema.FieldType.STRING).addInt64Field(EventTimeWindow.DEFAULT_ARRIVAL_FIELD).build();
  private static final String[] USERS = {"ann", "bob", "cid", "dee"};

  /** One random stream: its query and its rows in arrival order. */
  record Stream(int id, WindowQuery query, List<Row> rows) {
    String name() {
      return String.format("Stream-%04d", id);
    }
  }

  /** What the contract gives for one stream. */
  record Expected(List<String> windows, List<String> late, List<Long> rejected, Stats stats) {}

  @Test
  void randomLiveStreamsGiveTheReplaysRows() {
    int streams = Integer.getInteger(STREAMS_PROPERTY, DEFAULT_STREAMS);
    Random random = new Random(20261202);
    long late = 0;
    long rejected = 0;
    for (int first = 0; first < streams; first += STREAMS_PER_PIPELINE) {
      List<Stream> batch = new ArrayList<>();
      for (int id = first; id < Math.min(streams, first + STREAMS_PER_PIPELINE); id++) {
        batch.add(generate(id, random));
      }
      Stats total = run(batch, random);
      late += total.lateDropped();
      rejected += total.rowsRejected();
    }
    assertThat(late).as("the streams have late rows").isPositive();
    assertThat(rejected).as("the streams have rejected rows").isPositive();
  }

  /** Runs the streams in one pipeline, asserts each, and returns their stats summed. */
  private static Stats run(List<Stream> streams, Random random) {
    Pipeline p = LiveWindowExamplesTest.pipeline();
    List<TimestampedValue<Row>> arrivals = interleave(streams, random);
    // a few watermark advances per pipeline: each costs a round over every step on the DirectRunner
    PCollection<Row> live = p.apply("Live", LiveStreams.shuffled(SCHEMA, arrivals, random, arrivals.size() / 6));
    List<Expected> expected = new ArrayList<>();
    List<String> all = new ArrayList<>();
    PCollectionList<String> outputs = PCollectionList.empty(p);
    for (Stream s : streams) {
      int id = s.id;
      String name = s.name();
      EventTimeWindowResult r = live
          .apply(name + "-only", Filter.by((Row row) -> row.getInt32("stream") == id))
          .apply(name, EventTimeWindow.of(s.query).withTimeField("event_time"));
      Expected e = expected(s);
      expected.add(e);
      e.windows.forEach(w -> all.add(name + " window " + w));
      e.late.forEach(l -> all.add(name + " late " + l));
      e.rejected.forEach(l -> all.add(name + " rejected " + l));
      outputs = outputs
          .and(r.windows().apply(name + "-rows", MapElements.into(TypeDescriptors.strings())
              .via((Row w) -> name + " window " + ConformanceSuite.formatRow(w))))
          .and(r.late().apply(name + "-late", MapElements.into(TypeDescriptors.strings())
              .via((Row l) -> name + " late " + l.getRow(ProblemRows.ROW).getInt64(EventTimeWindow.DEFAULT_ARRIVAL_FIELD)
                  + "|" + l.getString(ProblemRows.REASON))))
          .and(r.rejected().apply(name + "-rejected", MapElements.into(TypeDescriptors.strings())
              .via((Row l) -> name + " rejected " + l.getRow(ProblemRows.ROW).getInt64(EventTimeWindow.DEFAULT_ARRIVAL_FIELD))));
    }
    PAssert.that(outputs.apply("AllOutputs", Flatten.pCollections())).containsInAnyOrder(all);
    PipelineResult result = p.run();
    result.waitUntilFinish();
    long late = 0;
    long rejected = 0;
    for (int i = 0; i < streams.size(); i++) {
      Stats want = expected.get(i).stats;
      assertThat(EventTimeMetrics.stats(result, streams.get(i).name())).as(streams.get(i).name()).isEqualTo(want);
      late += want.lateDropped();
      rejected += want.rowsRejected();
    }
    return new Stats(0, 0, late, 0, 0, rejected);
  }

  /** The streams' rows merged at random, each stream's in its order, stamped on one clock. */
  private static List<TimestampedValue<Row>> interleave(List<Stream> streams, Random random) {
    List<Row> merged = new ArrayList<>();
    int[] next = new int[streams.size()];
    int left = streams.stream().mapToInt(s -> s.rows.size()).sum();
    while (left > 0) {
      int s = random.nextInt(streams.size());
      if (next[s] < streams.get(s).rows.size()) {
        merged.add(streams.get(s).rows.get(next[s]++));
        left--;
      }
    }
    return LiveStreams.stamped(merged, random, 8);
  }

  private static Stream generate(int id, Random random) {
    WindowSpec spec = switch (random.nextInt(3)) {
      case 0 -> WindowSpec.tumbling(60_000);
      case 1 -> WindowSpec.hopping(20_000, 60_000);
      default -> WindowSpec.session(45_000);
    };
    WindowQuery query = WindowQuery.of(spec).withKeys("user")
        .withDelay(random.nextBoolean() ? 0 : 30_000)
        .withLatePolicy(LatePolicy.values()[random.nextInt(LatePolicy.values().length)])
        .withAggregates(AggregateSpec.countAll("n"), AggregateSpec.of(AggregateKind.SUM, "amount", "total"),
            AggregateSpec.of(AggregateKind.MIN, "amount", "low"), AggregateSpec.of(AggregateKind.AVG, "amount", "mean"),
            AggregateSpec.of(AggregateKind.FIRST, "tag", "first_tag"), AggregateSpec.of(AggregateKind.LAST, "tag", "last_tag"),
            AggregateSpec.of(AggregateKind.COUNT_DISTINCT, "tag", "tags"));
    List<Row> rows = new ArrayList<>();
    long clock = java.time.Instant.parse("2026-05-01T08:00:00Z").toEpochMilli();
    int n = 10 + random.nextInt(50);
    int users = 1 + random.nextInt(USERS.length);
    for (int i = 1; i <= n; i++) {
      clock += random.nextInt(8000);
      long ts = random.nextInt(6) == 0 ? clock - random.nextInt(120_000) : clock;
      String time = switch (random.nextInt(40)) {
        case 0 -> null;
        case 1 -> "not a time";
        default -> TimeText.format(ts);
      };
      rows.add(Row.withSchema(SCHEMA).addValues(id, USERS[random.nextInt(users)], (long) random.nextInt(1000) - 100,
          time, random.nextInt(4) == 0 ? null : "t" + random.nextInt(5), (long) i).build());
    }
    return new Stream(id, query, rows);
  }

  /** The contract's answer: the core processor over the rows in arrival order. */
  private static Expected expected(Stream s) {
    List<String> windows = new ArrayList<>();
    List<String> late = new ArrayList<>();
    List<Long> rejected = new ArrayList<>();
    WindowProcessor p = new WindowProcessor(s.query, w -> {
      StringJoiner j = new StringJoiner("|");
      for (int i = 0; i < w.key().size(); i++) {
        j.add(ConformanceSuite.formatValue(w.key().get(i)));
      }
      j.add(TimeText.format(w.start())).add(TimeText.format(w.end()));
      for (Object v : w.values()) {
        j.add(ConformanceSuite.formatValue(v));
      }
      windows.add(j.toString());
    });
    EventTimeParser parser = EventTimeParser.defaults();
    for (Row r : s.rows) {
      long position = r.getInt64(EventTimeWindow.DEFAULT_ARRIVAL_FIELD);
      long ts;
      try {
        ts = parser.parse(r.getString("event_time"));
      } catch (RuntimeException noTime) {
        p.reject();
        rejected.add(position);
        continue;
      }
      Object[] inputs = {null, r.getInt64("amount"), r.getInt64("amount"), r.getInt64("amount"), r.getString("tag"),
          r.getString("tag"), r.getString("tag")};
      if (!p.process(Key.of(r.getString("user")), ts, inputs)) {
        late.add(position + "|arrival " + position + ": " + p.lateReason(ts));
      }
    }
    p.finish();
    return new Expected(windows, late, rejected, p.stats());
  }
}
