package io.eventtime.beam;

import io.eventtime.core.AggregateKind;
import io.eventtime.core.AggregateSpec;
import io.eventtime.core.EventTimeParser;
import io.eventtime.core.Key;
import io.eventtime.core.LatePolicy;
import io.eventtime.core.Stats;
import io.eventtime.core.TimeText;
import io.eventtime.core.WindowProcessor;
import io.eventtime.core.WindowQuery;
import io.eventtime.core.WindowSpec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.StringJoiner;
import java.util.TreeMap;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.values.Row;

/**
 * Many independent random one-partition streams carried by a few live streams, so that a soak of
 * thousands costs a few pipelines rather than thousands. The streams fall into {@link #FAMILIES}
 * families, one per query (window kind, late policy, delay); a family's streams follow each other
 * in one partition, each a fixed {@value #SPAN_MILLIS} ms of event time after the one before, and
 * the query's key holds the stream's id. A stream's rows are then judged as if it were alone: its
 * first row sees the last stream's watermark, far behind its own times (where alone it would see
 * none: neither makes a row late), every later row its own prefix's, and its open windows close at
 * the next stream's first row (alone, at the end of input). {@link #expected} gives each stream's
 * answer from core's {@link WindowProcessor} over its own rows; {@link #checkIndependence} asserts
 * the argument above by feeding the whole family to one processor, so the construction itself is
 * tested.
 */
final class SoakStreams {
  static final int FAMILIES = 12;
  static final long SPAN_MILLIS = 3_600_000;
  static final String STREAM_FIELD = "stream";
  /** The fields of a row (the live input adds the arrival position). */
  static final Schema VALUES = Schema.builder().addInt64Field(STREAM_FIELD).addStringField("user")
      .addInt64Field("amount").addNullableField("event_time", Schema.FieldType.STRING)
      .addNullableField("tag", Schema.FieldType.STRING).build();
  private static final String[] USERS = {"ann", "bob", "cid", "dee"};
  private static final EventTimeParser PARSER = EventTimeParser.defaults();
  private static final long START = Instant.parse("2026-05-01T08:00:00Z").toEpochMilli();

  private SoakStreams() {}

  /** One stream's row: its fields, the time as text (null, or not a time, for a row to be rejected). */
  record Value(long stream, String user, long amount, String time, String tag) {
    Row row(Schema schema, long position) {
      return Row.withSchema(schema).addValues(stream, user, amount, time, tag, position).build();
    }

    String json() {
      return "{\"stream\":" + stream + ",\"user\":\"" + user + "\",\"amount\":" + amount + ",\"event_time\":"
          + (time == null ? "null" : "\"" + time + "\"") + ",\"tag\":" + (tag == null ? "null" : "\"" + tag + "\"") + "}";
    }
  }

  /** One family: its query and its streams' rows, the streams one after the other in arrival order. */
  record Family(int id, WindowQuery query, List<List<Value>> streams) {
    /** The family's rows in arrival order. */
    List<Value> values() {
      return streams.stream().flatMap(List::stream).toList();
    }

    EventTimeWindow transform() {
      return EventTimeWindow.of(query).withTimeField("event_time");
    }
  }

  /**
   * What a stream gives: window rows as {@link ConformanceSuite#formatRow} writes them (key
   * fields stream and user first), late rows as position and reason, rejected rows' positions.
   */
  record Answer(List<String> windows, TreeMap<Long, String> late, List<Long> rejected, Stats stats) {}

  /** The family of query {@code id} (0 to {@link #FAMILIES} - 1): every kind, policy and delay. */
  static WindowQuery query(int id) {
    WindowSpec spec = switch (id % 3) {
      case 0 -> WindowSpec.tumbling(60_000);
      case 1 -> WindowSpec.hopping(20_000, 60_000);
      default -> WindowSpec.session(45_000);
    };
    return WindowQuery.of(spec).withKeys(STREAM_FIELD, "user").withDelay(id / 3 % 2 == 0 ? 0 : 30_000)
        .withLatePolicy(LatePolicy.values()[id / 6 % LatePolicy.values().length])
        .withAggregates(AggregateSpec.countAll("n"), AggregateSpec.of(AggregateKind.SUM, "amount", "total"),
            AggregateSpec.of(AggregateKind.MIN, "amount", "low"), AggregateSpec.of(AggregateKind.AVG, "amount", "mean"),
            AggregateSpec.of(AggregateKind.FIRST, "tag", "first_tag"), AggregateSpec.of(AggregateKind.LAST, "tag", "last_tag"),
            AggregateSpec.of(AggregateKind.COUNT_DISTINCT, "tag", "tags"));
  }

  /** {@code streams} random streams (fixed by {@code random}), stream {@code i} in family {@code i % FAMILIES}. */
  static List<Family> generate(int streams, Random random) {
    List<List<List<Value>>> byFamily = new ArrayList<>();
    for (int f = 0; f < FAMILIES; f++) {
      byFamily.add(new ArrayList<>());
    }
    for (int id = 0; id < streams; id++) {
      List<List<Value>> family = byFamily.get(id % FAMILIES);
      family.add(stream(id, START + family.size() * SPAN_MILLIS, random));
    }
    List<Family> families = new ArrayList<>();
    for (int f = 0; f < FAMILIES; f++) {
      if (!byFamily.get(f).isEmpty()) {
        families.add(new Family(f, query(f), byFamily.get(f)));
      }
    }
    return families;
  }

  /**
   * 10 to 59 rows from {@code start}: event times mostly rising by up to 8 s, one in six up to two
   * minutes behind, one in forty without a usable time; 1 to 4 users; tags missing at times.
   */
  private static List<Value> stream(long id, long start, Random random) {
    List<Value> rows = new ArrayList<>();
    long clock = start;
    int n = 10 + random.nextInt(50);
    int users = 1 + random.nextInt(USERS.length);
    for (int i = 0; i < n; i++) {
      clock += random.nextInt(8000);
      long ts = random.nextInt(6) == 0 ? clock - random.nextInt(120_000) : clock;
      String time = switch (random.nextInt(40)) {
        case 0 -> null;
        case 1 -> "not a time";
        default -> TimeText.format(ts);
      };
      rows.add(new Value(id, USERS[random.nextInt(users)], random.nextInt(1000) - 100, time,
          random.nextInt(4) == 0 ? null : "t" + random.nextInt(5)));
    }
    return rows;
  }

  /**
   * Each stream's answer, by core's processor over the stream's own rows with the positions they
   * have in the family (the first row at {@code firstPosition}); {@code endOfInput} whether the
   * family's last stream ends (a drain) or stays open (a live stream that never ends: its open
   * windows are not emitted). The streams before the last always end: the next stream closes them.
   */
  static List<Answer> expected(Family family, long firstPosition, boolean endOfInput) {
    List<Answer> answers = new ArrayList<>();
    long position = firstPosition;
    for (int s = 0; s < family.streams.size(); s++) {
      List<Value> rows = family.streams.get(s);
      Answer a = new Answer(new ArrayList<>(), new TreeMap<>(), new ArrayList<>(), null);
      WindowProcessor p = processor(family.query, a);
      for (Value v : rows) {
        fold(p, v, position++, a);
      }
      if (endOfInput || s < family.streams.size() - 1) {
        p.finish();
      }
      answers.add(new Answer(a.windows, a.late, a.rejected, p.stats()));
    }
    return answers;
  }

  /**
   * Asserts that the family fed whole to one processor gives the union of its streams' answers
   * (so that a stream's rows are judged as if it were alone), and returns the stats of the whole.
   */
  static Stats checkIndependence(Family family, long firstPosition, boolean endOfInput) {
    List<Value> all = family.values();
    Answer whole = new Answer(new ArrayList<>(), new TreeMap<>(), new ArrayList<>(), null);
    WindowProcessor p = processor(family.query, whole);
    long position = firstPosition;
    for (Value v : all) {
      fold(p, v, position++, whole);
    }
    if (endOfInput) {
      p.finish();
    }
    List<String> windows = new ArrayList<>();
    TreeMap<Long, String> late = new TreeMap<>();
    List<Long> rejected = new ArrayList<>();
    long[] stats = new long[6];
    for (Answer a : expected(family, firstPosition, endOfInput)) {
      windows.addAll(a.windows);
      late.putAll(a.late);
      rejected.addAll(a.rejected);
      stats[0] += a.stats.rowsIn();
      stats[1] += a.stats.rowsOut();
      stats[2] += a.stats.lateDropped();
      stats[3] += a.stats.windowsClosed();
      stats[4] += a.stats.rowsFolded();
      stats[5] += a.stats.rowsRejected();
    }
    Stats sum = new Stats(stats[0], stats[1], stats[2], stats[3], stats[4], stats[5]);
    List<String> wholeWindows = new ArrayList<>(whole.windows);
    wholeWindows.sort(null);
    windows.sort(null);
    if (!wholeWindows.equals(windows) || !whole.late.equals(late) || !whole.rejected.equals(rejected)
        || !p.stats().equals(sum)) {
      throw new AssertionError("family " + family.id + ": its streams are not independent in one partition (span "
          + SPAN_MILLIS + " ms too short?): whole " + p.stats() + ", streams summed " + sum);
    }
    return sum;
  }

  /** A processor whose window rows go to {@code into}, written as the Beam window row is. */
  private static WindowProcessor processor(WindowQuery query, Answer into) {
    return new WindowProcessor(query, w -> {
      StringJoiner j = new StringJoiner("|");
      for (int i = 0; i < w.key().size(); i++) {
        j.add(ConformanceSuite.formatValue(w.key().get(i)));
      }
      j.add(TimeText.format(w.start())).add(TimeText.format(w.end()));
      for (Object v : w.values()) {
        j.add(ConformanceSuite.formatValue(v));
      }
      into.windows.add(j.toString());
    });
  }

  /** Folds one row, or finds it late (its reason as the live path gives it) or rejects it. */
  private static void fold(WindowProcessor p, Value v, long position, Answer into) {
    long ts;
    try {
      ts = PARSER.parse(v.time);
    } catch (RuntimeException noTime) {
      p.reject();
      into.rejected.add(position);
      return;
    }
    Object[] inputs = {null, v.amount, v.amount, v.amount, v.tag, v.tag, v.tag};
    if (!p.process(Key.of(v.stream, v.user), ts, inputs)) {
      into.late.put(position, "arrival " + position + ": " + p.lateReason(ts));
    }
  }
}
