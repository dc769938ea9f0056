package io.eventtime.hop.beam;

import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;

/**
 * The rows one Hop transform sends to another, translated: a Beam collection in a
 * {@link RowLayout}, with how many bits its arrival positions take and how far apart
 * consecutive rows are ({@link Arrivals}); {@code ranked} when the positions are ranks 0, 1, ...
 * with no gap (an Event Time Window's rows), so that a writer can put rows that come in another
 * order back in order.
 */
record HopStream(PCollection<Row> rows, RowLayout layout, int widthBits, int spreadBits, boolean ranked) {
  HopStream(PCollection<Row> rows, RowLayout layout, int widthBits, int spreadBits) {
    this(rows, layout, widthBits, spreadBits, false);
  }

  /** The same stream, its positions known to be ranks with no gap. */
  HopStream asRanked() {
    return new HopStream(rows, layout, widthBits, spreadBits, true);
  }
}
