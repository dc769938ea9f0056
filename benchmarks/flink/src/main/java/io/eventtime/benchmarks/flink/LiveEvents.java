package io.eventtime.benchmarks.flink;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;

/**
 * The topic both sides of {@link FlinkLiveBenchmark} read, generated from a fixed seed, so that the
 * producing JVM and every job JVM know the same events without passing them around: {@code count}
 * events of {@value #KEYS} keys, event time advancing 0 to 2 ms per event (about 1,000 events per
 * second of event time: 1M events span about 17 minutes, 17 one-minute windows per key). One event
 * in {@value #HELD_BACK_ONE_IN} is held back by up to {@value #MAX_HOLD_MILLIS} ms: the disorder.
 * It stays inside the {@value #DELAY_MILLIS} ms watermark delay, so that no row is late on either
 * side and both fold every row: the two sides then owe exactly the same window rows (a row behind
 * the watermark would be decided differently, since plain Beam's watermark moves per bundle).
 *
 * <p>After the events comes one closing event of key {@value #CLOSING_KEY}, far enough ahead in
 * event time that the watermark after it closes every window of the events on both sides.
 */
final class LiveEvents {
  static final int KEYS = 1_000;
  static final long SEED = 20261203L;
  static final int HELD_BACK_ONE_IN = 20;
  static final int MAX_HOLD_MILLIS = 4_000;
  static final long DELAY_MILLIS = 5_000;
  static final long WINDOW_MILLIS = 60_000;
  static final String CLOSING_KEY = "~closing";
  static final long START = Instant.parse("2026-07-18T10:00:00Z").toEpochMilli();

  final int count;
  /** Per event, in offset order (the closing event last, at {@code count}): key index (-1 closing), event time, amount. */
  final int[] key;
  final long[] eventTime;
  final long[] amount;

  private LiveEvents(int count) {
    this.count = count;
    key = new int[count + 1];
    eventTime = new long[count + 1];
    amount = new long[count + 1];
    Random random = new Random(SEED);
    long clock = START;
    for (int i = 0; i < count; i++) {
      clock += random.nextInt(3);
      eventTime[i] = random.nextInt(HELD_BACK_ONE_IN) == 0 ? clock - random.nextInt(MAX_HOLD_MILLIS) : clock;
      key[i] = random.nextInt(KEYS);
      amount[i] = random.nextInt(1000);
    }
    key[count] = -1;
    eventTime[count] = clock + DELAY_MILLIS + WINDOW_MILLIS;
    amount[count] = 0;
  }

  static LiveEvents of(int count) {
    return new LiveEvents(count);
  }

  /** How many records the topic has: the events and the closing one. */
  int records() {
    return count + 1;
  }

  static String keyName(int k) {
    return k < 0 ? CLOSING_KEY : String.format("k%04d", k);
  }

  /** The record value at {@code offset}: one JSON object, as a user's producer would write it. */
  byte[] value(int offset) {
    return ("{\"key\":\"" + keyName(key[offset]) + "\",\"amount\":" + amount[offset] + ",\"event_time\":\""
        + Instant.ofEpochMilli(eventTime[offset]) + "\"}").getBytes(StandardCharsets.UTF_8);
  }

  /** One window row: a key's window, by its start, with count(*) and sum(amount). */
  record WindowRow(String key, long start, long count, long sum) {}

  /** Every window row of the events (not the closing event's): what each side must emit, keyed by key and start. */
  Map<String, WindowRow> expectedWindows() {
    Map<String, long[]> folded = new HashMap<>();
    for (int i = 0; i < count; i++) {
      long start = Math.floorDiv(eventTime[i], WINDOW_MILLIS) * WINDOW_MILLIS;
      long[] a = folded.computeIfAbsent(id(keyName(key[i]), start), x -> new long[2]);
      a[0]++;
      a[1] += amount[i];
    }
    Map<String, WindowRow> rows = new HashMap<>();
    folded.forEach((id, a) -> {
      int bar = id.indexOf('|');
      rows.put(id, new WindowRow(id.substring(0, bar), Long.parseLong(id.substring(bar + 1)), a[0], a[1]));
    });
    return rows;
  }

  static String id(String key, long start) {
    return key + "|" + start;
  }

  /**
   * For each window end, the offset of the event that closes it: the first after which the
   * watermark (the latest event time so far less the delay) reaches the end. Window ends are
   * {@code first + i * WINDOW_MILLIS}; the array holds the offsets by {@code i}.
   */
  long firstWindowEnd() {
    long min = Arrays.stream(eventTime, 0, count).min().orElseThrow();
    return Math.floorDiv(min, WINDOW_MILLIS) * WINDOW_MILLIS + WINDOW_MILLIS;
  }

  long[] closingOffsets() {
    long firstEnd = firstWindowEnd();
    long lastStart = Math.floorDiv(Arrays.stream(eventTime, 0, count).max().orElseThrow(), WINDOW_MILLIS) * WINDOW_MILLIS;
    int ends = (int) ((lastStart + WINDOW_MILLIS - firstEnd) / WINDOW_MILLIS) + 1;
    long[] closing = new long[ends];
    long max = Long.MIN_VALUE;
    int next = 0;
    for (int i = 0; i <= count && next < ends; i++) {
      max = Math.max(max, eventTime[i]);
      while (next < ends && max - DELAY_MILLIS >= firstEnd + next * WINDOW_MILLIS) {
        closing[next++] = i;
      }
    }
    if (next < ends) {
      throw new IllegalStateException("the closing event does not close every window: " + next + " of " + ends);
    }
    return closing;
  }
}
