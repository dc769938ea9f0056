package io.eventtime.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.eventtime.core.PartitionedRuns.Late;
import io.eventtime.core.PartitionedRuns.Row;
import io.eventtime.core.PartitionedRuns.Run;
import io.eventtime.core.contract.WorkedExamples;
import io.eventtime.core.state.StateCodec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A live stream of several partitions stopped with its state and continued (docs/design/live-streams.md
 * 1.6, example L6, and the state's version 2, section 4): nothing is emitted twice or lost, and
 * the run that goes on from the state gives what one uninterrupted run gives.
 */
class LiveStreamStateTest {
  private static final long MINUTE = 60_000;
  private static final WindowQuery L2_QUERY = WindowQuery.of(WindowSpec.tumbling(10 * MINUTE))
      .withLatePolicy(LatePolicy.WINDOW).withAggregates(AggregateSpec.countAll("n"));

  private static long at(String hhmm) {
    return WorkedExamples.millis("2026-03-01 " + hhmm + ":00");
  }

  /** A held window as partition|start|count. */
  private static String part(OpenState.OpenWindow w) {
    return w.partition() + "|" + TimeText.format(w.start()) + "|" + w.accumulators()[0].result();
  }

  /**
   * L6: example L2 stopped with the state, then a second run with P1's rows 00:16 and 00:31 only.
   * The state goes through the codec between the runs, as a state file would.
   */
  @Test
  void exampleL6() {
    List<WindowResult> run1 = new ArrayList<>();
    PartitionedWindowProcessor p1 = new PartitionedWindowProcessor(L2_QUERY, 2, run1::add);
    String[][] l2 = {{"00:01", "00:12", "00:03", "00:22"}, {"00:02", "00:05", "00:14", "00:08"}};
    for (int i = 0; i < 4; i++) {
      for (int partition = 0; partition < 2; partition++) {
        p1.process(partition, Key.GLOBAL, at(l2[partition][i]), new Object[] {null});
      }
    }
    OpenState stopped = p1.hold();
    assertThat(PartitionedRuns.texts(run1)).containsExactly("2026-03-01 00:00:00|2026-03-01 00:10:00|3");
    assertThat(stopped.partitions()).containsExactly(
        new OpenState.Partition("0", at("00:22"), null, 4, null),
        new OpenState.Partition("1", at("00:14"), null, 4, null));
    assertThat(stopped.windows()).extracting(LiveStreamStateTest::part).containsExactly(
        "0|2026-03-01 00:10:00|1",
        "1|2026-03-01 00:10:00|1",
        "0|2026-03-01 00:20:00|1");
    assertThat(p1.stats()).isEqualTo(new Stats(8, 1, 2, 1, 6, 0));
    assertThatThrownBy(() -> p1.process(0, Key.GLOBAL, at("00:30"), new Object[] {null}))
        .isInstanceOf(IllegalStateException.class);

    StateCodec codec = new StateCodec(L2_QUERY, null);
    OpenState stored = stopped.withPosition(0, new OpenState.NextOffset(4)).withPosition(1, new OpenState.NextOffset(4));
    OpenState read = codec.decode(codec.encode(stored), "L6");
    assertThat(read.partitions()).isEqualTo(stored.partitions());

    List<WindowResult> run2 = new ArrayList<>();
    PartitionedWindowProcessor p2 = PartitionedWindowProcessor.resume(L2_QUERY, run2::add, read);
    assertThat(p2.partitions()).isEqualTo(2);
    assertThat(p2.watermark()).isEqualTo(at("00:14"));
    assertThat(p2.process(1, Key.GLOBAL, at("00:16"), new Object[] {null})).as("on time in P1 (00:14)").isTrue();
    assertThat(run2).isEmpty();
    assertThat(p2.process(1, Key.GLOBAL, at("00:31"), new Object[] {null})).isTrue();
    assertThat(p2.watermark()).isEqualTo(at("00:22"));
    assertThat(PartitionedRuns.texts(run2)).containsExactly("2026-03-01 00:10:00|2026-03-01 00:20:00|3");

    OpenState after = p2.hold();
    assertThat(after.partitions()).containsExactly(
        new OpenState.Partition("0", at("00:22"), null, 4, null),
        new OpenState.Partition("1", at("00:31"), null, 6, null));
    assertThat(after.windows()).extracting(LiveStreamStateTest::part).containsExactly(
        "0|2026-03-01 00:20:00|1",
        "1|2026-03-01 00:30:00|1");
    assertThat(p2.stats()).isEqualTo(new Stats(2, 1, 0, 1, 2, 0));
  }

  /** A processor of one partition is no place for the state of two, nor a window for a partition it lacks. */
  @Test
  void aStateMustFitTheProcessor() {
    PartitionedWindowProcessor two = new PartitionedWindowProcessor(L2_QUERY, 2, r -> {});
    two.process(0, Key.GLOBAL, at("00:01"), new Object[] {null});
    OpenState state = two.hold();
    assertThatThrownBy(() -> new WindowProcessor(L2_QUERY, r -> {}, state))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the state holds 2 partitions, this run 1: go on from it with PartitionedWindowProcessor.resume");
    OpenState stray = new OpenState(state.partitions(), List.of(state.windows().get(0).inPartition("7")), Map.of());
    assertThatThrownBy(() -> PartitionedWindowProcessor.resume(L2_QUERY, r -> {}, stray))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the open window [] [2026-03-01 00:00:00, 2026-03-01 00:10:00) names partition 7, which the state"
            + " does not hold");
  }

  private static final WindowQuery FIRST_LAST_SESSIONS = WindowQuery.of(WindowSpec.session(5 * MINUTE))
      .withLatePolicy(LatePolicy.EVENT).withAggregates(AggregateSpec.countAll("n"),
          AggregateSpec.of(AggregateKind.FIRST, "s", "first_s"), AggregateSpec.of(AggregateKind.LAST, "s", "last_s"));

  private static Object[] tag(String tag) {
    return new Object[] {null, tag, tag};
  }

  /**
   * Sessions over two partitions are held with the waiting ones: P0's session 00:01, closed by
   * P0's watermark 00:20, waits for P1's open 00:04, which could still join it. Resumed through the
   * codec, P1's 00:30 closes P1's session, the two join, and first and last are taken across the
   * partitions by event time (P0's row 00:01, P1's 00:04), as in the run that did not stop.
   */
  @Test
  void sessionsOverSeveralPartitionsAreHeldWithTheSessionsWaitingToBeJoined() {
    List<WindowResult> emitted = new ArrayList<>();
    PartitionedWindowProcessor before = new PartitionedWindowProcessor(FIRST_LAST_SESSIONS, 2, emitted::add);
    before.process(0, Key.GLOBAL, at("00:01"), tag("P0 00:01"));
    before.process(1, Key.GLOBAL, at("00:04"), tag("P1 00:04"));
    before.process(0, Key.GLOBAL, at("00:20"), tag("P0 00:20"));
    OpenState held = before.hold();
    assertThat(emitted).isEmpty();
    assertThat(held.windows()).extracting(LiveStreamStateTest::part).containsExactly(
        "1|2026-03-01 00:04:00|1", "0|2026-03-01 00:20:00|1");
    assertThat(held.waiting()).extracting(LiveStreamStateTest::part).containsExactly("0|2026-03-01 00:01:00|1");

    StateCodec codec = new StateCodec(FIRST_LAST_SESSIONS, "ts");
    PartitionedWindowProcessor after = PartitionedWindowProcessor.resume(FIRST_LAST_SESSIONS, emitted::add,
        codec.decode(codec.encode(held), "held"));
    after.process(1, Key.GLOBAL, at("00:30"), tag("P1 00:30"));
    assertThat(PartitionedRuns.texts(emitted)).containsExactly(
        "2026-03-01 00:01:00|2026-03-01 00:09:00|2|P0 00:01|P1 00:04");
    after.finish();

    List<List<Row>> parts = List.of(
        List.of(new Row(Key.GLOBAL, at("00:01"), tag("P0 00:01")), new Row(Key.GLOBAL, at("00:20"), tag("P0 00:20"))),
        List.of(new Row(Key.GLOBAL, at("00:04"), tag("P1 00:04")), new Row(Key.GLOBAL, at("00:30"), tag("P1 00:30"))));
    Run whole = PartitionedRuns.run(FIRST_LAST_SESSIONS, parts, new int[] {0, 1, 0, 1});
    assertThat(PartitionedRuns.texts(emitted)).containsExactlyElementsOf(PartitionedRuns.texts(whole.windows()))
        .hasSize(3);
  }

  /**
   * Example L3 (design 1.4) stopped after every prefix of every interleaving, once and at every
   * row, and resumed through the codec: the same windows, late rows and stats as the run that
   * did not stop.
   */
  @Test
  void exampleL3HeldAfterAnyPrefixIsTheUninterruptedRun() {
    List<List<Row>> l3 = LiveStreamExamplesTest.L3;
    WindowQuery q = LiveStreamExamplesTest.SESSIONS_EVENT;
    int[] everyRow = java.util.stream.IntStream.rangeClosed(0, 7).toArray();
    for (int[] order : InterleavingIndependenceTest.allInterleavings(l3)) {
      Run whole = PartitionedRuns.run(q, l3, order);
      for (int prefix = 0; prefix <= order.length; prefix++) {
        assertSameRun(runCut(q, l3, order, new int[] {prefix}), whole, Arrays.toString(order) + " cut " + prefix);
      }
      assertSameRun(runCut(q, l3, order, everyRow), whole, Arrays.toString(order) + " cut at every row");
    }
  }

  private static void assertSameRun(Run cut, Run whole, String what) {
    assertThat(PartitionedRuns.texts(cut.windows())).as(what).containsExactlyElementsOf(
        PartitionedRuns.texts(whole.windows()));
    assertThat(cut.late()).as(what).containsExactlyElementsOf(whole.late());
    assertThat(cut.stats()).as(what).isEqualTo(whole.stats());
  }

  /**
   * A watermark the idle timeout moved goes into the state and comes back from it: after the
   * restart a row behind it is still late, although its partition never had a row.
   */
  @Test
  void anIdleAdvanceIsHeldAndResumed() {
    long[] clock = {at("00:40")};
    PartitionedWindowProcessor p1 = new PartitionedWindowProcessor(L2_QUERY, 2, r -> {})
        .withIdleTimeout(30_000, () -> clock[0]);
    p1.process(0, Key.GLOBAL, at("00:39"), new Object[] {null});
    clock[0] += 30_000;
    assertThat(p1.advanceIdle()).isTrue();
    OpenState stopped = p1.hold();
    assertThat(stopped.partitions().get(1).idleWatermark()).isEqualTo(at("00:40") + 30_000);

    StateCodec codec = new StateCodec(L2_QUERY, null);
    OpenState read = codec.decode(codec.encode(stopped), "idle");
    assertThat(read.partitions()).isEqualTo(stopped.partitions());
    PartitionedWindowProcessor p2 = PartitionedWindowProcessor.resume(L2_QUERY, r -> {}, read);
    assertThat(p2.watermark(1)).isEqualTo(at("00:40") + 30_000);
    assertThat(p2.process(1, Key.GLOBAL, at("00:20"), new Object[] {null})).as("behind the held idle watermark").isFalse();
  }

  /** A state's own partition ids are kept: a run that goes on from it stores them again. */
  @Test
  void partitionIdsAreKept() {
    OpenState named = new OpenState(List.of(new OpenState.Partition("orders-3", at("00:05"), null, 2, null),
        new OpenState.Partition("orders-7", null, at("00:04"), 0, null)), List.of(), Map.of());
    PartitionedWindowProcessor p = PartitionedWindowProcessor.resume(L2_QUERY, r -> {}, named);
    assertThat(p.watermark(1)).as("the idle watermark is the partition's watermark").isEqualTo(at("00:04"));
    assertThat(p.watermark()).isEqualTo(at("00:04"));
    assertThat(p.hold().partitions()).extracting(OpenState.Partition::id).containsExactly("orders-3", "orders-7");
  }

  /**
   * Random streams of 1 to 3 partitions (grid windows, both policies, late and rejected rows,
   * every aggregate: first and last merge across partitions by the event times the state keeps),
   * interleaved at random and cut at 1 to 3 random points; at each cut the run is held, its state
   * written and read by the codec, and a new processor goes on from it. The window rows (in
   * order, bit for bit), the late rows with their reasons and the stats summed over the runs are
   * those of one run over the whole stream.
   */
  @Test
  void aStreamHeldAndResumedAnywhereIsTheUninterruptedRun() {
    for (long seed = 0; seed < 400; seed++) {
      assertRandomCutsAreTheUninterruptedRun(seed, false);
    }
  }

  /**
   * The same for session windows over 1 to 3 partitions, with every aggregate (first and last
   * among them), cut at random points, both policies, keys spread over the partitions or confined
   * to one. The cut run takes the same interleaving as the whole one, so even under policy window
   * with keys spread (whose answer depends on the interleaving) the two agree. Partition sessions
   * closed in their partition but not emitted wait in the state and rejoin; about a quarter of
   * the cuts hold some.
   */
  @Test
  void sessionsHeldAndResumedAnywhereAreTheUninterruptedRun() {
    for (long seed = 0; seed < 400; seed++) {
      assertRandomCutsAreTheUninterruptedRun(seed, true);
    }
  }

  /** Seed {@code seed}'s random stream of grid windows (or sessions, keys confined or not), cut at random points. */
  private static void assertRandomCutsAreTheUninterruptedRun(long seed, boolean sessions) {
    Random r = new Random(seed);
    long unit = r.nextBoolean() ? 1000 : 1;
    long delay = unit * r.nextInt(4);
    int partitions = 1 + r.nextInt(3);
    boolean confined = sessions && r.nextBoolean();
    List<AggregateSpec> aggregates = RandomStreams.ALL_AGGREGATES;
    WindowSpec spec = RandomStreams.spec(r, sessions ? "session" : r.nextBoolean() ? "tumbling" : "hopping", unit);
    WindowQuery q = WindowQuery.of(spec).withDelay(delay).withLatePolicy(LatePolicy.values()[r.nextInt(2)])
        .withKeys("name", "number").withAggregates(aggregates.toArray(AggregateSpec[]::new));
    List<List<Row>> parts = new ArrayList<>();
    for (int p = 0; p < partitions; p++) {
      String prefix = confined ? "P" + p + " " : "";
      int rows = r.nextInt(8) == 0 ? 0 : 1 + r.nextInt(80);
      parts.add(RandomStreams.stream(r, rows, unit, 1_772_323_200_000L, delay, false, 1 + r.nextInt(4), 0.05)
          .stream().map(e -> new Row(confined ? Key.of(prefix + e.key().get(0), e.key().get(1)) : e.key(), e.ts(),
              RandomStreams.inputs(e, aggregates))).toList());
    }
    assertCutsAreTheUninterruptedRun(r, q, parts, "seed " + seed + ", " + q.latePolicy()
        + (confined ? ", keys confined to a partition" : ""));
  }

  /** One random interleaving of {@code parts}, cut at 1 to 3 random points, gives what it gives uncut. */
  private static void assertCutsAreTheUninterruptedRun(Random r, WindowQuery q, List<List<Row>> parts, String seed) {
    int[] order = randomInterleaving(r, parts);
    int[] cuts = r.ints(1 + r.nextInt(3), 0, order.length + 1).sorted().toArray();
    Run whole = PartitionedRuns.run(q, parts, order);
    Run cut = runCut(q, parts, order, cuts);
    String what = seed + ", " + parts.size() + " partitions, " + q.spec() + ", cuts " + Arrays.toString(cuts);
    assertThat(cut.windows()).as(what).containsExactlyElementsOf(whole.windows());
    assertThat(cut.late()).as(what).containsExactlyElementsOf(whole.late());
    assertThat(cut.stats()).as(what).isEqualTo(whole.stats());
  }

  /** Feeds {@code order}, holding the run before each of {@code cuts} and going on from its state. */
  private static Run runCut(WindowQuery q, List<List<Row>> parts, int[] order, int[] cuts) {
    StateCodec codec = new StateCodec(q, "ts");
    List<WindowResult> windows = new ArrayList<>();
    List<Late> late = new ArrayList<>();
    PartitionedWindowProcessor p = new PartitionedWindowProcessor(q, parts.size(), windows::add);
    Stats sum = new Stats(0, 0, 0, 0, 0, 0);
    int[] next = new int[parts.size()];
    int cutAt = 0;
    for (int i = 0; i <= order.length; i++) {
      while (cutAt < cuts.length && cuts[cutAt] == i) {
        OpenState held = p.hold();
        sum = plus(sum, p.stats());
        p = PartitionedWindowProcessor.resume(q, windows::add, codec.decode(codec.encode(held), "cut " + cutAt));
        cutAt++;
      }
      if (i == order.length) {
        break;
      }
      int partition = order[i];
      int position = next[partition]++;
      PartitionedRuns.take(p, partition, position, parts.get(partition).get(position), late);
    }
    p.finish();
    return new Run(windows, late, plus(sum, p.stats()));
  }

  private static Stats plus(Stats a, Stats b) {
    return new Stats(a.rowsIn() + b.rowsIn(), a.rowsOut() + b.rowsOut(), a.lateDropped() + b.lateDropped(),
        a.windowsClosed() + b.windowsClosed(), a.rowsFolded() + b.rowsFolded(), a.rowsRejected() + b.rowsRejected());
  }

  private static int[] randomInterleaving(Random r, List<List<Row>> parts) {
    List<Integer> order = new ArrayList<>();
    for (int p = 0; p < parts.size(); p++) {
      for (int i = 0; i < parts.get(p).size(); i++) {
        order.add(p);
      }
    }
    java.util.Collections.shuffle(order, r);
    return order.stream().mapToInt(Integer::intValue).toArray();
  }
}
