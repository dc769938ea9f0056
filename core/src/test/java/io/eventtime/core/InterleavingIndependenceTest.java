package io.eventtime.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.core.PartitionedRuns.Late;
import io.eventtime.core.PartitionedRuns.Row;
import io.eventtime.core.PartitionedRuns.Run;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

/**
 * The property of docs/design/live-streams.md 1.7: the same partitions, fed in any interleaving,
 * give the same window rows (bit for bit, in the same order), the same late rows with the same
 * reasons and the same stats; and what they give is each partition replayed alone through
 * {@link WindowProcessor}, joined: grid windows by interval, sessions across partitions by the
 * contract's rule (except its one exception, sessions under policy window of keys spread over
 * partitions, where only the late rows and row counts must agree).
 */
class InterleavingIndependenceTest {
  private static final long MINUTE = 60_000;

  /**
   * Aggregates whose partials merge; the first five and first/last (of a tag that names the row's
   * event time and partition, see {@link #tagged}) are joined by {@link #joinAlone} for the reference.
   */
  private static final List<AggregateSpec> AGGREGATES = List.of(
      AggregateSpec.countAll("n"),
      AggregateSpec.of(AggregateKind.COUNT, "x", "count_x"),
      AggregateSpec.of(AggregateKind.SUM, "x", "sum_x"),
      AggregateSpec.of(AggregateKind.MIN, "x", "min_x"),
      AggregateSpec.of(AggregateKind.MAX, "x", "max_x"),
      AggregateSpec.of(AggregateKind.SUM, "d", "sum_d"),
      AggregateSpec.of(AggregateKind.AVG, "d", "avg_d"),
      AggregateSpec.of(AggregateKind.COUNT_DISTINCT, "s", "distinct_s"),
      AggregateSpec.of(AggregateKind.MIN, "s", "min_s"),
      AggregateSpec.of(AggregateKind.MAX, "s", "max_s"),
      AggregateSpec.of(AggregateKind.FIRST, "s", "first_tag"),
      AggregateSpec.of(AggregateKind.LAST, "s", "last_tag"));
  private static final int FIRST_TAG = 10;
  private static final int LAST_TAG = 11;
  private static final int[] JOINED_BY_REFERENCE = {0, 1, 2, 3, 4, FIRST_TAG, LAST_TAG};

  /** Every one of the 70 interleavings of example L2 gives L2's answer. */
  @Test
  void everyInterleavingOfExampleL2() {
    List<List<Row>> l2 = List.of(
        minutes(0, 1, 12, 3, 22),
        minutes(0, 2, 5, 14, 8));
    WindowQuery q = WindowQuery.of(WindowSpec.tumbling(10 * MINUTE)).withLatePolicy(LatePolicy.WINDOW)
        .withAggregates(AggregateSpec.countAll("n"));
    List<int[]> orders = allInterleavings(l2);
    assertThat(orders).hasSize(70);
    Run first = PartitionedRuns.run(q, l2, orders.get(0));
    assertThat(PartitionedRuns.texts(first.windows())).containsExactly(
        "1970-01-01 00:00:00|1970-01-01 00:10:00|3",
        "1970-01-01 00:10:00|1970-01-01 00:20:00|2",
        "1970-01-01 00:20:00|1970-01-01 00:30:00|1");
    assertThat(first.late()).extracting(Late::partition, Late::position)
        .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple(0, 2), org.assertj.core.groups.Tuple.tuple(1, 3));
    for (int[] order : orders) {
      assertSame(first, PartitionedRuns.run(q, l2, order));
    }
  }

  /**
   * Every one of the 560 interleavings of three small partitions with keys, hopping windows, a
   * delay, sums of doubles that are not exact in binary (so the merge order shows in the bits) and
   * first/last with rows of one event time in two partitions (b at 4 in P1 and P2).
   */
  @Test
  void everyInterleavingOfThreeSmallPartitions() {
    Key a = Key.of("a");
    Key b = Key.of("b");
    List<List<Row>> parts = tagged(List.of(
        List.of(row(a, 1, 3L, 0.1, "x"), row(b, 7, 4L, 0.7, "y"), row(a, 2, -2L, 0.2, "z")),
        List.of(row(a, 3, 10L, 0.3, "x"), row(a, 9, null, 1e-17, null), row(b, 4, 2L, 0.4, "v")),
        List.of(row(b, 4, 1L, 1e16, "w"), row(a, 0, 5L, 0.30000000000000004, "y"))));
    for (LatePolicy policy : LatePolicy.values()) {
      WindowQuery q = WindowQuery.of(WindowSpec.hopping(2 * MINUTE, 4 * MINUTE)).withDelay(MINUTE)
          .withLatePolicy(policy).withKeys("k").withAggregates(AGGREGATES.toArray(AggregateSpec[]::new));
      List<int[]> orders = allInterleavings(parts);
      assertThat(orders).hasSize(560);
      Run first = PartitionedRuns.run(q, parts, orders.get(0));
      assertAsReplayedAlone(q, parts, first);
      for (int[] order : orders) {
        assertSame(first, PartitionedRuns.run(q, parts, order));
      }
    }
  }

  /**
   * Random streams of 1 to 5 partitions (random keys, disorder, late and rejected rows, tumbling
   * and hopping, both policies), each fed in many random interleavings.
   */
  @Property(tries = 60, seed = "20261202")
  void randomInterleavingsGiveOneAnswer(@ForAll @LongRange(min = 0, max = 1L << 40) long seed) {
    Random r = new Random(seed);
    long unit = r.nextBoolean() ? 1000 : 1;
    WindowSpec spec = RandomStreams.spec(r, r.nextBoolean() ? "tumbling" : "hopping", unit);
    long delay = unit * r.nextInt(4);
    WindowQuery q = WindowQuery.of(spec).withDelay(delay).withLatePolicy(LatePolicy.values()[r.nextInt(2)])
        .withKeys("k").withAggregates(AGGREGATES.toArray(AggregateSpec[]::new));
    List<List<Row>> parts = new ArrayList<>();
    int partitions = 1 + r.nextInt(5);
    for (int p = 0; p < partitions; p++) {
      int rows = r.nextInt(8) == 0 ? 0 : 1 + r.nextInt(60);
      parts.add(RandomStreams.stream(r, rows, unit, 1_772_323_200_000L, delay, false, 1 + r.nextInt(4), 0.05)
          .stream()
          .map(e -> new Row(e.key(), e.ts(), RandomStreams.inputs(
              new RandomStreams.Event(e.key(), e.ts(), e.x(), e.d() == null ? null : e.d() * 0.1, e.s()), AGGREGATES)))
          .toList());
    }
    parts = tagged(parts);
    Run first = PartitionedRuns.run(q, parts, PartitionedRuns.oneAfterAnother(parts));
    assertAsReplayedAlone(q, parts, first);
    for (int i = 0; i < 25; i++) {
      assertSame(first, PartitionedRuns.run(q, parts, randomInterleaving(r, parts)));
    }
  }

  /**
   * Random session streams of 1 to 5 partitions, each fed in many random interleavings: under
   * policy event, and for keys confined to one partition under either policy, one answer, and it
   * is each partition replayed alone with its sessions joined across partitions. Under policy
   * window with keys spread over partitions (the documented exception) the late rows and the
   * counts of rows still agree.
   */
  @Property(tries = 80, seed = "20261203")
  void randomSessionInterleavingsGiveOneAnswer(@ForAll @LongRange(min = 0, max = 1L << 40) long seed) {
    Random r = new Random(seed);
    long unit = r.nextBoolean() ? 1000 : 1;
    WindowSpec spec = RandomStreams.spec(r, "session", unit);
    long delay = unit * r.nextInt(4);
    LatePolicy policy = LatePolicy.values()[r.nextInt(2)];
    boolean confined = r.nextBoolean();
    WindowQuery q = WindowQuery.of(spec).withDelay(delay).withLatePolicy(policy)
        .withKeys("k").withAggregates(AGGREGATES.toArray(AggregateSpec[]::new));
    List<List<Row>> parts = new ArrayList<>();
    int partitions = 1 + r.nextInt(5);
    for (int p = 0; p < partitions; p++) {
      int partition = p;
      int rows = r.nextInt(8) == 0 ? 0 : 1 + r.nextInt(40);
      parts.add(RandomStreams.stream(r, rows, unit, 1_772_323_200_000L, delay, false, 1 + r.nextInt(3), 0.05)
          .stream()
          .map(e -> new Row(confined ? Key.of("P" + partition + " " + e.key().values()) : e.key(), e.ts(),
              RandomStreams.inputs(e, AGGREGATES)))
          .toList());
    }
    parts = tagged(parts);
    Run first = PartitionedRuns.run(q, parts, PartitionedRuns.oneAfterAnother(parts));
    Run reference = sessionsReplayedAlone(q, parts);
    boolean exception = policy == LatePolicy.WINDOW && !confined;
    for (int i = 0; i <= 25; i++) {
      Run run = i == 0 ? first : PartitionedRuns.run(q, parts, randomInterleaving(r, parts));
      assertThat(run.late()).containsExactlyInAnyOrderElementsOf(reference.late());
      Stats s = run.stats();
      assertThat(List.of(s.rowsIn(), s.lateDropped(), s.rowsFolded(), s.rowsRejected())).containsExactly(
          reference.stats().rowsIn(), reference.stats().lateDropped(), reference.stats().rowsFolded(),
          reference.stats().rowsRejected());
      if (!exception) {
        assertThat(run.windows().stream().map(InterleavingIndependenceTest::sessionText).toList())
            .containsExactlyElementsOf(reference.windows().stream().map(InterleavingIndependenceTest::sessionText)
                .toList());
        assertThat(run.stats()).isEqualTo(reference.stats());
        assertSame(first, run);
      }
    }
  }

  /** A session as key, bounds and the aggregates the reference joins. */
  private static String sessionText(WindowResult w) {
    return id(w) + java.util.Arrays.toString(head(w));
  }

  /**
   * The reference for sessions: each partition replayed alone through {@link WindowProcessor}
   * gives its partition sessions and late rows; sessions of one key from different partitions
   * that overlap or lie at most a gap apart are joined, transitively; the joined sessions in close
   * order, with the aggregates of {@link #JOINED_BY_REFERENCE} (first and last: within a partition
   * by position, across partitions by event time, then partition).
   */
  private static Run sessionsReplayedAlone(WindowQuery q, List<List<Row>> parts) {
    Alone alone = replayEach(q, parts);
    List<WindowResult> sessions = alone.windows();
    List<Integer> ids = alone.partitionOf();
    int n = sessions.size();
    int[] component = new int[n];
    for (int i = 0; i < n; i++) {
      component[i] = i;
    }
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        WindowResult a = sessions.get(i);
        WindowResult b = sessions.get(j);
        if (!ids.get(i).equals(ids.get(j)) && a.key().equals(b.key())
            && a.start() <= b.end() && b.start() <= a.end()) {
          union(component, i, j);
        }
      }
    }
    Map<Integer, List<Integer>> members = new TreeMap<>();
    for (int i = 0; i < n; i++) {
      members.computeIfAbsent(find(component, i), c -> new ArrayList<>()).add(i);
    }
    List<WindowResult> joined = new ArrayList<>();
    for (List<Integer> m : members.values()) {
      TreeMap<Integer, Object[]> byPartition = new TreeMap<>();
      long start = Long.MAX_VALUE;
      long end = Long.MIN_VALUE;
      for (int i : m) {
        WindowResult w = sessions.get(i);
        start = Math.min(start, w.start());
        end = Math.max(end, w.end());
        byPartition.merge(ids.get(i), head(w), (a, b) -> {
          Object[] both = joinAlone(a, b);
          // two sessions of one partition: first and last by position in that partition
          both[5] = POSITION_ORDER.compare((String) b[5], (String) a[5]) < 0 ? b[5] : a[5];
          both[6] = POSITION_ORDER.compare((String) b[6], (String) a[6]) > 0 ? b[6] : a[6];
          return both;
        });
      }
      Object[] across = byPartition.values().stream().reduce(InterleavingIndependenceTest::joinAlone).orElseThrow();
      Object[] values = new Object[AGGREGATES.size()];
      for (int k = 0; k < across.length; k++) {
        values[JOINED_BY_REFERENCE[k]] = across[k];
      }
      joined.add(new WindowResult(sessions.get(m.get(0)).key(), start, end, values));
    }
    joined.sort(WindowResult.CLOSE_ORDER);
    Set<String> intervals = new HashSet<>();
    joined.forEach(w -> intervals.add(w.start() + "/" + w.end()));
    return new Run(joined, alone.late(), new Stats(alone.rowsIn(), joined.size(), alone.late().size(),
        intervals.size(), alone.rowsFolded(), alone.rowsRejected()));
  }

  /** Each partition replayed alone: its windows with their partitions, its late rows, and its counts added up. */
  private record Alone(List<Integer> partitionOf, List<WindowResult> windows, List<Late> late, long rowsIn,
      long rowsFolded, long rowsRejected) {}

  private static Alone replayEach(WindowQuery q, List<List<Row>> parts) {
    List<Integer> partitionOf = new ArrayList<>();
    List<WindowResult> windows = new ArrayList<>();
    List<Late> late = new ArrayList<>();
    long rowsIn = 0;
    long folded = 0;
    long rejected = 0;
    for (int p = 0; p < parts.size(); p++) {
      Run alone = replayAlone(q, parts.get(p), p);
      late.addAll(alone.late());
      rowsIn += alone.stats().rowsIn();
      folded += alone.stats().rowsFolded();
      rejected += alone.stats().rowsRejected();
      for (WindowResult w : alone.windows()) {
        partitionOf.add(p);
        windows.add(w);
      }
    }
    return new Alone(partitionOf, windows, late, rowsIn, folded, rejected);
  }

  /**
   * With one partition the processor gives what {@link WindowProcessor} gives, row for row, for
   * every window kind and every aggregate (first and last too).
   */
  @Test
  void onePartitionIsTheWindowProcessor() {
    for (long seed = 0; seed < 60; seed++) {
      for (String kind : List.of("tumbling", "hopping", "session")) {
        for (LatePolicy policy : LatePolicy.values()) {
          Random r = new Random(seed * 7 + kind.hashCode());
          long unit = r.nextBoolean() ? 1000 : 1;
          long delay = unit * r.nextInt(4);
          WindowQuery q = WindowQuery.of(RandomStreams.spec(r, kind, unit)).withDelay(delay).withLatePolicy(policy)
              .withKeys("k").withAggregates(RandomStreams.ALL_AGGREGATES.toArray(AggregateSpec[]::new));
          List<RandomStreams.Event> events =
              RandomStreams.stream(r, 1 + r.nextInt(200), unit, 0, delay, false, 1 + r.nextInt(5), 0.05);
          List<Row> rows = events.stream()
              .map(e -> new Row(e.key(), e.ts(), RandomStreams.inputs(e, RandomStreams.ALL_AGGREGATES))).toList();
          Run partitioned = PartitionedRuns.run(q, List.of(rows), PartitionedRuns.oneAfterAnother(List.of(rows)));
          assertSame(partitioned, replayAlone(q, rows, 0));
        }
      }
    }
  }

  private static void assertSame(Run expected, Run actual) {
    assertThat(actual.windows()).containsExactlyElementsOf(expected.windows());
    assertThat(actual.late()).containsExactlyInAnyOrderElementsOf(expected.late());
    assertThat(actual.stats()).isEqualTo(expected.stats());
  }

  /** One partition's rows alone through {@link WindowProcessor}. */
  private static Run replayAlone(WindowQuery q, List<Row> rows, int partition) {
    List<WindowResult> windows = new ArrayList<>();
    List<Late> late = new ArrayList<>();
    WindowProcessor p = new WindowProcessor(q, windows::add);
    for (int i = 0; i < rows.size(); i++) {
      Row row = rows.get(i);
      if (row.ts() == null) {
        p.reject();
      } else if (!p.process(row.key(), row.ts(), row.inputs())) {
        late.add(new Late(partition, i, p.lateReason(row.ts())));
      }
    }
    p.finish();
    return new Run(windows, late, p.stats());
  }

  /**
   * The reference: each partition replayed alone decides its late rows and what it puts into
   * each window; the run's windows are those parts joined (count, count(x) and sum(x) added, min
   * and max the least and greatest), and its stats the partitions' added up.
   */
  private static void assertAsReplayedAlone(WindowQuery q, List<List<Row>> parts, Run run) {
    Map<String, Object[]> joined = new TreeMap<>();
    Alone alone = replayEach(q, parts);
    for (WindowResult w : alone.windows()) {
      joined.merge(id(w), head(w), InterleavingIndependenceTest::joinAlone);
    }
    List<Late> late = alone.late();
    Map<String, Object[]> actual = new TreeMap<>();
    Set<String> intervals = new HashSet<>();
    for (WindowResult w : run.windows()) {
      actual.put(id(w), head(w));
      intervals.add(w.start() + "/" + w.end());
    }
    assertThat(actual).hasSameSizeAs(joined);
    joined.forEach((id, values) -> assertThat(actual.get(id)).as(id).containsExactly(values));
    assertThat(run.late()).containsExactlyInAnyOrderElementsOf(late);
    assertThat(run.stats()).isEqualTo(new Stats(alone.rowsIn(), joined.size(), late.size(), intervals.size(),
        alone.rowsFolded(), alone.rowsRejected()));
    List<WindowResult> inCloseOrder = new ArrayList<>(run.windows());
    inCloseOrder.sort(WindowResult.CLOSE_ORDER);
    assertThat(run.windows()).containsExactlyElementsOf(inCloseOrder);
  }

  private static String id(WindowResult w) {
    return w.key() + "[" + w.start() + ", " + w.end() + ")";
  }

  private static Object[] head(WindowResult w) {
    Object[] head = new Object[JOINED_BY_REFERENCE.length];
    for (int i = 0; i < head.length; i++) {
      head[i] = w.values()[JOINED_BY_REFERENCE[i]];
    }
    return head;
  }

  /**
   * Two partitions' parts of a window, the earlier partition's first: counts and sums added, min
   * and max, and first (last) the tag of the earliest (latest) event time, a tie going to the
   * earlier (later) partition.
   */
  private static Object[] joinAlone(Object[] a, Object[] b) {
    return new Object[] {
        (Long) a[0] + (Long) b[0],
        (Long) a[1] + (Long) b[1],
        a[2] == null ? b[2] : b[2] == null ? a[2] : (Object) ((Long) a[2] + (Long) b[2]),
        a[3] == null ? b[3] : b[3] == null ? a[3] : (Object) Math.min((Long) a[3], (Long) b[3]),
        a[4] == null ? b[4] : b[4] == null ? a[4] : (Object) Math.max((Long) a[4], (Long) b[4]),
        TAG_ORDER.compare((String) b[5], (String) a[5]) < 0 ? b[5] : a[5],
        TAG_ORDER.compare((String) b[6], (String) a[6]) > 0 ? b[6] : a[6]};
  }

  /** Tags of one partition by position. */
  private static final Comparator<String> POSITION_ORDER =
      Comparator.comparingInt(t -> Integer.parseInt(t.split("/")[2]));

  private static int find(int[] component, int i) {
    while (component[i] != i) {
      i = component[i];
    }
    return i;
  }

  private static void union(int[] component, int i, int j) {
    component[find(component, i)] = find(component, j);
  }

  /** Tags by event time, then partition. */
  private static final Comparator<String> TAG_ORDER = Comparator
      .<String>comparingLong(t -> Long.parseLong(t.split("/")[0]))
      .thenComparingInt(t -> Integer.parseInt(t.split("/")[1]));

  /**
   * The rows with the first/last inputs set to a tag "eventTime/partition/position", so that the
   * reference can tell which row a partition's first or last is.
   */
  private static List<List<Row>> tagged(List<List<Row>> parts) {
    List<List<Row>> out = new ArrayList<>();
    for (int p = 0; p < parts.size(); p++) {
      List<Row> rows = new ArrayList<>();
      for (int i = 0; i < parts.get(p).size(); i++) {
        Row row = parts.get(p).get(i);
        Object[] inputs = row.inputs().clone();
        inputs[FIRST_TAG] = row.ts() + "/" + p + "/" + i;
        inputs[LAST_TAG] = inputs[FIRST_TAG];
        rows.add(new Row(row.key(), row.ts(), inputs));
      }
      out.add(rows);
    }
    return out;
  }

  private static List<Row> minutes(long base, long... minutes) {
    List<Row> rows = new ArrayList<>();
    for (long m : minutes) {
      rows.add(Row.at(base + m * MINUTE));
    }
    return rows;
  }

  private static Row row(Key key, long minute, Long x, Double d, String s) {
    return new Row(key, minute * MINUTE, new Object[] {null, x, x, x, x, d, d, s, s, s, null, null});
  }

  /** A uniformly random merge of the partitions that keeps each one's order. */
  private static int[] randomInterleaving(Random r, List<List<Row>> parts) {
    List<Integer> order = new ArrayList<>();
    for (int p : PartitionedRuns.oneAfterAnother(parts)) {
      order.add(p);
    }
    Collections.shuffle(order, r);
    return order.stream().mapToInt(Integer::intValue).toArray();
  }

  /** Every merge of the partitions that keeps each one's order. */
  static List<int[]> allInterleavings(List<List<Row>> parts) {
    List<int[]> all = new ArrayList<>();
    int total = PartitionedRuns.oneAfterAnother(parts).length;
    interleave(parts, new int[parts.size()], new int[total], 0, all);
    return all;
  }

  private static void interleave(List<List<Row>> parts, int[] taken, int[] order, int at, List<int[]> all) {
    if (at == order.length) {
      all.add(order.clone());
      return;
    }
    for (int p = 0; p < parts.size(); p++) {
      if (taken[p] < parts.get(p).size()) {
        taken[p]++;
        order[at] = p;
        interleave(parts, taken, order, at + 1, all);
        taken[p]--;
      }
    }
  }
}
