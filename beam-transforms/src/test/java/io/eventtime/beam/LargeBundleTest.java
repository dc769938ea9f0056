package io.eventtime.beam;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.core.AggregateKind;
import io.eventtime.core.AggregateSpec;
import io.eventtime.core.Stats;
import io.eventtime.core.TimeText;
import io.eventtime.core.WindowSpec;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.transforms.Count;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.Sum;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.joda.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * A bundle larger than what the transform holds at once (positions and times, partial
 * aggregates): what it hands on early is merged like what other bundles hand on.
 */
class LargeBundleTest {
  private static final int ROWS = 100_000;
  private static final long START = 1_772_323_200_000L; // 2026-03-01 00:00:00
  private static final Schema SCHEMA = Schema.builder().addStringField("k").addInt64Field("amount")
      .addDateTimeField("t").addInt64Field("_arrival").build();

  @Test
  void aBundleOfAHundredThousandKeysGivesEveryWindowOnce() {
    Pipeline p = Pipeline.create(PipelineOptionsFactory.fromArgs("--runner=DirectRunner").create());
    // one element in, all rows out of it: the DirectRunner hands them on as one bundle
    PCollection<Row> rows = p.apply(Create.of(ROWS)).apply(ParDo.of(new RowsFn())).setRowSchema(SCHEMA);
    EventTimeWindowResult r = rows.apply(EventTimeWindow.of(WindowSpec.tumbling(60_000)).withTimeField("t")
        .withKeys("k").withWatermarkDelay(java.time.Duration.ofSeconds(5))
        .withAggregates(AggregateSpec.countAll("n"), AggregateSpec.of(AggregateKind.SUM, "amount", "total")));
    PCollection<KV<String, Long>> rowsPerWindow = r.windows()
        .apply("WindowStart", MapElements.into(TypeDescriptors.strings())
            .via((Row w) -> TimeText.format(w.getDateTime("window_start").getMillis()) + " n=" + w.getInt64("n")))
        .apply("PerWindow", Count.perElement());
    // key i has rows i and i + 50,000 (1 ms apart each): both in the window of the first or the second minute
    PAssert.that(rowsPerWindow).containsInAnyOrder(
        KV.of("2026-03-01 00:00:00 n=2", 10_000L), KV.of("2026-03-01 00:00:00 n=1", 40_000L),
        KV.of("2026-03-01 00:01:00 n=1", 40_000L));
    PAssert.that(r.windows().apply("Amounts", MapElements.into(TypeDescriptors.longs()).via((Row w) -> w.getInt64("total")))
        .apply("Total", Sum.longsGlobally())).containsInAnyOrder((long) ROWS * (ROWS - 1) / 2);
    PipelineResult result = p.run();
    result.waitUntilFinish();
    assertThat(EventTimeMetrics.stats(result)).isEqualTo(new Stats(ROWS, 90_000, 0, 2, ROWS, 0));
  }

  /** Row i: key i mod 50,000, amount i, event time START + i ms, arrival i. */
  static final class RowsFn extends DoFn<Integer, Row> {
    @ProcessElement
    public void process(@Element Integer n, OutputReceiver<Row> out) {
      for (long i = 0; i < n; i++) {
        out.output(Row.withSchema(SCHEMA).addValues("k" + i % 50_000, i, new Instant(START + i), i).build());
      }
    }
  }
}
