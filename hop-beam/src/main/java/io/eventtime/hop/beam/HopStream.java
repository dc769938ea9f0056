package io.eventtime.hop.beam;

import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;

/**
 * The rows one Hop transform sends to another, translated: a Beam collection in a
 * {@link RowLayout}, with how many bits its arrival positions take and how far apart
 * consecutive rows are ({@link Arrivals}).
 */
record HopStream(PCollection<Row> rows, RowLayout layout, int widthBits, int spreadBits) {}
