package io.eventtime.beam;

import io.eventtime.core.EventTimeParser;
import io.eventtime.core.WindowSpec;
import org.apache.beam.sdk.transforms.display.DisplayData;
import org.joda.time.Duration;

/**
 * The display data the transforms share, so that a runner's UI (Flink's web UI, Dataflow's)
 * names a window spec and a time parser the same way on every transform that has one.
 */
final class DisplayItems {
  private DisplayItems() {}

  /** The window kind, then its size and slide, or its gap, as durations; an offset only if set. */
  static void window(DisplayData.Builder builder, WindowSpec spec) {
    builder.add(DisplayData.item("window", spec.kind()).withLabel("Window kind"));
    if (spec instanceof WindowSpec.Tumbling t) {
      builder.add(DisplayData.item("windowSize", Duration.millis(t.sizeMillis())).withLabel("Window size"));
      offset(builder, t.offsetMillis());
    } else if (spec instanceof WindowSpec.Hopping h) {
      builder.add(DisplayData.item("windowSize", Duration.millis(h.sizeMillis())).withLabel("Window size"));
      builder.add(DisplayData.item("windowSlide", Duration.millis(h.slideMillis())).withLabel("Window slide"));
      offset(builder, h.offsetMillis());
    } else if (spec instanceof WindowSpec.Session s) {
      builder.add(DisplayData.item("sessionGap", Duration.millis(s.gapMillis())).withLabel("Session gap"));
    }
  }

  private static void offset(DisplayData.Builder builder, long offsetMillis) {
    if (offsetMillis != 0) {
      builder.add(DisplayData.item("windowOffset", Duration.millis(offsetMillis)).withLabel("Window offset"));
    }
  }

  /** How event times are read: the pattern (ISO-8601 when none), the zone and the epoch unit. */
  static void parser(DisplayData.Builder builder, EventTimeParser parser) {
    builder.add(DisplayData.item("timePattern", parser.pattern() == null ? "ISO-8601" : parser.pattern())
        .withLabel("Event time pattern"));
    builder.add(DisplayData.item("timeZone", parser.zone().getId()).withLabel("Event time zone"));
    builder.add(DisplayData.item("epochUnit", parser.epochUnit().name()).withLabel("Epoch number unit"));
  }
}
