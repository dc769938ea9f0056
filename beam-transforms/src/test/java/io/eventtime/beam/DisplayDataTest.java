package io.eventtime.beam;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.core.AggregateKind;
import io.eventtime.core.EventTimeParser;
import io.eventtime.core.LatePolicy;
import io.eventtime.core.WindowSpec;
import java.time.ZoneId;
import java.util.Map;
import java.util.TreeMap;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.display.DisplayData;
import org.junit.jupiter.api.Test;

/** What a runner's UI shows of each transform: every item, its type, value and label. */
class DisplayDataTest {

  /** Each item as "TYPE value (label)", by key; a duration's value is in milliseconds. */
  private static Map<String, String> items(PTransform<?, ?> transform) {
    Map<String, String> shown = new TreeMap<>();
    for (DisplayData.Item item : DisplayData.from(transform).items()) {
      assertThat(item.getNamespace()).isEqualTo(transform.getClass());
      shown.put(item.getKey(), item.getType() + " " + item.getValue() + " (" + item.getLabel() + ")");
    }
    return shown;
  }

  @Test
  void hoppingWindowShowsItsQueryAndHowTimesAreRead() {
    EventTimeWindow window = EventTimeWindow.of(WindowSpec.hopping(30_000, 60_000).withOffset(5_000))
        .withTimeField("event_time")
        .withTimeParser(EventTimeParser.defaults().withPattern("dd/MM/yyyy HH:mm").withZone(ZoneId.of("Europe/Paris")))
        .withKeys("merchant", "country")
        .withAggregate(AggregateKind.COUNT_ALL, null, "n")
        .withAggregate(AggregateKind.SUM, "amount", "total")
        .withWatermarkDelay(java.time.Duration.ofMinutes(2))
        .withLatePolicy(LatePolicy.EVENT)
        .withBlockBits(8)
        .withCloseOrder();

    assertThat(items(window)).isEqualTo(Map.ofEntries(
        Map.entry("window", "STRING hopping (Window kind)"),
        Map.entry("windowSize", "DURATION 60000 (Window size)"),
        Map.entry("windowSlide", "DURATION 30000 (Window slide)"),
        Map.entry("windowOffset", "DURATION 5000 (Window offset)"),
        Map.entry("timeField", "STRING event_time (Event time field)"),
        Map.entry("timePattern", "STRING dd/MM/yyyy HH:mm (Event time pattern)"),
        Map.entry("timeZone", "STRING Europe/Paris (Event time zone)"),
        Map.entry("epochUnit", "STRING MILLISECONDS (Epoch number unit)"),
        Map.entry("keys", "STRING merchant, country (Group by)"),
        Map.entry("aggregates", "STRING count(*) AS n, sum(amount) AS total (Aggregates)"),
        Map.entry("watermarkDelay", "DURATION 120000 (Watermark delay)"),
        Map.entry("latePolicy", "STRING event (Late policy)"),
        Map.entry("arrivalField", "STRING _arrival (Arrival position field)"),
        Map.entry("windowFields", "STRING window_start, window_end (Window bound columns)"),
        Map.entry("blockBits", "INTEGER 8 (Arrival positions per block (bits))"),
        Map.entry("closeOrder", "BOOLEAN true (Window rows ranked in close order)")));
  }

  @Test
  void sessionWindowWithDefaultsShowsTheGapAndNoKeysOrAggregates() {
    EventTimeWindow window = EventTimeWindow.of(WindowSpec.session(300_000)).withTimeField("ts");

    assertThat(items(window)).isEqualTo(Map.ofEntries(
        Map.entry("window", "STRING session (Window kind)"),
        Map.entry("sessionGap", "DURATION 300000 (Session gap)"),
        Map.entry("timeField", "STRING ts (Event time field)"),
        Map.entry("timePattern", "STRING ISO-8601 (Event time pattern)"),
        Map.entry("timeZone", "STRING Z (Event time zone)"),
        Map.entry("epochUnit", "STRING MILLISECONDS (Epoch number unit)"),
        Map.entry("watermarkDelay", "DURATION 0 (Watermark delay)"),
        Map.entry("latePolicy", "STRING window (Late policy)"),
        Map.entry("arrivalField", "STRING _arrival (Arrival position field)"),
        Map.entry("windowFields", "STRING window_start, window_end (Window bound columns)"),
        Map.entry("blockBits", "INTEGER 10 (Arrival positions per block (bits))")));
  }

  @Test
  void tumblingWindowShowsItsSizeWithoutAnOffset() {
    assertThat(items(EventTimeWindow.of(WindowSpec.tumbling(60_000))))
        .containsEntry("window", "STRING tumbling (Window kind)")
        .containsEntry("windowSize", "DURATION 60000 (Window size)")
        .doesNotContainKeys("windowOffset", "windowSlide", "sessionGap", "timeField", "stateHandoff");
  }

  @Test
  void eventTimestampsShowsTheFieldAndHowItIsRead() {
    EventTimestamps stamps = EventTimestamps.fromField("event_time")
        .withParser(EventTimeParser.defaults().withEpochUnit(EventTimeParser.EpochUnit.SECONDS));

    assertThat(items(stamps)).isEqualTo(Map.of(
        "timeField", "STRING event_time (Event time field)",
        "timePattern", "STRING ISO-8601 (Event time pattern)",
        "timeZone", "STRING Z (Event time zone)",
        "epochUnit", "STRING SECONDS (Epoch number unit)"));
  }

  @Test
  void ndjsonReadShowsItsPatternsAndWhereTheSchemaComesFrom() {
    NdjsonIO.Read inferred = NdjsonIO.read("/data/a/*.ndjson").and("/data/b/*.ndjson").withSampleSize(50);
    assertThat(items(inferred)).isEqualTo(Map.of(
        "filePatterns", "STRING /data/a/*.ndjson, /data/b/*.ndjson (File patterns)",
        "schemaSampleSize", "INTEGER 50 (Schema inferred from lines)",
        "arrivalField", "STRING _arrival (Arrival position field)"));

    NdjsonIO.Read given = NdjsonIO.read("/data/*.ndjson")
        .withSchema(Schema.builder().addStringField("merchant").addInt64Field("amount").build());
    assertThat(items(given)).isEqualTo(Map.of(
        "filePatterns", "STRING /data/*.ndjson (File patterns)",
        "schema", "STRING [merchant STRING, amount INT64] (Schema)",
        "arrivalField", "STRING _arrival (Arrival position field)"));
  }

  @Test
  void arrivalPositionLinesShowTheirPatternAndFields() {
    assertThat(items(ArrivalPositions.ofLines("/logs/*.log"))).isEqualTo(Map.of(
        "filePattern", "STRING /logs/*.log (File pattern)",
        "lineField", "STRING line (Line field)",
        "arrivalField", "STRING _arrival (Arrival position field)"));
  }
}
