package io.eventtime.beam;

import io.eventtime.core.AggregateKind;
import io.eventtime.core.AggregateSpec;
import io.eventtime.core.EventTimeParser;
import io.eventtime.core.Key;
import io.eventtime.core.LatePolicy;
import io.eventtime.core.PartitionedWindowProcessor;
import io.eventtime.core.Stats;
import io.eventtime.core.TimeText;
import io.eventtime.core.WindowQuery;
import io.eventtime.core.WindowSpec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.StringJoiner;
import java.util.function.Supplier;
import org.apache.beam.sdk.schemas.Schema;

/**
 * One random stream for a Kafka topic: a random query (window kind, delay, late policy) and each
 * partition's JSON values in offset order, with disordered event times, late rows and rows whose
 * time cannot be read. A stream of one partition is read without a partition field (a
 * one-partition live stream); one of several with {@link KafkaRows#PARTITION_FIELD} and the
 * topic's partitions. {@link #expected()} is the contract's answer for a stream that never ends:
 * what core's {@link PartitionedWindowProcessor} (with one partition, {@code WindowProcessor})
 * emits over the same partitions, each whole in offset order, without the end of input (the
 * windows the least watermark closes, the late rows, the rejected rows), each under the identity
 * {@link RowFiles} files it by.
 */
record RandomKafkaStream(WindowQuery query, List<List<String>> partitions) {
  static final Schema SCHEMA = Schema.builder().addStringField("user").addInt64Field("amount")
      .addNullableField("event_time", Schema.FieldType.STRING).build();
  private static final String[] USERS = {"ann", "bob", "cid"};
  /** With several partitions: the keys of partition p's own (confined), and the keys every partition has (spread). */
  private static final String[] CONFINED = {"dee", "eve", "fay", "gus"};
  private static final String[] SPREAD = {"ann", "bob"};
  static final int MAX_PARTITIONS = CONFINED.length;
  private static final int BURST_ROWS = 10;
  private static final long PAUSE_MILLIS = 150_000;

  /** A one-partition stream of {@code rows} rows, of a random window kind. */
  static RandomKafkaStream generate(Random random, int rows) {
    WindowSpec spec = switch (random.nextInt(3)) {
      case 0 -> WindowSpec.tumbling(60_000);
      case 1 -> WindowSpec.hopping(20_000, 60_000);
      default -> WindowSpec.session(45_000);
    };
    WindowQuery query = query(spec, random.nextBoolean() ? 0 : 30_000,
        LatePolicy.values()[random.nextInt(LatePolicy.values().length)]);
    int users = 1 + random.nextInt(USERS.length);
    return new RandomKafkaStream(query, List.of(values(random, rows, () -> USERS[random.nextInt(users)], false)));
  }

  /**
   * A stream of {@code partitions} partitions (at most {@link #MAX_PARTITIONS}) of {@code rows}
   * rows each: sessions under policy {@code event} (with a key spread over partitions, the other
   * policies' answer may depend on the interleaving: docs/semantics.md, "Live, partitioned
   * streams"), or tumbling or hopping windows under any policy. Half the rows have a key of their
   * partition's own, half one of the keys every partition has. With sessions the event times come
   * in bursts, the pauses at about the same times in every partition, so that sessions of a key
   * spread over the partitions close too.
   */
  static RandomKafkaStream generatePartitioned(Random random, int partitions, int rows, boolean sessions) {
    if (partitions > MAX_PARTITIONS) {
      throw new IllegalArgumentException(partitions + " partitions: at most " + MAX_PARTITIONS);
    }
    WindowQuery query = sessions
        ? query(WindowSpec.session(45_000), random.nextBoolean() ? 0 : 30_000, LatePolicy.EVENT)
        : query(random.nextBoolean() ? WindowSpec.tumbling(60_000) : WindowSpec.hopping(20_000, 60_000),
            random.nextBoolean() ? 0 : 30_000, LatePolicy.values()[random.nextInt(LatePolicy.values().length)]);
    List<List<String>> all = new ArrayList<>();
    for (int p = 0; p < partitions; p++) {
      String own = CONFINED[p];
      all.add(values(random, rows, () -> random.nextBoolean() ? own : SPREAD[random.nextInt(SPREAD.length)], sessions));
    }
    return new RandomKafkaStream(query, all);
  }

  private static WindowQuery query(WindowSpec spec, long delay, LatePolicy policy) {
    return WindowQuery.of(spec).withKeys("user").withDelay(delay).withLatePolicy(policy)
        .withAggregates(AggregateSpec.countAll("n"), AggregateSpec.of(AggregateKind.SUM, "amount", "total"),
            AggregateSpec.of(AggregateKind.MAX, "amount", "high"));
  }

  /**
   * One partition's values: event times mostly rising, one in six behind, one in forty unreadable;
   * with {@code bursts}, a pause of {@value #PAUSE_MILLIS} ms (more than the session gap) after
   * every {@value #BURST_ROWS} rows.
   */
  private static List<String> values(Random random, int rows, Supplier<String> user, boolean bursts) {
    List<String> values = new ArrayList<>();
    long clock = Instant.parse("2026-05-01T08:00:00Z").toEpochMilli();
    for (int i = 0; i < rows; i++) {
      clock += random.nextInt(8000) + (bursts && i > 0 && i % BURST_ROWS == 0 ? PAUSE_MILLIS : 0);
      long ts = random.nextInt(6) == 0 ? clock - random.nextInt(120_000) : clock;
      String time = random.nextInt(40) == 0 ? "not a time" : TimeText.format(ts);
      values.add("{\"user\":\"" + user.get() + "\",\"amount\":" + (random.nextInt(1000) - 100)
          + ",\"event_time\":\"" + time + "\"}");
    }
    return values;
  }

  /** The values of a one-partition stream. */
  List<String> values() {
    if (partitions.size() != 1) {
      throw new IllegalStateException("a stream of " + partitions.size() + " partitions: take them by partition");
    }
    return partitions.get(0);
  }

  boolean partitioned() {
    return partitions.size() > 1;
  }

  /** The window for this stream: with several partitions, by the partition field, over {@code topicPartitions}. */
  EventTimeWindow transform(List<Integer> topicPartitions) {
    EventTimeWindow w = EventTimeWindow.of(query).withTimeField("event_time");
    return partitioned() ? w.withPartitionField(KafkaRows.PARTITION_FIELD).withPartitions(topicPartitions) : w;
  }

  /**
   * The expected files of each folder ({@code windows}, {@code late}, {@code rejected}): identity
   * to content. The partitions are fed one after the other, each whole: the contract's answer does
   * not depend on how they interleave.
   */
  Map<String, Map<String, String>> expected() {
    return replay(false).files();
  }

  /** The files of each folder and the stats, as {@link #expected()}'s, for the stream fed whole and then ended: {@code drained} emits the windows still open. */
  record Replay(Map<String, Map<String, String>> files, Stats stats) {}

  Replay replay(boolean drained) {
    Map<String, String> windows = new HashMap<>();
    Map<String, String> late = new HashMap<>();
    Map<String, String> rejected = new HashMap<>();
    PartitionedWindowProcessor p = new PartitionedWindowProcessor(query, partitions.size(), w -> {
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
    for (int partition = 0; partition < partitions.size(); partition++) {
      List<String> values = partitions.get(partition);
      for (int offset = 0; offset < values.size(); offset++) {
        String value = values.get(offset);
        String identity = RowFiles.identity(partition, offset);
        long amount = Long.parseLong(field(value, "amount"));
        long ts;
        try {
          ts = parser.parse(field(value, "event_time"));
        } catch (RuntimeException noTime) {
          p.reject(partition);
          rejected.put(identity, identity);
          continue;
        }
        if (!p.process(partition, Key.of(field(value, "user")), ts, new Object[] {null, amount, amount})) {
          String where = (partitioned() ? "partition " + partition + ", " : "") + "arrival " + offset;
          late.put(identity, identity + "|" + where + ": " + p.lateReason(partition, ts));
        }
      }
    }
    if (drained) {
      p.finish();
    } // else the stream never ends, so the windows still open stay open
    return new Replay(Map.of("windows", windows, "late", late, "rejected", rejected), p.stats());
  }

  /** A field of one of this class's JSON values (flat, no escapes). */
  static String field(String json, String name) {
    int at = json.indexOf("\"" + name + "\":") + name.length() + 3;
    int end = json.indexOf(json.charAt(at) == '"' ? '"' : ',', at + 1);
    return json.charAt(at) == '"' ? json.substring(at + 1, end) : json.substring(at, end < 0 ? json.length() - 1 : end);
  }
}
