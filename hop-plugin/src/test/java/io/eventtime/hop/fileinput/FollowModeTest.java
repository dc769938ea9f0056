package io.eventtime.hop.fileinput;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.eventtime.core.TimeText;
import io.eventtime.hop.HopTestEnvironment;
import io.eventtime.hop.LocalRun;
import io.eventtime.hop.PipelineBuilder;
import io.eventtime.hop.Rows;
import io.eventtime.hop.window.EventTimeWindowMeta;
import io.eventtime.hop.window.GroupField;
import io.eventtime.hop.window.WindowAggregate;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.hop.core.ICheckResult;
import org.apache.hop.core.exception.HopException;
import org.apache.hop.core.logging.LogLevel;
import org.apache.hop.core.variables.Variables;
import org.apache.hop.pipeline.PipelineMeta;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Event File Input's follow mode on the local engine: lines appended and files landing while the
 * pipeline runs reach Event Time Window, whose rows come out before the stop; at the stop (or the
 * idle stop) the rows are exactly those of a run over the same files without follow.
 */
class FollowModeTest {
  private static final long T0 = 1_784_368_800_000L; // 2026-07-18 10:00:00

  @TempDir
  Path dir;

  @BeforeAll
  static void hop() {
    HopTestEnvironment.init();
  }

  private static String row(String user, long ts, long amount) {
    return "{\"user\":\"" + user + "\",\"amount\":" + amount + ",\"event_time\":\"" + TimeText.format(ts) + "\"}\n";
  }

  private static void append(Path file, String text) throws IOException {
    Files.writeString(file, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
  }

  private EventFileInputMeta input(boolean follow) {
    EventFileInputMeta m = new EventFileInputMeta();
    m.setDefault();
    m.setFiles(List.of(new InputFile(dir.resolve("in").toString(), ".*\\.ndjson")));
    m.setFields(List.of(new InputField("user", "String", null), new InputField("amount", "Integer", null),
        new InputField("event_time", "Timestamp", null)));
    m.setFollow(follow);
    return m;
  }

  private static EventTimeWindowMeta window() {
    EventTimeWindowMeta w = new EventTimeWindowMeta();
    w.setDefault();
    w.setTimeField("event_time");
    w.setWindowSize("10 SECONDS");
    w.setGroupFields(new ArrayList<>(List.of(new GroupField("user"))));
    w.setAggregates(new ArrayList<>(List.of(new WindowAggregate(null, "count", "events"),
        new WindowAggregate("amount", "sum", "total"))));
    return w;
  }

  private static LocalRun pipeline(EventFileInputMeta read) {
    return new LocalRun(design(read, window()));
  }

  /** read > window > out, read's rejected rows > errors. */
  private static PipelineMeta design(EventFileInputMeta read, EventTimeWindowMeta window) {
    return new PipelineBuilder("follow").transform("read", read).transform("window", window).dummy("out")
        .dummy("errors").hop("read", "window").hop("window", "out").errorHop("read", "errors").build();
  }

  /** The same files read once, without follow: what a followed run must end with. */
  private List<String> boundedRows() throws Exception {
    LocalRun.Result r = pipeline(input(false)).run("out");
    assertThat(r.errors()).isZero();
    return Rows.text(r.rows("out"));
  }

  @Test
  void rowsAppendedAndFilesLandingReachTheWindowWhileItRuns_andTheStopEndsWithTheRowsOfTheFiles() throws Exception {
    Path in = Files.createDirectory(dir.resolve("in"));
    Path a = in.resolve("a.ndjson");
    append(a, row("ann", T0 + 1_000, 1) + row("bob", T0 + 2_000, 2));
    LocalRun.Started run = pipeline(input(true)).start("out", "errors");
    Thread.sleep(1_000);
    assertThat(out(run)).as("no window is closed yet").isEmpty();

    append(a, "{\"user\":\"ann\",\"amount\":3,");
    Thread.sleep(500);
    append(a, "\"event_time\":\"" + TimeText.format(T0 + 12_000) + "\"}\n");
    run.await("the window 10:00:00 closed by an appended line", Duration.ofSeconds(30), () -> out(run).size() == 2);
    assertThat(out(run)).containsExactly("ann|2026-07-18 10:00:00|2026-07-18 10:00:10|1|1",
        "bob|2026-07-18 10:00:00|2026-07-18 10:00:10|1|2");

    append(in.resolve("b.ndjson"), row("bob", T0 + 14_000, 4) + "{oops\n" + row("ann", T0 + 25_000, 5));
    run.await("the window 10:00:10 closed by a new file", Duration.ofSeconds(30), () -> out(run).size() == 4);
    assertThat(run.result().pipeline().isFinished()).as("it waits for more").isFalse();
    append(in.resolve("c.ndjson"), row("cat", T0 + 26_000, 6));
    run.await("the row of the third file", Duration.ofSeconds(30),
        () -> run.result().metric("read", LocalRun.INPUT) == 7);

    // Hop's safe stop: the input transforms stop, the others finish their rows and see the end of the input
    run.result().pipeline().safeStop();
    run.result().pipeline().waitUntilFinished();
    assertThat(run.result().errors()).isZero();
    assertThat(Rows.text(run.result().rows("errors"))).hasSize(1).first().asString()
        .contains(in.resolve("b.ndjson") + " line 2: malformed JSON");
    assertThat(out(run)).as("the stop drains the open windows").isEqualTo(boundedRows()).hasSize(6);
  }

  @Test
  void theIdleStopEndsTheInputOnceNoLineHasComeForThatLong() throws Exception {
    Path in = Files.createDirectory(dir.resolve("in"));
    append(in.resolve("a.ndjson"), row("ann", T0 + 1_000, 1) + row("ann", T0 + 11_000, 2));
    EventFileInputMeta read = input(true);
    read.setFollowIdleStop("1 SECOND");
    LocalRun.Started run = pipeline(read).start("out");
    run.await("the first window", Duration.ofSeconds(30), () -> run.result().rows("out").size() == 1);
    append(in.resolve("b.ndjson"), row("bob", T0 + 12_000, 3));
    run.result().pipeline().waitUntilFinished();
    assertThat(run.result().errors()).isZero();
    assertThat(Rows.text(run.result().rows("out"))).isEqualTo(boundedRows()).hasSize(3);
  }

  /** No state after it: no later run would read a last line without its newline, so the stop reads it. */
  @Test
  void withoutAStateTheStopReadsTheLastLineWithoutItsNewline() throws Exception {
    Path in = Files.createDirectory(dir.resolve("in"));
    append(in.resolve("a.ndjson"), row("ann", T0 + 1_000, 1) + row("ann", T0 + 11_000, 2).strip());
    EventFileInputMeta read = input(true);
    read.setFollowIdleStop("1 SECOND");
    LocalRun.Result run = pipeline(read).run("out");
    assertThat(run.errors()).isZero();
    assertThat(Rows.text(run.rows("out"))).isEqualTo(boundedRows()).hasSize(2);
  }

  @Test
  void aPlainStopEndsTheFollowingAtOnce() throws Exception {
    Path in = Files.createDirectory(dir.resolve("in"));
    append(in.resolve("a.ndjson"), row("ann", T0 + 1_000, 1) + row("ann", T0 + 11_000, 2));
    LocalRun.Started run = pipeline(input(true)).start("out");
    run.await("the first window", Duration.ofSeconds(30), () -> out(run).size() == 1);
    long stopped = System.nanoTime();
    run.result().pipeline().stopAll(); // every transform stops: the window emits nothing more
    run.result().pipeline().waitUntilFinished();
    assertThat(System.nanoTime() - stopped).isLessThan(Duration.ofSeconds(10).toNanos());
    assertThat(run.result().errors()).isZero();
    assertThat(out(run)).hasSize(1);
  }

  @Test
  void aFollowedFileThatShrinksFailsThePipelineNamingIt() throws Exception {
    Path in = Files.createDirectory(dir.resolve("in"));
    Path a = in.resolve("a.ndjson");
    append(a, row("ann", T0 + 1_000, 1) + row("ann", T0 + 11_000, 2));
    LocalRun run = pipeline(input(true));
    LocalRun.Started started = run.start("out");
    started.await("the first window", Duration.ofSeconds(30), () -> started.result().rows("out").size() == 1);
    Files.writeString(a, row("ann", T0 + 1_000, 1));
    started.result().pipeline().waitUntilFinished();
    assertThat(started.result().errors()).isPositive();
    assertThat(String.join("\n", run.messages(LogLevel.ERROR)))
        .contains(a + " shrank from");
  }

  @Test
  void checkTellsTheFollowSettingsProblems() throws Exception {
    Files.createDirectory(dir.resolve("in"));
    EventFileInputMeta idleWithoutFollow = input(false);
    idleWithoutFollow.setFollowIdleStop("30 SECOND");
    assertThat(check(idleWithoutFollow)).contains("Stop when idle for: '30 SECOND' goes with Follow the files: tick"
        + " it, or clear the setting");
    EventFileInputMeta badIdle = input(true);
    badIdle.setFollowIdleStop("soon");
    assertThat(check(badIdle)).containsExactly("Stop when idle for: 'soon' is not a duration: write an amount"
        + " and a unit, e.g. 5 MINUTE, 30 SECONDS or 1500 MILLISECONDS (units MILLISECOND, SECOND, MINUTE, HOUR, DAY)");
    assertThat(check(input(true))).as("a followed folder may be empty at first")
        .containsExactly("The file input settings are valid and the files are there.");
    assertThat(check(input(false))).as("without follow, an empty folder is refused as before")
        .containsExactly("Files: cannot read file://" + dir.resolve("in") + ": check the path, the mask and the"
            + " permissions");
    EventFileInputMeta notLocal = input(true);
    notLocal.getFiles().get(0).setName("ram:///in");
    assertThat(check(notLocal)).containsExactly("Follow the files: ram:///in is not on the local file system: follow"
        + " mode reads local files only");
    EventFileInputMeta missing = input(true);
    missing.getFiles().get(0).setName(dir.resolve("missing").toString());
    assertThat(check(missing)).containsExactly("Files: cannot read " + dir.resolve("missing") + ": check the path,"
        + " the mask and the permissions");
  }

  @Test
  void checkTellsWhatAStateFolderAfterAFollowedInputNeeds_andAStartIsRefusedWithoutIt() throws Exception {
    Path in = Files.createDirectory(dir.resolve("in"));
    append(in.resolve("a.ndjson"), row("ann", T0 + 1_000, 1));
    Path state = dir.resolve("state");
    EventFileInputMeta read = input(true);
    EventTimeWindowMeta window = window();
    window.setStateFolder(state.toString());
    PipelineMeta p = design(read, window);
    String needsFields = "Follow the files: Event Time Window 'window' after it has a state folder, which stores the"
        + " file and line of the last row it took in, so that the next run goes on after it: set File name field and"
        + " Line number field, and keep them in the rows up to the window";
    assertThat(check(read, p)).containsExactly(needsFields);
    LocalRun run = new LocalRun(p);
    assertThatThrownBy(() -> run.start("out")).isInstanceOf(HopException.class)
        .hasMessageContaining("failed to initialize");
    assertThat(String.join("\n", run.messages(LogLevel.ERROR))).contains(needsFields);
    assertThat(state.resolve("state.json")).doesNotExist();

    read.setFilenameField("_file");
    read.setLineNumberField("_line");
    assertThat(check(read, p)).containsExactly("The file input settings are valid and the files are there.");
    read.setFormat("csv");
    assertThat(check(read, p)).containsExactly("Follow the files: Event Time Window 'window' after it has a state"
        + " folder, and a followed CSV input cannot go on from a stored line yet (a CSV record may span lines, and the"
        + " header is at the start of the file): read NDJSON, clear the state folder, or untick Follow the files");
    read.setFormat("ndjson");

    EventTimeWindowMeta second = window();
    second.setStateFolder(dir.resolve("state2").toString());
    PipelineMeta two = new PipelineBuilder("two").transform("read", read).transform("window", window)
        .transform("window2", second).dummy("out").hop("read", "window").hop("read", "window2").hop("window", "out")
        .build();
    assertThat(check(read, two)).containsExactly("Follow the files: the Event Time Windows window, window2 after it"
        + " each have a state folder, and one state holds where the following goes on after a restart: give a state"
        + " folder to one of them only");

    read.setFollow(false);
    read.setFilenameField(null);
    read.setLineNumberField(null);
    assertThat(check(read, p)).as("a bounded read with a state folder needs none of it")
        .containsExactly("The file input settings are valid and the files are there.");
  }

  private static List<String> check(EventFileInputMeta read, PipelineMeta p) {
    List<ICheckResult> remarks = new ArrayList<>();
    read.check(remarks, p, p.findTransform("read"), null, new String[0], new String[] {"window"}, null,
        new Variables(), null);
    return remarks.stream().map(ICheckResult::getText).toList();
  }

  /** The window rows out has read so far. */
  private static List<String> out(LocalRun.Started run) {
    return Rows.text(run.result().rows("out"));
  }

  private static List<String> check(EventFileInputMeta m) {
    PipelineMeta p = new PipelineBuilder("check").transform("read", m).build();
    List<ICheckResult> remarks = new ArrayList<>();
    m.check(remarks, p, p.findTransform("read"), null, new String[0], new String[0], null, new Variables(), null);
    return remarks.stream().map(ICheckResult::getText).toList();
  }
}
