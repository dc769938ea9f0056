package io.eventtime.beam;

import io.eventtime.core.AggregateKind;
import io.eventtime.core.AggregateSpec;
import io.eventtime.core.EventTimeParser;
import io.eventtime.core.Key;
import io.eventtime.core.LatePolicy;
import io.eventtime.core.TimeText;
import io.eventtime.core.WindowProcessor;
import io.eventtime.core.WindowQuery;
import io.eventtime.core.WindowSpec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.StringJoiner;
import org.apache.beam.sdk.schemas.Schema;

/**
 * One random one-partition stream for a Kafka topic: a random query (window kind, delay, late
 * policy) and JSON values in offset order, with disordered event times, late rows and rows whose
 * time cannot be read. {@link #expected()} is the contract's answer for a stream that never ends:
 * what core's {@link WindowProcessor} emits over the same rows in offset order, without the end
 * of input (the windows the last watermark closes, the late rows, the rejected rows), each under
 * the identity {@link RowFiles} files it by.
 */
record RandomKafkaStream(WindowQuery query, List<String> values) {
  static final Schema SCHEMA = Schema.builder().addStringField("user").addInt64Field("amount")
      .addNullableField("event_time", Schema.FieldType.STRING).build();
  private static final String[] USERS = {"ann", "bob", "cid"};

  static RandomKafkaStream generate(Random random, int rows) {
    WindowSpec spec = switch (random.nextInt(3)) {
      case 0 -> WindowSpec.tumbling(60_000);
      case 1 -> WindowSpec.hopping(20_000, 60_000);
      default -> WindowSpec.session(45_000);
    };
    WindowQuery query = WindowQuery.of(spec).withKeys("user")
        .withDelay(random.nextBoolean() ? 0 : 30_000)
        .withLatePolicy(LatePolicy.values()[random.nextInt(LatePolicy.values().length)])
        .withAggregates(AggregateSpec.countAll("n"), AggregateSpec.of(AggregateKind.SUM, "amount", "total"),
            AggregateSpec.of(AggregateKind.MAX, "amount", "high"));
    List<String> values = new ArrayList<>();
    long clock = Instant.parse("2026-05-01T08:00:00Z").toEpochMilli();
    int users = 1 + random.nextInt(USERS.length);
    for (int i = 0; i < rows; i++) {
      clock += random.nextInt(8000);
      long ts = random.nextInt(6) == 0 ? clock - random.nextInt(120_000) : clock;
      String time = random.nextInt(40) == 0 ? "not a time" : TimeText.format(ts);
      values.add("{\"user\":\"" + USERS[random.nextInt(users)] + "\",\"amount\":" + (random.nextInt(1000) - 100)
          + ",\"event_time\":\"" + time + "\"}");
    }
    return new RandomKafkaStream(query, values);
  }

  EventTimeWindow transform() {
    return EventTimeWindow.of(query).withTimeField("event_time");
  }

  /** The expected files of each folder ({@code windows}, {@code late}, {@code rejected}): identity to content. */
  Map<String, Map<String, String>> expected() {
    Map<String, String> windows = new HashMap<>();
    Map<String, String> late = new HashMap<>();
    Map<String, String> rejected = new HashMap<>();
    WindowProcessor p = new WindowProcessor(query, w -> {
      StringJoiner j = new StringJoiner("|");
      for (int i = 0; i < w.key().size(); i++) {
        j.add(ConformanceSuite.formatValue(w.key().get(i)));
      }
      j.add(TimeText.format(w.start())).add(TimeText.format(w.end()));
      String identity = j.toString();
      for (Object v : w.values()) {
        j.add(ConformanceSuite.formatValue(v));
      }
      windows.put(identity, j.toString());
    });
    EventTimeParser parser = EventTimeParser.defaults();
    for (int offset = 0; offset < values.size(); offset++) {
      String value = values.get(offset);
      String user = field(value, "user");
      long amount = Long.parseLong(field(value, "amount"));
      long ts;
      try {
        ts = parser.parse(field(value, "event_time"));
      } catch (RuntimeException noTime) {
        p.reject();
        rejected.put(String.valueOf(offset), String.valueOf(offset));
        continue;
      }
      if (!p.process(Key.of(user), ts, new Object[] {null, amount, amount})) {
        late.put(String.valueOf(offset), offset + "|arrival " + offset + ": " + p.lateReason(ts));
      }
    }
    // no p.finish(): the stream never ends, so the windows still open stay open
    return Map.of("windows", windows, "late", late, "rejected", rejected);
  }

  /** A field of one of this class's JSON values (flat, no escapes). */
  private static String field(String json, String name) {
    int at = json.indexOf("\"" + name + "\":") + name.length() + 3;
    int end = json.indexOf(json.charAt(at) == '"' ? '"' : ',', at + 1);
    return json.charAt(at) == '"' ? json.substring(at + 1, end) : json.substring(at, end < 0 ? json.length() - 1 : end);
  }
}
