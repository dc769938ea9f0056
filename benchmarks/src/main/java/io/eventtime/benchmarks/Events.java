package io.eventtime.benchmarks;

import io.eventtime.beam.EventTimeWindow;
import io.eventtime.core.AggregateKind;
import io.eventtime.core.AggregateSpec;
import io.eventtime.core.Key;
import io.eventtime.core.LatePolicy;
import io.eventtime.core.WindowQuery;
import io.eventtime.core.WindowSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.values.Row;

/**
 * The events every benchmark runs over: {@value #COUNT} events of {@value #KEYS} keys (or the first
 * {@code count} of that stream, see {@link #get(int)}), drawn from a fixed seed, so that every
 * benchmark (and every JMH fork) sees the very same stream.
 *
 * <p>Event time advances by 0 to 2 ms per arrival (about 1,000 events per second of event time,
 * so the stream covers about 17 minutes and each key has about one event a second). One event in
 * {@value #HELD_BACK_ONE_IN} arrives held back by up to a minute: that is the disorder, and with
 * a {@value #DELAY_MILLIS} ms watermark delay part of those rows are late.
 */
public final class Events {
  public static final int COUNT = 1_000_000;
  public static final int KEYS = 1_000;
  public static final long SEED = 20260718L;
  public static final int HELD_BACK_ONE_IN = 20;
  public static final int MAX_HOLD_MILLIS = 60_000;
  public static final long DELAY_MILLIS = 5_000;
  public static final long MINUTE = 60_000;
  public static final long SESSION_GAP_MILLIS = 2_000;
  static final long START = java.time.Instant.parse("2026-07-18T10:00:00Z").toEpochMilli();

  /** The schema of the Beam rows: key, amount, event_time and the arrival position. */
  public static final Schema SCHEMA = Schema.builder()
      .addStringField("key")
      .addInt64Field("amount")
      .addDateTimeField("event_time")
      .addInt64Field(EventTimeWindow.DEFAULT_ARRIVAL_FIELD)
      .build();

  private static Events shared;
  private static List<Row> sharedRows;

  /** How many events. */
  public final int count;
  /** Per arrival: the key's index, the event time in epoch ms, the amount. */
  public final int[] key;
  public final long[] eventTime;
  public final long[] amount;
  public final String[] keyNames = new String[KEYS];

  private Events(int count) {
    this.count = count;
    key = new int[count];
    eventTime = new long[count];
    amount = new long[count];
    for (int k = 0; k < KEYS; k++) {
      keyNames[k] = String.format("k%04d", k);
    }
    Random random = new Random(SEED);
    long clock = START;
    for (int i = 0; i < count; i++) {
      clock += random.nextInt(3);
      eventTime[i] = random.nextInt(HELD_BACK_ONE_IN) == 0 ? clock - random.nextInt(MAX_HOLD_MILLIS) : clock;
      key[i] = random.nextInt(KEYS);
      amount[i] = random.nextInt(1000);
    }
  }

  /** The {@value #COUNT} events, generated on first use and shared by every benchmark in this JVM. */
  public static Events get() {
    return get(COUNT);
  }

  /**
   * The first {@code count} events of the same seeded stream (the generator draws each event in
   * turn, so a shorter run sees a prefix of the longer one), generated on first use and shared.
   */
  public static synchronized Events get(int count) {
    if (count < 1) {
      throw new IllegalArgumentException("the event count must be at least 1, not " + count);
    }
    if (shared == null || shared.count != count) {
      shared = new Events(count);
      sharedRows = null;
    }
    return shared;
  }

  /** The core keys, one per distinct key, as a source would hand them over. */
  public Key[] coreKeys() {
    Key[] keys = new Key[KEYS];
    for (int k = 0; k < KEYS; k++) {
      keys[k] = Key.of(keyNames[k]);
    }
    return keys;
  }

  /** Each event's aggregate inputs for count(*) and sum(amount), boxed once, outside the measurement. */
  public Object[][] countAndSumInputs() {
    Object[][] inputs = new Object[count][];
    for (int i = 0; i < count; i++) {
      inputs[i] = new Object[] {null, amount[i]};
    }
    return inputs;
  }

  /**
   * The events as Beam rows, with their arrival position (1-based, as NdjsonIO numbers lines),
   * built on first use and shared: rows are immutable, so every pipeline run can hand on the same.
   */
  public static List<Row> rows() {
    return rows(COUNT);
  }

  /** The first {@code count} events as Beam rows (see {@link #rows()} and {@link #get(int)}). */
  public static synchronized List<Row> rows(int count) {
    Events events = get(count);
    if (sharedRows == null) {
      List<Row> rows = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        rows.add(Row.withSchema(SCHEMA)
            .addValues(events.keyNames[events.key[i]], events.amount[i], new org.joda.time.Instant(events.eventTime[i]),
                (long) i + 1)
            .build());
      }
      sharedRows = List.copyOf(rows);
    }
    return sharedRows;
  }

  /** The window spec a benchmark parameter names: 1 min tumbling, 1 min every 30 s, or a 2 s session gap. */
  public static WindowSpec spec(String name) {
    switch (name) {
      case "tumbling":
        return WindowSpec.tumbling(MINUTE);
      case "hopping":
        return WindowSpec.hopping(30_000, MINUTE);
      case "session":
        return WindowSpec.session(SESSION_GAP_MILLIS);
      default:
        throw new IllegalArgumentException("unknown window '" + name + "': use tumbling, hopping or session");
    }
  }

  /** count(*) and sum(amount) per key, with the delay and the named late policy. */
  public static WindowQuery query(String window, String policy) {
    return WindowQuery.of(spec(window))
        .withKeys("key")
        .withAggregates(AggregateSpec.countAll("n"), AggregateSpec.of(AggregateKind.SUM, "amount", "total"))
        .withDelay(DELAY_MILLIS)
        .withLatePolicy(LatePolicy.parse(policy));
  }
}
