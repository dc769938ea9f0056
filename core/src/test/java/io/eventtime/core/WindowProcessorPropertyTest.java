package io.eventtime.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.core.RandomStreams.Event;
import io.eventtime.core.ReferenceModel.Emission;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Properties of {@link WindowProcessor} over many random disordered streams (seeded, so a failure
 * names the seed that reproduces it), and the processor checked row by row against the naive
 * {@link ReferenceModel}: same windows with the same aggregates, emitted in the same order at the
 * same row, same late rows, same stats, same number of open windows after every row.
 */
class WindowProcessorPropertyTest {
  private static final String[] KINDS = {"tumbling", "hopping", "session"};
  private static final long[] UNITS = {1, 10, 1000};
  private static final long[] BASES = {0, -50_000_000L, 1_772_323_200_000L};

  /** One random case: the query and the stream, and a description that reproduces it. */
  record Case(String name, WindowQuery query, List<Event> events) {}

  static Case randomCase(long seed, String kind, LatePolicy policy, List<AggregateSpec> aggregates, int minRows,
      int maxRows) {
    Random r = new Random(seed * 31 + kind.hashCode());
    long unit = UNITS[r.nextInt(UNITS.length)];
    long base = BASES[r.nextInt(BASES.length)];
    long delay = r.nextInt(3) == 0 ? 0 : unit * r.nextInt(40);
    WindowSpec spec = RandomStreams.spec(r, kind, unit);
    boolean global = r.nextInt(5) == 0;
    int keyCount = 1 + r.nextInt(4);
    List<Event> events = RandomStreams.stream(r, minRows + r.nextInt(maxRows - minRows + 1), unit, base, delay,
        global, keyCount, 0.03);
    WindowQuery query = new WindowQuery(spec, global ? List.of() : List.of("name", "group"), aggregates, delay, policy);
    String name = "seed " + seed + ", " + spec + ", delay " + delay + ", policy " + policy.label() + ", "
        + events.size() + " rows";
    return new Case(name, query, events);
  }

  /** What the processor did: its emissions, stats, per-row verdicts and open windows, and the watermark at each emission. */
  record Run(List<Emission> emissions, List<Long> watermarkAtEmit, List<Boolean> emittedByFinish, Stats stats,
      List<Boolean> folded, List<Integer> openAfterRow, int keys) {}

  static Run runProcessor(WindowQuery query, List<Event> events) {
    List<Emission> emissions = new ArrayList<>();
    List<Long> watermarks = new ArrayList<>();
    List<Boolean> byFinish = new ArrayList<>();
    boolean[] finishing = {false};
    WindowProcessor[] holder = new WindowProcessor[1];
    WindowProcessor p = new WindowProcessor(query, result -> {
      emissions.add(new Emission(result, holder[0].stats().rowsIn()));
      watermarks.add(holder[0].watermark());
      byFinish.add(finishing[0]);
    });
    holder[0] = p;
    List<Boolean> folded = new ArrayList<>();
    List<Integer> open = new ArrayList<>();
    Set<Key> keys = new HashSet<>();
    for (Event e : events) {
      if (e.ts() == null) {
        p.reject();
        folded.add(false);
      } else {
        keys.add(e.key());
        folded.add(p.process(e.key(), e.ts(), RandomStreams.inputs(e, query.aggregates())));
      }
      open.add(p.openWindowCount());
    }
    finishing[0] = true;
    p.finish();
    return new Run(emissions, watermarks, byFinish, p.stats(), folded, open, keys.size());
  }

  @Test
  void processorAgreesWithTheNaiveModelOnEveryRow() {
    int cases = 0;
    int lateRows = 0;
    int windows = 0;
    for (long seed = 0; seed < 120; seed++) {
      for (String kind : KINDS) {
        for (LatePolicy policy : LatePolicy.values()) {
          Case c = randomCase(seed, kind, policy, RandomStreams.ALL_AGGREGATES, 50, 300);
          ReferenceModel.Outcome expected = ReferenceModel.run(c.query(), c.events());
          Run actual = runProcessor(c.query(), c.events());
          assertThat(actual.folded()).as("late verdicts, %s", c.name()).isEqualTo(expected.folded());
          assertThat(actual.emissions()).as("windows, %s", c.name()).isEqualTo(expected.emissions());
          assertThat(actual.stats()).as("stats, %s", c.name()).isEqualTo(expected.stats());
          assertThat(actual.openAfterRow()).as("open windows after each row, %s", c.name())
              .isEqualTo(expected.openAfterRow());
          cases++;
          lateRows += actual.stats().lateDropped();
          windows += actual.emissions().size();
        }
      }
    }
    // the generator must really exercise lateness and produce windows, or this test proves little
    assertThat(cases).isEqualTo(720);
    assertThat(lateRows).isGreaterThan(5_000);
    assertThat(windows).isGreaterThan(20_000);
  }

  @Test
  void invariantsHoldOnManyStreams() {
    for (long seed = 1000; seed < 1200; seed++) {
      for (String kind : KINDS) {
        for (LatePolicy policy : LatePolicy.values()) {
          Case c = randomCase(seed, kind, policy, List.of(AggregateSpec.countAll("n")), 200, 1500);
          Run run = runProcessor(c.query(), c.events());
          checkInvariants(c, run);
        }
      }
    }
  }

  private static void checkInvariants(Case c, Run run) {
    Stats s = run.stats();
    long rejected = c.events().stream().filter(e -> e.ts() == null).count();
    assertThat(s.rowsIn()).as(c.name()).isEqualTo(c.events().size());
    assertThat(s.rowsRejected()).as(c.name()).isEqualTo(rejected);
    assertThat(s.rowsIn()).as("rows_in = rows_folded + late_dropped + rows_rejected, %s", c.name())
        .isEqualTo(s.rowsFolded() + s.lateDropped() + s.rowsRejected());
    assertThat(s.balanced()).as(c.name()).isTrue();
    assertThat(run.folded().stream().filter(f -> f).count()).as(c.name()).isEqualTo(s.rowsFolded());
    assertThat(s.rowsOut()).as(c.name()).isEqualTo(run.emissions().size());

    // each window once, in close order, and the rows in the windows are the folded rows
    Set<List<Object>> seen = new HashSet<>();
    Set<List<Long>> intervals = new HashSet<>();
    long countedRows = 0;
    WindowResult previous = null;
    for (Emission e : run.emissions()) {
      WindowResult r = e.result();
      assertThat(seen.add(List.of(r.key(), r.start(), r.end()))).as("emitted twice: %s, %s", r, c.name()).isTrue();
      intervals.add(List.of(r.start(), r.end()));
      if (previous != null) {
        assertThat(WindowResult.CLOSE_ORDER.compare(previous, r)).as("close order: %s then %s, %s", previous, r,
            c.name()).isNegative();
      }
      previous = r;
      countedRows += (Long) r.values()[0];
    }
    assertThat(s.windowsClosed()).as(c.name()).isEqualTo(intervals.size());
    if (!(c.query().spec() instanceof WindowSpec.Hopping)) {
      // a tumbling or session row is in exactly one window
      assertThat(countedRows).as(c.name()).isEqualTo(s.rowsFolded());
    }

    // a window is emitted only once the watermark closes it (or at the end of the run)
    for (int i = 0; i < run.emissions().size(); i++) {
      if (!run.emittedByFinish().get(i)) {
        WindowResult r = run.emissions().get(i).result();
        assertThat(c.query().spec().isClosed(r.end(), run.watermarkAtEmit().get(i)))
            .as("%s emitted at watermark %s, %s", r, run.watermarkAtEmit().get(i), c.name()).isTrue();
      }
    }

    // memory: never more open windows than can be open at a watermark, whatever the stream's length
    long bound = run.keys() * openWindowsPerKeyBound(c.query());
    assertThat(run.openAfterRow().stream().mapToInt(Integer::intValue).max().orElse(0))
        .as("open windows, %s", c.name()).isLessThanOrEqualTo((int) bound);
  }

  /**
   * The most windows of one key that can be open at once. An open grid window ends after the
   * watermark {@code max - delay} and starts at or before {@code max}, so its end lies in
   * {@code (max - delay, max + size]}: ends are a slide apart. An open session ends at or after
   * the watermark, its last row at or before {@code max}, and the sessions of a key are more than
   * a gap apart.
   */
  static long openWindowsPerKeyBound(WindowQuery q) {
    long d = q.delayMillis();
    if (q.spec() instanceof WindowSpec.Session s) {
      return (d + s.gapMillis()) / s.gapMillis() + 1;
    }
    long size = q.spec() instanceof WindowSpec.Hopping h ? h.sizeMillis() : ((WindowSpec.Tumbling) q.spec()).sizeMillis();
    long slide = q.spec() instanceof WindowSpec.Hopping h ? h.slideMillis() : size;
    return (d + size) / slide + 1;
  }

  @Test
  void openWindowsStayBoundedOnALongStreamWithAMovingWatermark() {
    for (String kind : KINDS) {
      Random r = new Random(77 + kind.length());
      WindowSpec spec = switch (kind) {
        case "tumbling" -> WindowSpec.tumbling(60_000);
        case "hopping" -> WindowSpec.hopping(20_000, 60_000);
        default -> WindowSpec.session(5_000);
      };
      long delay = 30_000;
      WindowQuery q = new WindowQuery(spec, List.of("k"), List.of(AggregateSpec.countAll("n")), delay,
          LatePolicy.WINDOW);
      long[] emitted = {0};
      WindowProcessor p = new WindowProcessor(q, w -> emitted[0]++);
      int keys = 20;
      int maxOpen = 0;
      long t = 1_772_323_200_000L;
      for (int i = 0; i < 200_000; i++) {
        t += r.nextInt(400);
        long ts = t - (r.nextInt(10) == 0 ? r.nextInt(120_000) : r.nextInt(5_000));
        p.process(Key.of("k" + r.nextInt(keys)), ts, new Object[] {null});
        maxOpen = Math.max(maxOpen, p.openWindowCount());
      }
      long openBeforeFinish = p.openWindowCount();
      long emittedBeforeFinish = emitted[0];
      p.finish();
      assertThat(p.openWindowCount()).isZero();
      assertThat(emitted[0]).as(kind).isEqualTo(emittedBeforeFinish + openBeforeFinish);
      // 200,000 rows over ~11 hours make thousands of windows, but only a handful per key are ever open
      assertThat(emittedBeforeFinish).as(kind).isGreaterThan(5_000);
      assertThat((long) maxOpen).as(kind).isLessThanOrEqualTo(keys * openWindowsPerKeyBound(q));
      assertThat(p.stats().balanced()).isTrue();
    }
  }

  @Test
  void carryingTheOpenStateIntoAnotherRunGivesTheSameWindowsOnce() {
    for (long seed = 0; seed < 150; seed++) {
      for (String kind : KINDS) {
        for (LatePolicy policy : LatePolicy.values()) {
          Case c = randomCase(seed, kind, policy, RandomStreams.ALL_AGGREGATES, 20, 250);
          Run whole = runProcessor(c.query(), c.events());
          Random r = new Random(seed);
          int cut1 = r.nextInt(c.events().size() + 1);
          int cut2 = cut1 + r.nextInt(c.events().size() - cut1 + 1);

          List<WindowResult> pieces = new ArrayList<>();
          long rowsIn = 0;
          long folded = 0;
          long late = 0;
          long rejected = 0;
          OpenState state = OpenState.empty();
          int[][] ranges = {{0, cut1}, {cut1, cut2}, {cut2, c.events().size()}};
          for (int part = 0; part < 3; part++) {
            WindowProcessor p = new WindowProcessor(c.query(), pieces::add, state);
            for (Event e : c.events().subList(ranges[part][0], ranges[part][1])) {
              if (e.ts() == null) {
                p.reject();
              } else {
                p.process(e.key(), e.ts(), RandomStreams.inputs(e, c.query().aggregates()));
              }
            }
            if (part < 2) {
              state = p.hold();
              assertThat(state.windows()).as(c.name()).hasSize(p.openWindowCount());
            } else {
              p.finish();
            }
            rowsIn += p.stats().rowsIn();
            folded += p.stats().rowsFolded();
            late += p.stats().lateDropped();
            rejected += p.stats().rowsRejected();
          }
          assertThat(pieces).as("three runs cut at %d and %d, %s", cut1, cut2, c.name())
              .isEqualTo(whole.emissions().stream().map(Emission::result).toList());
          assertThat(List.of(rowsIn, folded, late, rejected)).as(c.name()).isEqualTo(List.of(whole.stats().rowsIn(),
              whole.stats().rowsFolded(), whole.stats().lateDropped(), whole.stats().rowsRejected()));
        }
      }
    }
  }
}
