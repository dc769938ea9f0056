package io.eventtime.core.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.core.AggregateKind;
import io.eventtime.core.AggregateSpec;
import io.eventtime.core.Key;
import io.eventtime.core.LatePolicy;
import io.eventtime.core.Stats;
import io.eventtime.core.WindowProcessor;
import io.eventtime.core.WindowQuery;
import io.eventtime.core.WindowResult;
import io.eventtime.core.WindowSpec;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A stream split at random points into runs that carry state through the files gives what one
 * run over the whole stream gives: the same windows, in the same order, each emitted once.
 */
class SplitRunsTest {
  private static final long SECOND = 1_000L;
  private static final long BASE = StateFixtures.at("00:00");

  @TempDir
  Path tmp;

  /** One row of a generated stream: its key, event time and the input of each aggregate. */
  record Row(Key key, long eventTime, Object[] inputs) {}

  static Stream<Arguments> splits() {
    List<Arguments> cases = new ArrayList<>();
    for (String kind : List.of("tumbling", "hopping", "session")) {
      for (LatePolicy policy : LatePolicy.values()) {
        for (int runs : new int[] {2, 3, 10}) {
          for (long seed = 1; seed <= 4; seed++) {
            cases.add(Arguments.of(kind, policy, runs, seed));
          }
        }
      }
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "{0}, policy {1}, {2} runs, seed {3}")
  @MethodSource("splits")
  void runsWithStateEmitWhatOneRunEmits(String kind, LatePolicy policy, int runs, long seed) {
    Random random = new Random(seed * 1000 + runs * 10 + kind.length() + policy.ordinal());
    WindowQuery query = query(kind, policy, random);
    List<Row> stream = stream(random, random.nextBoolean());

    List<WindowResult> whole = new ArrayList<>();
    WindowProcessor one = new WindowProcessor(query, whole::add);
    stream.forEach(r -> one.process(r.key(), r.eventTime(), r.inputs()));
    one.finish();

    int[] cuts = new int[runs + 1];
    for (int i = 1; i < runs; i++) {
      cuts[i] = random.nextInt(stream.size() + 1); // the same point twice makes a run of no rows
    }
    cuts[runs] = stream.size();
    Arrays.sort(cuts);
    Path dir = tmp.resolve("state");
    List<WindowResult> split = new ArrayList<>();
    long rowsIn = 0;
    long folded = 0;
    long late = 0;
    for (int run = 0; run < runs; run++) {
      try (StateStore store = StateStore.open(dir, query, "ts")) {
        WindowProcessor p = new WindowProcessor(query, split::add, store.load());
        stream.subList(cuts[run], cuts[run + 1]).forEach(r -> p.process(r.key(), r.eventTime(), r.inputs()));
        store.commit(p.hold());
        Stats s = p.stats();
        assertThat(s.balanced()).isTrue();
        rowsIn += s.rowsIn();
        folded += s.rowsFolded();
        late += s.lateDropped();
      }
    }
    try (StateStore store = StateStore.open(dir, query, "ts")) {
      new WindowProcessor(query, split::add, store.load()).finish(); // what is still open at the end
    }

    assertThat(split).containsExactlyElementsOf(whole);
    Set<List<Object>> intervals = new HashSet<>();
    for (WindowResult r : split) {
      assertThat(intervals.add(List.of(r.key(), r.start(), r.end()))).as("%s emitted once", r).isTrue();
    }
    assertThat(List.of(rowsIn, folded, late))
        .containsExactly(one.stats().rowsIn(), one.stats().rowsFolded(), one.stats().lateDropped());
    assertThat(one.stats().rowsIn()).isEqualTo(stream.size());
  }

  /** The generated streams do what they are for: late rows under both policies, in every kind. */
  @ParameterizedTest(name = "{0}, policy {1}")
  @MethodSource("kindsAndPolicies")
  void theStreamsHaveLateRowsAndManyWindows(String kind, LatePolicy policy) {
    long late = 0;
    long windows = 0;
    for (long seed = 1; seed <= 4; seed++) {
      Random random = new Random(seed * 1000 + 20 + kind.length() + policy.ordinal());
      WindowQuery query = query(kind, policy, random);
      WindowProcessor p = new WindowProcessor(query, r -> { });
      stream(random, random.nextBoolean()).forEach(r -> p.process(r.key(), r.eventTime(), r.inputs()));
      p.finish();
      late += p.stats().lateDropped();
      windows += p.stats().rowsOut();
    }
    assertThat(late).isGreaterThan(0);
    assertThat(windows).isGreaterThan(40);
  }

  static Stream<Arguments> kindsAndPolicies() {
    return Stream.of("tumbling", "hopping", "session")
        .flatMap(k -> Stream.of(LatePolicy.values()).map(p -> Arguments.of(k, p)));
  }

  private static WindowQuery query(String kind, LatePolicy policy, Random random) {
    WindowSpec spec = switch (kind) {
      case "tumbling" -> WindowSpec.tumbling(pick(random, 30, 60) * SECOND).withOffset(pick(random, 0, 7) * SECOND);
      case "hopping" -> random.nextBoolean()
          ? WindowSpec.hopping(pick(random, 10, 20) * SECOND, 60 * SECOND)
          : WindowSpec.hopping(20 * SECOND, 50 * SECOND).withOffset(3 * SECOND); // a slide that does not divide
      default -> WindowSpec.session(pick(random, 15, 40) * SECOND);
    };
    return new WindowQuery(spec, List.of("k"), List.of(
        AggregateSpec.countAll("rows"),
        AggregateSpec.of(AggregateKind.COUNT, "amount", "amounts"),
        AggregateSpec.of(AggregateKind.SUM, "amount", "total"),
        AggregateSpec.of(AggregateKind.AVG, "amount", "mean"),
        AggregateSpec.of(AggregateKind.MIN, "amount", "least"),
        AggregateSpec.of(AggregateKind.MAX, "tag", "last_tag"),
        AggregateSpec.of(AggregateKind.FIRST, "amount", "first_amount"),
        AggregateSpec.of(AggregateKind.LAST, "flag", "last_flag"),
        AggregateSpec.of(AggregateKind.COUNT_DISTINCT, "tag", "tags"),
        AggregateSpec.of(AggregateKind.COUNT_DISTINCT, "amount", "distinct_amounts"),
        AggregateSpec.of(AggregateKind.FIRST, "when", "first_when"),
        AggregateSpec.of(AggregateKind.MAX, "when", "latest_when")),
        pick(random, 0, 10, 45) * SECOND, policy);
  }

  /**
   * Rows mostly in order, some behind by up to two minutes, some at the same time, with amounts
   * that are whole, fractional, null or large enough to overflow a sum into floating point.
   */
  static List<Row> stream(Random random, boolean keyed) {
    int n = 120 + random.nextInt(180);
    List<Row> rows = new ArrayList<>(n);
    long t = BASE;
    String[] tags = {"red", "green", "blue", "ünï"};
    for (int i = 0; i < n; i++) {
      t += random.nextInt(20) * SECOND + random.nextInt(1000);
      double roll = random.nextDouble();
      long ts = roll < 0.15 ? t - random.nextInt(120) * SECOND : roll < 0.2 ? t - t % SECOND : t;
      Key key = keyed ? Key.of(tags[random.nextInt(3)]) : Key.of((Object) null);
      double a = random.nextDouble();
      Object amount = a < 0.1 ? null
          : a < 0.2 ? random.nextInt(100) / 10.0
          : a < 0.23 ? Long.MAX_VALUE / 2 + random.nextInt(10)
          : (Object) (long) (random.nextInt(1100) - 100);
      Object tag = random.nextInt(8) == 0 ? null : tags[random.nextInt(tags.length)];
      Object flag = random.nextInt(5) == 0 ? null : random.nextBoolean();
      Object when = Instant.ofEpochSecond(ts / SECOND, random.nextInt(1_000_000_000));
      rows.add(new Row(key, ts, new Object[] {null, amount, amount, amount, amount, tag, amount, flag, tag, amount,
          when, when}));
    }
    return rows;
  }

  private static long pick(Random random, long... choices) {
    return choices[random.nextInt(choices.length)];
  }
}
