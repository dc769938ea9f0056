package io.eventtime.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The worked examples of the contract (semantics.md), to the row, through the processor. */
class ContractExamplesTest {
  private static final long MIN = 60_000L;

  private static long at(String hhmm) {
    return LocalDateTime.parse("2026-03-01T" + hhmm).toInstant(ZoneOffset.UTC).toEpochMilli();
  }

  private static final String[] EXAMPLE_A = {"00:01", "00:04", "00:08", "00:12", "00:05", "00:11", "00:30", "00:34"};

  private static List<String> runA(WindowSpec spec) {
    List<String> rows = new ArrayList<>();
    WindowProcessor p = new WindowProcessor(
        WindowQuery.of(spec).withDelay(5 * MIN).withLatePolicy(LatePolicy.EVENT)
            .withAggregates(AggregateSpec.countAll("events")),
        r -> rows.add(TimeText.format(r.start()) + " " + TimeText.format(r.end()) + " " + r.values()[0]));
    List<Boolean> folded = new ArrayList<>();
    for (String t : EXAMPLE_A) {
      folded.add(p.process(Key.GLOBAL, at(t), new Object[] {null}));
    }
    p.finish();
    assertThat(folded).containsExactly(true, true, true, true, false, true, true, true);
    assertThat(p.stats()).extracting(Stats::rowsIn, Stats::rowsFolded, Stats::lateDropped, Stats::rowsRejected)
        .containsExactly(8L, 7L, 1L, 0L);
    return rows;
  }

  @Test
  void exampleA_tumbling() {
    assertThat(runA(WindowSpec.tumbling(10 * MIN))).containsExactly(
        "2026-03-01 00:00:00 2026-03-01 00:10:00 3",
        "2026-03-01 00:10:00 2026-03-01 00:20:00 2",
        "2026-03-01 00:30:00 2026-03-01 00:40:00 2");
  }

  @Test
  void exampleA_hopping() {
    assertThat(runA(WindowSpec.hopping(5 * MIN, 10 * MIN))).containsExactly(
        "2026-02-28 23:55:00 2026-03-01 00:05:00 2",
        "2026-03-01 00:00:00 2026-03-01 00:10:00 3",
        "2026-03-01 00:05:00 2026-03-01 00:15:00 3",
        "2026-03-01 00:10:00 2026-03-01 00:20:00 2",
        "2026-03-01 00:25:00 2026-03-01 00:35:00 2",
        "2026-03-01 00:30:00 2026-03-01 00:40:00 2");
  }

  @Test
  void exampleA_session() {
    assertThat(runA(WindowSpec.session(5 * MIN))).containsExactly(
        "2026-03-01 00:01:00 2026-03-01 00:17:00 5",
        "2026-03-01 00:30:00 2026-03-01 00:39:00 2");
  }

  @Test
  void exampleB_twoRunsWithState() {
    WindowQuery q = WindowQuery.of(WindowSpec.tumbling(10 * MIN)).withDelay(5 * MIN)
        .withLatePolicy(LatePolicy.EVENT).withAggregates(AggregateSpec.countAll("events"));
    List<String> run1 = new ArrayList<>();
    WindowProcessor p1 = new WindowProcessor(q, r -> run1.add(TimeText.format(r.start()) + " " + r.values()[0]));
    for (String t : new String[] {"00:01", "00:04", "00:08", "00:12", "00:17"}) {
      p1.process(Key.GLOBAL, at(t), new Object[] {null});
    }
    OpenState state = p1.hold();
    assertThat(run1).containsExactly("2026-03-01 00:00:00 3");
    assertThat(state.maxEventTime() - 5 * MIN).isEqualTo(at("00:12"));
    assertThat(state.windows()).singleElement().satisfies(w -> {
      assertThat(w.start()).isEqualTo(at("00:10"));
      assertThat(w.accumulators()[0].result()).isEqualTo(2L);
    });

    List<String> run2 = new ArrayList<>();
    WindowProcessor p2 = new WindowProcessor(q, r -> run2.add(TimeText.format(r.start()) + " " + r.values()[0]), state);
    List<Boolean> folded = new ArrayList<>();
    for (String t : new String[] {"00:05", "00:11", "00:13", "00:30", "00:34"}) {
      folded.add(p2.process(Key.GLOBAL, at(t), new Object[] {null}));
    }
    OpenState after = p2.hold();
    assertThat(folded).containsExactly(false, false, true, true, true);
    assertThat(run2).containsExactly("2026-03-01 00:10:00 3");
    assertThat(p2.watermark()).isEqualTo(at("00:29"));
    assertThat(after.windows()).singleElement().satisfies(w -> {
      assertThat(w.start()).isEqualTo(at("00:30"));
      assertThat(w.accumulators()[0].result()).isEqualTo(2L);
    });
  }

  private static final Object[][] EXAMPLE_C = {
      {"acme", 250L, "2026-07-18 10:00:03"},
      {"globex", 42L, "2026-07-18 10:00:07"},
      {"acme", 980L, "2026-07-18 10:01:12"},
      {"acme", 110L, "2026-07-18 10:01:48"},
      {"globex", 7L, "2026-07-18 10:02:20"},
  };

  private static WindowProcessor runC(WindowSpec spec, List<String> rows, AggregateSpec... aggs) {
    EventTimeParser parser = EventTimeParser.defaults();
    WindowProcessor p = new WindowProcessor(WindowQuery.of(spec).withKeys("merchant").withAggregates(aggs),
        r -> {
          StringBuilder b = new StringBuilder(r.key().get(0) + " " + TimeText.format(r.start()).substring(11));
          for (Object v : r.values()) {
            b.append(' ').append(v);
          }
          rows.add(b.toString());
        });
    for (Object[] row : EXAMPLE_C) {
      p.process(Key.of(row[0]), parser.parse(row[2]), new Object[] {null, row[1]});
    }
    p.finish();
    return p;
  }

  @Test
  void exampleC_tumblingPerKey() {
    List<String> rows = new ArrayList<>();
    WindowProcessor p = runC(WindowSpec.tumbling(MIN), rows, AggregateSpec.countAll("n"),
        AggregateSpec.of(AggregateKind.SUM, "amount", "total"));
    assertThat(rows).containsExactly("acme 10:00:00 1 250", "globex 10:00:00 1 42", "acme 10:01:00 2 1090",
        "globex 10:02:00 1 7");
    assertThat(p.stats()).isEqualTo(new Stats(5, 4, 0, 3, 5, 0));
  }

  @Test
  void exampleC_hoppingPerKey() {
    List<String> rows = new ArrayList<>();
    WindowProcessor p = runC(WindowSpec.hopping(30_000, MIN), rows, AggregateSpec.countAll("n"),
        AggregateSpec.countAll("n2"));
    assertThat(rows).containsExactly("acme 09:59:30 1 1", "globex 09:59:30 1 1", "acme 10:00:00 1 1",
        "globex 10:00:00 1 1", "acme 10:00:30 1 1", "acme 10:01:00 2 2", "acme 10:01:30 1 1",
        "globex 10:01:30 1 1", "globex 10:02:00 1 1");
    assertThat(p.stats().rowsOut()).isEqualTo(9);
  }

  @Test
  void exampleC_sessionPerKey() {
    List<String> rows = new ArrayList<>();
    runC(WindowSpec.session(MIN), rows, AggregateSpec.countAll("n"), AggregateSpec.countAll("n2"));
    assertThat(rows).containsExactly("acme 10:00:03 1 1", "globex 10:00:07 1 1", "acme 10:01:12 2 2",
        "globex 10:02:20 1 1");
  }
}
