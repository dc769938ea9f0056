package io.eventtime.benchmarks.flink;

import io.eventtime.beam.EventTimeWindow;
import io.eventtime.beam.EventTimeWindowResult;
import io.eventtime.beam.KafkaRows;
import io.eventtime.beam.WindowSpecs;
import io.eventtime.core.AggregateKind;
import io.eventtime.core.AggregateSpec;
import io.eventtime.core.LatePolicy;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;

/**
 * Our side: {@link KafkaRows} reads the topic (one row per value, the offset as the arrival
 * position, the read time as the Beam timestamp), {@link EventTimeWindow} folds tumbling minutes
 * per key with count(*) and sum(amount) under the same delay as the peer's timestamp policy, and
 * the window rows go to the probe's sink; a late or rejected row is counted as unexpected (the
 * topic has none).
 */
final class EventTimeWindows {
  static final Schema VALUES = Schema.builder()
      .addStringField("key")
      .addInt64Field("amount")
      .addDateTimeField("event_time")
      .build();

  private EventTimeWindows() {}

  static final class Tap extends LiveProbe.ReadTap<Row> {
    Tap(long[] closingOffsets) {
      super(closingOffsets);
    }

    @Override
    long offset(Row r) {
      return r.getInt64(KafkaRows.OFFSET_FIELD);
    }
  }

  static final class SinkFn extends DoFn<Row, Void> {
    @ProcessElement
    public void process(@Element Row w) {
      LiveProbe.windowRow(w.getString("key"), w.getDateTime("window_start").getMillis(), w.getInt64("n"),
          w.getInt64("total"));
    }
  }

  static final class UnexpectedFn extends DoFn<Row, Void> {
    private final String output;

    UnexpectedFn(String output) {
      this.output = output;
    }

    @ProcessElement
    public void process(@Element Row r) {
      LiveProbe.unexpected(output + ": " + r);
    }
  }

  /** Adds the read, the transform and the probe's sinks to {@code p}. */
  static void addTo(Pipeline p, String bootstrapServers, String topic, long[] closingOffsets) {
    KafkaRows.Result in = p.apply("ReadKafka", KafkaRows.read().withBootstrapServers(bootstrapServers).withTopic(topic)
        .withStartPosition(KafkaRows.EARLIEST).withSchema(VALUES));
    PCollection<Row> rows = in.rows().apply("ReadTap", ParDo.of(new Tap(closingOffsets)))
        .setRowSchema(in.rows().getSchema());
    EventTimeWindowResult r = rows.apply("EventTimeWindow",
        EventTimeWindow.of(WindowSpecs.tumbling(LiveEvents.WINDOW_MILLIS))
            .withTimeField("event_time")
            .withKeys("key")
            .withAggregates(AggregateSpec.countAll("n"), AggregateSpec.of(AggregateKind.SUM, "amount", "total"))
            .withWatermarkDelay(LiveEvents.DELAY_MILLIS)
            .withLatePolicy(LatePolicy.WINDOW));
    r.windows().apply("Sink", ParDo.of(new SinkFn()));
    r.late().apply("Late", ParDo.of(new UnexpectedFn("late")));
    r.rejected().apply("Rejected", ParDo.of(new UnexpectedFn("rejected")));
    in.rejected().apply("ReadRejected", ParDo.of(new UnexpectedFn("read rejected")));
  }
}
