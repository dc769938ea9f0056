package io.eventtime.beam;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.apache.beam.sdk.coders.RowCoder;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TimestampedValue;
import org.joda.time.Instant;

/**
 * Rows fed to a pipeline as a live stream with {@link TestStream}: each row stamped with its
 * arrival (never going back as the rows go on), the stream cut at random into stretches between
 * watermark advances, and each stretch delivered out of order in random bundles, as a runner may
 * deliver them. The end is {@code advanceWatermarkToInfinity}, the drain.
 */
final class LiveStreams {
  /** The arrival stamps start here (any time would do: they are not event times). */
  static final long FIRST_STAMP = Instant.parse("2026-06-01T00:00:00Z").getMillis();

  private LiveStreams() {}

  /**
   * The rows in arrival order, each stamped at or a few milliseconds after the one before: about
   * {@code perStamp} rows share a stamp, as records read together from a source do.
   */
  static List<TimestampedValue<Row>> stamped(List<Row> rows, Random random, int perStamp) {
    List<TimestampedValue<Row>> out = new ArrayList<>();
    long clock = FIRST_STAMP;
    for (Row r : rows) {
      out.add(TimestampedValue.of(r, new Instant(clock)));
      if (random.nextInt(perStamp) == 0) {
        clock += 1 + random.nextInt(3);
      }
    }
    return out;
  }

  /**
   * A TestStream of the stamped rows: cut (only between two stamps) into stretches of up to
   * {@code maxStretch} rows, each stretch shuffled and split into random bundles, the watermark
   * advanced past the stretch after it; then the drain.
   */
  static TestStream<Row> shuffled(Schema schema, List<TimestampedValue<Row>> arrivals, Random random, int maxStretch) {
    return shuffled(schema, arrivals, random, maxStretch, 4);
  }

  /** {@link #shuffled(Schema, List, Random, int)} in bundles of up to {@code maxBundle} rows. */
  static TestStream<Row> shuffled(Schema schema, List<TimestampedValue<Row>> arrivals, Random random, int maxStretch,
      int maxBundle) {
    TestStream.Builder<Row> stream = TestStream.create(RowCoder.of(schema));
    int i = 0;
    while (i < arrivals.size()) {
      int end = Math.min(arrivals.size(), i + 1 + random.nextInt(maxStretch));
      while (end < arrivals.size() && arrivals.get(end).getTimestamp().equals(arrivals.get(end - 1).getTimestamp())) {
        end++;
      }
      List<TimestampedValue<Row>> stretch = new ArrayList<>(arrivals.subList(i, end));
      Collections.shuffle(stretch, random);
      int at = 0;
      while (at < stretch.size()) {
        int bundle = Math.min(stretch.size(), at + 1 + random.nextInt(maxBundle));
        stream = addAll(stream, stretch.subList(at, bundle));
        at = bundle;
      }
      stream = stream.advanceWatermarkTo(arrivals.get(end - 1).getTimestamp().plus(org.joda.time.Duration.millis(1)));
      i = end;
    }
    return stream.advanceWatermarkToInfinity();
  }

  /** One row at a time, the watermark advanced half a second past each: row {@code i} is stamped {@code i} seconds in. */
  static TestStream<Row> oneByOne(Schema schema, List<Row> rows) {
    TestStream.Builder<Row> stream = TestStream.create(RowCoder.of(schema));
    for (int i = 0; i < rows.size(); i++) {
      Instant stamp = new Instant(FIRST_STAMP + 1000L * i);
      stream = stream.addElements(TimestampedValue.of(rows.get(i), stamp))
          .advanceWatermarkTo(stamp.plus(org.joda.time.Duration.millis(500)));
    }
    return stream.advanceWatermarkToInfinity();
  }

  @SuppressWarnings("unchecked")
  private static TestStream.Builder<Row> addAll(TestStream.Builder<Row> stream, List<TimestampedValue<Row>> bundle) {
    TimestampedValue<Row>[] rest = bundle.subList(1, bundle.size()).toArray(new TimestampedValue[0]);
    return stream.addElements(bundle.get(0), rest);
  }
}
