package io.eventtime.beam;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.core.AggregateKind;
import io.eventtime.core.AggregateSpec;
import io.eventtime.core.LatePolicy;
import io.eventtime.core.Stats;
import io.eventtime.core.TimeText;
import io.eventtime.core.WindowQuery;
import io.eventtime.core.WindowSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.runners.flink.FlinkRunner;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.PeriodicImpulse;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;
import org.joda.time.Duration;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The stats counters of the live path on embedded Flink streaming, over a live input that ends (a
 * drain: every window still open is emitted), equal core's processor over the same partitions fed
 * whole and finished: rows_in, rows_out, late_dropped, windows_closed, rows_folded, rows_rejected.
 * The input is unbounded and finite: {@link PeriodicImpulse} ticks from a time in the past (so they
 * come at once) to a stop, tick {@code i} carrying the stream's row {@code i}, its Beam timestamp the
 * arrival stamp; the partitions interleave at random. The Flink tests that read Kafka never end,
 * so their counters are never final; this one's are.
 */
class FlinkLiveStatsTest {
  private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
  private static final Schema SCHEMA = Schema.builder().addFields(RandomKafkaStream.SCHEMA.getFields())
      .addInt32Field(KafkaRows.PARTITION_FIELD).addInt64Field(KafkaRows.OFFSET_FIELD).build();

  @Test
  void oneLivePartitionThatEnds_countsWhatCoreCounts() {
    Random random = new Random(20261204);
    assertStatsOnFlink(RandomKafkaStream.generate(random, 300), random);
  }

  @Test
  void threeLivePartitionsThatEnd_countWhatCoreCounts() {
    Random random = new Random(4122026);
    assertStatsOnFlink(RandomKafkaStream.generatePartitioned(random, 3, 60, false), random);
    assertStatsOnFlink(RandomKafkaStream.generatePartitioned(random, 3, 60, true), random);
  }

  /**
   * Many keys, so that every key bucket folds and reports, and intervals are forgotten once all have
   * passed them: each window kind once, the policies and the partitions taking turns (one job each,
   * to keep the suite short). Sessions over several partitions run under policy {@code event}: under
   * {@code window}, with keys spread over the partitions, how many sessions come out may depend on
   * how the partitions interleave (the contract's one exception, docs/semantics.md, example L4), and
   * this job's interleaving is the runner's.
   */
  @Test
  void manyKeysOverEveryBucket_countEachWindowOnce() {
    Random random = new Random(1204);
    List<WindowSpec> specs = List.of(WindowSpec.tumbling(60_000), WindowSpec.hopping(20_000, 60_000), WindowSpec.session(45_000));
    List<LatePolicy> policies = List.of(LatePolicy.EVENT, LatePolicy.WINDOW, LatePolicy.EVENT);
    for (int i = 0; i < specs.size(); i++) {
      WindowQuery query = WindowQuery.of(specs.get(i)).withKeys("user").withDelay(30_000)
          .withLatePolicy(policies.get(i))
          .withAggregates(AggregateSpec.countAll("n"), AggregateSpec.of(AggregateKind.SUM, "amount", "total"),
              AggregateSpec.of(AggregateKind.MAX, "amount", "high"));
      assertStatsOnFlink(new RandomKafkaStream(query, i == 0 ? List.of(manyKeys(random, 400))
          : List.of(manyKeys(random, 150), manyKeys(random, 150), manyKeys(random, 150))), random);
    }
  }

  /** Rows of 60 users, event times mostly rising, one in six behind. */
  private static List<String> manyKeys(Random random, int rows) {
    List<String> values = new ArrayList<>();
    long clock = java.time.Instant.parse("2026-05-01T08:00:00Z").toEpochMilli();
    for (int i = 0; i < rows; i++) {
      clock += random.nextInt(4000);
      long ts = random.nextInt(6) == 0 ? clock - random.nextInt(120_000) : clock;
      values.add("{\"user\":\"u" + random.nextInt(60) + "\",\"amount\":" + random.nextInt(1000)
          + ",\"event_time\":\"" + TimeText.format(ts) + "\"}");
    }
    return values;
  }

  private static void assertStatsOnFlink(RandomKafkaStream stream, Random random) {
    List<Integer> ids = new ArrayList<>();
    for (int p = 0; p < stream.partitions().size(); p++) {
      ids.add(p);
    }
    ArrayList<Row> arrivals = interleaved(stream, random);
    Pipeline p = Pipeline.create(options());
    PCollection<Row> rows = p
        .apply("Ticks", PeriodicImpulse.create().startAt(START).stopAt(START.plus(Duration.millis(arrivals.size())))
            .withInterval(Duration.millis(1)))
        .apply("Rows", ParDo.of(new TickToRowFn(arrivals))).setRowSchema(SCHEMA);
    rows.apply("Window", stream.transform(ids));
    PipelineResult result = p.run();
    assertThat(result.waitUntilFinish()).isEqualTo(PipelineResult.State.DONE);
    Stats expected = stream.replay(true).stats();
    assertThat(expected.windowsClosed()).as("the stream closes windows").isPositive();
    assertThat(EventTimeMetrics.stats(result, "Window")).as("query %s", stream.query()).isEqualTo(expected);
  }

  /** Every partition's rows in offset order, the partitions merged at random. */
  private static ArrayList<Row> interleaved(RandomKafkaStream stream, Random random) {
    int[] next = new int[stream.partitions().size()];
    int left = stream.partitions().stream().mapToInt(List::size).sum();
    ArrayList<Row> all = new ArrayList<>();
    while (left > 0) {
      int partition = random.nextInt(next.length);
      List<String> values = stream.partitions().get(partition);
      if (next[partition] < values.size()) {
        String v = values.get(next[partition]);
        String time = RandomKafkaStream.field(v, "event_time");
        all.add(Row.withSchema(SCHEMA).addValues(RandomKafkaStream.field(v, "user"),
            Long.parseLong(RandomKafkaStream.field(v, "amount")), time, partition, (long) next[partition]).build());
        next[partition]++;
        left--;
      }
    }
    return all;
  }

  /** Tick {@code i} (its time less the start, in ms) is arrival {@code i}, stamped with the tick's time. */
  private static final class TickToRowFn extends DoFn<Instant, Row> {
    private final ArrayList<Row> arrivals;

    TickToRowFn(ArrayList<Row> arrivals) {
      this.arrivals = arrivals;
    }

    @ProcessElement
    public void process(@Element Instant tick, OutputReceiver<Row> out) {
      long i = tick.getMillis() - START.getMillis();
      if (i < arrivals.size()) {
        out.output(arrivals.get((int) i));
      }
    }
  }

  /** Embedded Flink, streaming, attached (the run waits for the job's end), two tasks wide. */
  private static FlinkPipelineOptions options() {
    FlinkPipelineOptions o = PipelineOptionsFactory.create().as(FlinkPipelineOptions.class);
    o.setRunner(FlinkRunner.class);
    o.setFlinkMaster("[local]");
    o.setParallelism(2);
    o.setStreaming(true);
    return o;
  }
}
