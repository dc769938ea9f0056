package io.eventtime.hop.window;

import static io.eventtime.core.contract.WorkedExamples.B;
import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.core.OpenState;
import io.eventtime.core.Stats;
import io.eventtime.core.TimeText;
import io.eventtime.core.contract.WorkedExamples.Run;
import io.eventtime.core.contract.WorkedExamples.Window;
import io.eventtime.core.state.StateStore;
import io.eventtime.hop.HopTestEnvironment;
import io.eventtime.hop.LocalRun;
import io.eventtime.hop.PipelineBuilder;
import io.eventtime.hop.Rows;
import io.eventtime.hop.Samples;
import io.eventtime.hop.fileoutput.EventFileOutputMeta;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hop.core.row.IRowMeta;
import org.apache.hop.core.row.RowMeta;
import org.apache.hop.core.row.IValueMeta;
import org.apache.hop.core.row.value.ValueMetaInteger;
import org.apache.hop.core.row.value.ValueMetaNumber;
import org.apache.hop.core.row.value.ValueMetaString;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The contract's example B: two runs that carry the watermark and open windows in a state folder. */
class StateBetweenRunsTest {
  @TempDir
  Path dir;

  @BeforeAll
  static void hop() {
    HopTestEnvironment.init();
  }

  private static EventTimeWindowMeta window(Path state) {
    EventTimeWindowMeta w = new EventTimeWindowMeta();
    w.setDefault();
    w.setWindowSize(B.size());
    w.setWatermarkDelay(B.delay());
    w.setLatePolicy(B.policy());
    w.setStateFolder(state.toString());
    w.setAggregates(List.of(new WindowAggregate(null, "count", "events")));
    w.setLateTargetTransform("late");
    return w;
  }

  private static LocalRun.Result run(EventTimeWindowMeta w, String... minutes) throws Exception {
    return run(w, Stream.of(minutes).map(m -> "2026-03-01 " + m + ":00").toList());
  }

  private static LocalRun.Result run(EventTimeWindowMeta w, List<String> times) throws Exception {
    IRowMeta in = new RowMeta();
    in.addValueMeta(new ValueMetaString("event_time"));
    List<Object[]> rows = new ArrayList<>();
    for (String t : times) {
      rows.add(new Object[] {t});
    }
    return new LocalRun(new PipelineBuilder("example-b").injector("in", in).transform("window", w).dummy("out")
        .dummy("late").hop("in", "window").hop("window", "out").hop("window", "late").build())
        .inject("in", in, rows).run("out", "late");
  }

  private OpenState stored(EventTimeWindowMeta w) {
    WindowSettings s = w.resolve(null, null, new ArrayList<>());
    try (StateStore store = StateStore.open(dir.resolve("state"), s.query(), "event_time")) {
      return store.load();
    }
  }

  private static String describe(OpenState state) {
    StringBuilder b = new StringBuilder("watermark " + TimeText.format(state.maxEventTime() - B.delayMillis()));
    state.windows().forEach(w -> b.append("; window ").append(TimeText.format(w.start())).append(" holds ")
        .append(w.accumulators()[0].result()));
    return b.toString();
  }

  /** What {@link #describe} says of the state a run of example B stores. */
  private static String stored(Run run) {
    StringBuilder b = new StringBuilder("watermark " + run.watermark());
    run.open().forEach(w -> b.append("; window ").append(w.start()).append(" holds ").append(w.count()));
    return b.toString();
  }

  private static List<String> texts(List<Window> windows) {
    return windows.stream().map(Window::text).toList();
  }

  @Test
  void exampleB_twoRunsInPipelinesBuiltInCode() throws Exception {
    EventTimeWindowMeta w = window(dir.resolve("state"));
    LocalRun.Result run1 = run(w, B.run1().times());
    assertThat(run1.errors()).isZero();
    assertThat(Rows.text(run1.rows("out"))).isEqualTo(texts(B.run1().windows()));
    assertThat(describe(stored(w))).isEqualTo(stored(B.run1()));

    LocalRun.Result run2 = run(w, B.run2().times());
    assertThat(run2.errors()).isZero();
    assertThat(Rows.text(run2.rows("out"))).isEqualTo(texts(B.run2().windows()));
    assertThat(Rows.text(run2.rows("late"))).isEqualTo(B.run2().late().stream().map(l -> l.time() + "|event time "
        + l.time() + " is behind the watermark " + l.watermark() + " (late policy " + B.policy() + ")").toList());
    Stats stats = ((EventTimeWindowData) run2.pipeline().getTransform("window", 0).getData()).processor().stats();
    assertThat(stats).isEqualTo(B.run2().stats());
    assertThat(describe(stored(w))).isEqualTo(stored(B.run2()));
  }

  /**
   * A number is a number across runs: a session stored by a run whose key field was an Integer
   * (1) is the session of the next run's Number key 1.0. The two keys once compared equal but
   * were not: the restored session and the new one were one entry of the sorted set of open
   * sessions, and one session was never emitted.
   */
  @Test
  void anIntegerKeyStoredIsTheNumberKeyOfTheNextRun() throws Exception {
    EventTimeWindowMeta w = new EventTimeWindowMeta();
    w.setDefault();
    w.setWindowKind("session");
    w.setSessionGap("5 MINUTES");
    w.setStateFolder(dir.resolve("state").toString());
    w.setGroupFields(List.of(new GroupField("k")));
    w.setAggregates(List.of(new WindowAggregate(null, "count", "events")));
    LocalRun.Result run1 = keyed(w, new ValueMetaInteger("k"), new Object[] {1L, "2026-03-01 00:01:00"});
    assertThat(run1.errors()).isZero();
    assertThat(run1.rows("out")).isEmpty();

    LocalRun.Result run2 = keyed(w, new ValueMetaNumber("k"), new Object[] {1.0, "2026-03-01 00:01:00"},
        new Object[] {2.0, "2026-03-01 00:30:00"});
    assertThat(run2.errors()).isZero();
    assertThat(Rows.text(run2.rows("out"))).containsExactly("1.0|2026-03-01 00:01:00|2026-03-01 00:06:00|2");
    assertThat(stored(w).windows()).hasSize(1);
  }

  private static LocalRun.Result keyed(EventTimeWindowMeta w, IValueMeta key, Object[]... rows) throws Exception {
    IRowMeta in = new RowMeta();
    in.addValueMeta(key);
    in.addValueMeta(new ValueMetaString("event_time"));
    return new LocalRun(new PipelineBuilder("keyed").injector("in", in).transform("window", w).dummy("out")
        .hop("in", "window").hop("window", "out").build()).inject("in", in, List.of(rows)).run("out");
  }

  @Test
  void aRunThatFailsStoresNothing() throws Exception {
    EventTimeWindowMeta w = window(dir.resolve("state"));
    run(w, B.run1().times());
    String before = Files.readString(dir.resolve("state/state.json"));

    // the second run's windows cannot be written: the file to write is a folder
    EventFileOutputMeta out = new EventFileOutputMeta();
    out.setDefault();
    out.setFilename(Files.createDirectories(dir.resolve("a-folder")).toString());
    IRowMeta in = new RowMeta();
    in.addValueMeta(new ValueMetaString("event_time"));
    LocalRun.Result failed = new LocalRun(new PipelineBuilder("failing").injector("in", in).transform("window", w)
        .transform("write", out).dummy("late").hop("in", "window").hop("window", "write").hop("window", "late").build())
        .inject("in", in, List.<Object[]>of(new Object[] {"2026-03-01 00:13:00"}, new Object[] {"2026-03-01 00:30:00"}))
        .run();
    assertThat(failed.errors()).isPositive();
    assertThat(Files.readString(dir.resolve("state/state.json"))).isEqualTo(before);

    // and the folder is free again: the second run, done right, goes on from the first
    LocalRun.Result run2 = run(w, B.run2().times());
    assertThat(Rows.text(run2.rows("out"))).isEqualTo(texts(B.run2().windows()));
  }

  @Test
  void aStateOfAnotherQueryIsRefusedBeforeTheRun() throws Exception {
    run(window(dir.resolve("state")), "00:01", "00:17");
    EventTimeWindowMeta other = window(dir.resolve("state"));
    other.setWindowSize("5 MINUTES");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> run(other, "00:20"))
        .hasMessageContaining("failed to initialize");
  }

  @Test
  void exampleB_twoRunsOfTheSamplePipeline() throws Exception {
    Path sample = Samples.pipeline("example-b-state.hpl");
    for (int i = 1; i <= 2; i++) {
      LocalRun.Result r = LocalRun.of(sample).parameter("OUTPUT_FOLDER", dir.resolve("run" + i).toString())
          .parameter("STATE_FOLDER", dir.resolve("state").toString())
          .parameter("INPUT_FILE", Samples.folder().resolve("data/example-b-run" + i + ".ndjson").toString()).run();
      assertThat(r.errors()).isZero();
    }
    int i = 1;
    for (Run run : List.of(B.run1(), B.run2())) {
      assertThat(Files.readAllLines(dir.resolve("run" + i + "/example-b-state.ndjson"))).isEqualTo(run.windows()
          .stream().map(w -> "{\"window_start\":\"" + w.start() + "\",\"window_end\":\"" + w.end() + "\",\"events\":"
              + w.count() + "}").toList());
      assertThat(Files.readAllLines(dir.resolve("run" + i + "/example-b-state-late.ndjson"))).hasSize(run.late().size());
      i++;
    }
    assertThat(describe(stored(window(dir.resolve("state"))))).isEqualTo(stored(B.run2()));
  }
}
