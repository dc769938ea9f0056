package io.eventtime.hop.fileinput;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.core.AggregateKind;
import io.eventtime.core.AggregateSpec;
import io.eventtime.core.Key;
import io.eventtime.core.LatePolicy;
import io.eventtime.core.TimeText;
import io.eventtime.core.WindowProcessor;
import io.eventtime.core.WindowQuery;
import io.eventtime.core.WindowResult;
import io.eventtime.core.WindowSpec;
import io.eventtime.hop.HopRunChild;
import io.eventtime.hop.HopTestEnvironment;
import io.eventtime.hop.LocalRun;
import io.eventtime.hop.PipelineBuilder;
import io.eventtime.hop.Rows;
import io.eventtime.hop.fileoutput.EventFileOutputMeta;
import io.eventtime.hop.window.EventTimeWindow;
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
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.hop.core.logging.LogLevel;
import org.apache.hop.core.variables.Variables;
import org.apache.hop.pipeline.PipelineMeta;
import org.apache.hop.pipeline.transform.ITransform;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Event File Input following its files, Event Time Window with a state folder, Event File Output,
 * on the local engine, over several runs with stops between (a safe stop, a plain stop while rows
 * are in the hops, the idle stop) and rows appended and files landing between and during the runs:
 * the output file is exactly that of one bounded run over all the rows (and of core's processor),
 * the window takes every row in once, and a stored position that no longer fits the files fails
 * the run naming the file.
 */
class FollowRestartTest {
  private static final long START = 1_784_368_800_000L; // 2026-07-18 10:00:00

  @TempDir
  Path dir;

  @BeforeAll
  static void hop() {
    HopTestEnvironment.init();
  }

  /** One row: a user, an amount and an event time that is mostly in order (now and then late). */
  private record Event(String user, long amount, long time) {
    String json() {
      return "{\"user\":\"" + user + "\",\"amount\":" + amount + ",\"event_time\":" + time + "}\n";
    }
  }

  private static List<Event> randomEvents(int n, long seed) {
    Random random = new Random(seed);
    List<Event> events = new ArrayList<>();
    long clock = START;
    for (int i = 0; i < n; i++) {
      clock += random.nextInt(2_000);
      // now and then a row from up to 20 s back: late when it is past the delay of 5 s
      long time = random.nextInt(10) == 0 ? clock - random.nextInt(20_000) : clock;
      events.add(new Event("u" + random.nextInt(4), random.nextInt(100), time));
    }
    return events;
  }

  private static String lines(List<Event> events) {
    StringBuilder text = new StringBuilder();
    events.forEach(e -> text.append(e.json()));
    return text.toString();
  }

  private static void append(Path file, String text) throws IOException {
    Files.writeString(file, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
  }

  private EventFileInputMeta input(boolean follow) {
    EventFileInputMeta m = new EventFileInputMeta();
    m.setDefault();
    m.setFiles(List.of(new InputFile(dir.resolve("in").toString(), ".*\\.ndjson")));
    m.setFields(List.of(new InputField("user", "String", null), new InputField("amount", "Integer", null),
        new InputField("event_time", "Integer", null)));
    m.setFilenameField("_file");
    m.setLineNumberField("_line");
    m.setFollow(follow);
    return m;
  }

  /**
   * read > [pass >] window > write, read's rejected rows > errors; with {@code pass}, a plain stop
   * finds rows in two hops, and those between read and pass never reach the window.
   */
  private PipelineMeta pipeline(EventFileInputMeta read, Path state, Path output, boolean pass) {
    EventTimeWindowMeta window = new EventTimeWindowMeta();
    window.setDefault();
    window.setTimeField("event_time");
    window.setWindowSize("10 SECONDS");
    window.setWatermarkDelay("5 SECONDS");
    window.setGroupFields(new ArrayList<>(List.of(new GroupField("user"))));
    window.setAggregates(new ArrayList<>(List.of(new WindowAggregate(null, "count", "events"),
        new WindowAggregate("amount", "sum", "total"))));
    window.setStateFolder(state.toString());
    EventFileOutputMeta write = new EventFileOutputMeta();
    write.setDefault();
    write.setFilename(output.toString());
    PipelineBuilder b = new PipelineBuilder("follow-restarts").transform("read", read).transform("window", window)
        .transform("write", write).dummy("errors").hop("window", "write").errorHop("read", "errors");
    if (pass) {
      b.dummy("pass").hop("read", "pass").hop("pass", "window");
    } else {
      b.hop("read", "window");
    }
    return b.build();
  }

  /** The file one bounded run over the same files writes, with a state folder of its own. */
  private String boundedRun() throws Exception {
    Path output = dir.resolve("bounded.ndjson");
    LocalRun.Result r = new LocalRun(pipeline(input(false), dir.resolve("bounded-state"), output, false)).run();
    assertThat(r.errors()).isZero();
    return Files.readString(output);
  }

  /** The windows core's processor closes over {@code events}, those still open kept (a state folder's run). */
  private static String coreFile(List<Event> events) {
    WindowQuery query = new WindowQuery(WindowSpec.tumbling(10_000), List.of("user"),
        List.of(new AggregateSpec(AggregateKind.COUNT_ALL, null, "events"),
            new AggregateSpec(AggregateKind.SUM, "amount", "total")), 5_000, LatePolicy.WINDOW);
    StringBuilder out = new StringBuilder();
    WindowProcessor core = new WindowProcessor(query, w -> out.append(line(w)));
    for (Event e : events) {
      core.process(Key.of(e.user()), e.time(), new Object[] {null, e.amount()});
    }
    core.hold();
    return out.toString();
  }

  private static String line(WindowResult w) {
    return "{\"user\":\"" + w.key().get(0) + "\",\"window_start\":\"" + TimeText.format(w.start())
        + "\",\"window_end\":\"" + TimeText.format(w.end()) + "\",\"events\":" + w.values()[0] + ",\"total\":"
        + w.values()[1] + "}\n";
  }

  @Test
  void runsStoppedSafelyPlainlyAndWhenIdleWriteTheFileOfOneBoundedRunAndTakeEveryRowOnce() throws Exception {
    List<Event> events = randomEvents(1200, 11);
    Path in = Files.createDirectory(dir.resolve("in"));
    Path a = in.resolve("a.ndjson");
    Path b = in.resolve("b.ndjson");
    Path c = in.resolve("c.ndjson");
    Path state = dir.resolve("state");
    Path output = dir.resolve("windows.ndjson");
    append(a, lines(events.subList(0, 200)));

    // run 1: rows appended to a and a file landing while it follows them; a safe stop
    LocalRun.Started first = new LocalRun(pipeline(input(true), state, output, false)).start();
    ITransform read1 = first.result().pipeline().getTransform("read", 0);
    first.await("a's first rows", Duration.ofSeconds(30), () -> read1.getLinesInput() == 200);
    append(a, lines(events.subList(200, 400)));
    append(b, lines(events.subList(400, 500)));
    first.await("the rows appended and landed, in the window", Duration.ofSeconds(30),
        () -> read1.getLinesInput() == 500 && windowTookIn(first.result()) == 500);
    first.result().pipeline().safeStop();
    first.result().pipeline().waitUntilFinished();
    assertThat(first.result().errors()).isZero();
    assertThat(Files.readString(state.resolve("state.json"))).contains("\"file\":\"" + b + "\",\"line\":101");

    // while no run follows them: more rows for b, and a new file
    append(b, lines(events.subList(500, 650)));
    append(c, lines(events.subList(650, 800)));

    // run 2 goes on after b's line 100: a plain stop as soon as the rows there are read
    LocalRun.Started second = new LocalRun(pipeline(input(true), state, output, false)).start();
    ITransform read2 = second.result().pipeline().getTransform("read", 0);
    second.await("the rows after the stored position", Duration.ofSeconds(30), () -> read2.getLinesInput() == 300);
    append(c, lines(events.subList(800, 900)));
    second.await("the rows appended to c, in the window", Duration.ofSeconds(30),
        () -> read2.getLinesInput() == 400 && windowTookIn(second.result()) == 400);
    second.result().pipeline().stopAll();
    second.result().pipeline().waitUntilFinished();
    assertThat(second.result().errors()).isZero();

    // run 3, after a malformed line and more rows: until idle
    append(c, "{oops\n" + lines(events.subList(900, 1200)));
    EventFileInputMeta read = input(true);
    read.setFollowIdleStop("1 SECOND");
    LocalRun.Result third = new LocalRun(pipeline(read, state, output, false)).run("errors");
    assertThat(third.errors()).isZero();
    assertThat(Rows.text(third.rows("errors"))).as("the malformed line, numbered as in the file").hasSize(1)
        .first().asString().contains(c + " line 251: malformed JSON");

    assertThat(read1.getLinesInput() + read2.getLinesInput() + third.pipeline().getTransform("read", 0)
        .getLinesInput()).as("lines read by the three runs").isEqualTo(1201);
    assertThat(windowTookIn(first.result()) + windowTookIn(second.result()) + windowTookIn(third))
        .as("rows the window took in").isEqualTo(1200);
    String expected = coreFile(events);
    assertThat(expected.lines().count()).as("windows closed").isGreaterThan(100);
    assertThat(Files.readString(output)).isEqualTo(expected).isEqualTo(boundedRun());
  }

  @Test
  void aPlainStopWithRowsInTheHopsReadsThoseRowsAgainAndNoneTwice() throws Exception {
    List<Event> events = randomEvents(20_000, 12);
    Path in = Files.createDirectory(dir.resolve("in"));
    append(in.resolve("a.ndjson"), lines(events.subList(0, 15_000)));
    Path state = dir.resolve("state");
    Path output = dir.resolve("windows.ndjson");

    LocalRun.Started first = new LocalRun(pipeline(input(true), state, output, true)).start();
    ITransform window1 = first.result().pipeline().getTransform("window", 0);
    first.await("the window's first rows", Duration.ofSeconds(30), () -> window1.getLinesRead() >= 2_000);
    first.result().pipeline().stopAll();
    first.result().pipeline().waitUntilFinished();
    assertThat(first.result().errors()).isZero();
    assertThat(window1.getLinesRead()).as("the stop came before the end of the file").isLessThan(15_000);

    append(in.resolve("b.ndjson"), lines(events.subList(15_000, 20_000)));
    EventFileInputMeta read = input(true);
    read.setFollowIdleStop("1 SECOND");
    LocalRun.Result second = new LocalRun(pipeline(read, state, output, true)).run();
    assertThat(second.errors()).isZero();

    assertThat(windowTookIn(first.result()) + windowTookIn(second))
        .as("rows the window took in").isEqualTo(20_000);
    assertThat(Files.readString(output)).isEqualTo(coreFile(events));
  }

  @Test
  void aStoredPositionAfterAFinishedFilesLastLineWithoutNewlineGoesOnWithTheNextFile() throws Exception {
    List<Event> events = randomEvents(300, 15);
    Path in = Files.createDirectory(dir.resolve("in"));
    Path a = in.resolve("a.ndjson");
    String text = lines(events.subList(0, 100));
    append(a, text.substring(0, text.length() - 1)); // finished by b's landing, its last line read without a newline
    append(in.resolve("b.ndjson"), "{oops\n");
    Path state = dir.resolve("state");
    Path output = dir.resolve("windows.ndjson");
    EventFileInputMeta read = input(true);
    read.setFollowIdleStop("1 SECOND");
    LocalRun.Result first = new LocalRun(pipeline(read, state, output, false)).run();
    assertThat(first.errors()).isZero();
    assertThat(Files.readString(state.resolve("state.json")))
        .contains("\"file\":\"" + a + "\",\"line\":101,\"byte\":" + Files.size(a));

    append(in.resolve("c.ndjson"), lines(events.subList(100, 300)));
    LocalRun.Result second = new LocalRun(pipeline(read, state, output, false)).run("errors");
    assertThat(second.errors()).isZero();
    assertThat(Rows.text(second.rows("errors"))).as("b's line, rejected again: it came after the last row taken in")
        .hasSize(1);
    assertThat(windowTookIn(first) + windowTookIn(second)).isEqualTo(300);
    assertThat(Files.readString(output)).isEqualTo(coreFile(events));
  }

  @Test
  void aStoredFileThatShrankOrIsGoneFailsTheRunNamingIt() throws Exception {
    List<Event> events = randomEvents(40, 13);
    Path in = Files.createDirectory(dir.resolve("in"));
    Path a = in.resolve("a.ndjson");
    append(a, lines(events));
    Path state = dir.resolve("state");
    Path output = dir.resolve("windows.ndjson");
    EventFileInputMeta read = input(true);
    read.setFollowIdleStop("1 SECOND");
    assertThat(new LocalRun(pipeline(read, state, output, false)).run().errors()).isZero();
    long size = Files.size(a);
    assertThat(Files.readString(state.resolve("state.json")))
        .contains("\"file\":\"" + a + "\",\"line\":41,\"byte\":" + size);

    Files.writeString(a, lines(events.subList(0, 10)));
    LocalRun shrunk = new LocalRun(pipeline(read, state, output, false));
    assertThat(shrunk.run().errors()).isPositive();
    assertThat(String.join("\n", shrunk.messages(LogLevel.ERROR))).contains("Follow the files: the state of Event"
        + " Time Window 'window' goes on at " + a + " line 41 (byte " + size + "), and that file has "
        + Files.size(a) + " bytes now, fewer than were already read from it: it was cut or rewritten since");

    Files.delete(a);
    LocalRun gone = new LocalRun(pipeline(read, state, output, false));
    assertThat(gone.run().errors()).isPositive();
    assertThat(String.join("\n", gone.messages(LogLevel.ERROR))).contains("Follow the files: the state of Event"
        + " Time Window 'window' goes on at " + a + " line 41 (byte " + size + "), and that file is not there any"
        + " more (removed or renamed)");
  }

  /**
   * HopRun following the files in a JVM of its own, killed with {@code kill -9} at random moments
   * while rows are appended and files land, restarted each time, and at last run until idle: the
   * output file is exactly that of one uninterrupted run. Rounds: {@code -Dhop.kill.rounds=N} (3
   * by default); seed: {@code -Dhop.kill.seed}.
   */
  @Test
  void hopRunKilledAtRandomMomentsAndRestartedWritesTheFileOfOneUninterruptedRun() throws Exception {
    int rounds = Integer.getInteger("hop.kill.rounds", 3);
    long seed = Long.getLong("hop.kill.seed", 14);
    Random random = new Random(seed);
    List<Event> events = randomEvents(400 * (rounds + 1), seed);
    Path in = Files.createDirectory(dir.resolve("in"));
    Path state = dir.resolve("state");
    Path output = dir.resolve("windows.ndjson");
    Path live = Files.writeString(dir.resolve("live.hpl"),
        pipeline(input(true), state, output, false).getXml(new Variables()));
    EventFileInputMeta untilIdle = input(true);
    untilIdle.setFollowIdleStop("2 SECONDS");
    Path last = Files.writeString(dir.resolve("until-idle.hpl"),
        pipeline(untilIdle, state, output, false).getXml(new Variables()));

    for (int round = 0; round < rounds; round++) {
      Path log = dir.resolve("round-" + round + ".log");
      Process hopRun = HopRunChild.start(dir, live, log);
      awaitLog(log, "Following the files");
      int from = round * 400;
      Path file = in.resolve("part-" + round + ".ndjson");
      // the rows of this round are appended while the pipeline runs; it is killed at a random moment among them
      Thread writer = new Thread(() -> {
        for (int chunk = 0; chunk < 10; chunk++) {
          try {
            append(file, lines(events.subList(from + chunk * 40, from + chunk * 40 + 40)));
          } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
          sleep(100);
        }
      });
      writer.start();
      sleep(200 + random.nextInt(1300));
      hopRun.destroyForcibly().waitFor();
      writer.join();
    }
    append(in.resolve("part-" + rounds + ".ndjson"), lines(events.subList(rounds * 400, events.size())));
    Path lastLog = dir.resolve("last.log");
    Process hopRun = HopRunChild.start(dir, last, lastLog);
    assertThat(hopRun.waitFor(120, TimeUnit.SECONDS)).as("HopRun ends at the idle stop").isTrue();
    String text = Files.readString(lastLog);
    assertThat(hopRun.exitValue()).as(text).isZero();
    assertThat(text).as("the last run goes on from the state").contains("Going on from the state of Event Time"
        + " Window 'window'");

    String expected = coreFile(events);
    assertThat(expected.lines().count()).as("windows closed").isGreaterThan(100);
    assertThat(Files.readString(output)).isEqualTo(expected);
  }

  @Test
  void hopRunEndedBySigtermStoresThePositionOfEveryRowItReadAndTheNextRunGoesOnThere() throws Exception {
    List<Event> events = randomEvents(900, 16);
    Path in = Files.createDirectory(dir.resolve("in"));
    Path a = in.resolve("a.ndjson");
    append(a, lines(events.subList(0, 300)));
    Path state = dir.resolve("state");
    Path output = dir.resolve("windows.ndjson");
    Path log = dir.resolve("terminated.log");
    Process hopRun = HopRunChild.start(dir, Files.writeString(dir.resolve("live.hpl"),
        pipeline(input(true), state, output, false).getXml(new Variables())), log);
    awaitLog(log, "Following the files");
    sleep(1500);
    hopRun.destroy(); // SIGTERM
    assertThat(hopRun.waitFor(60, TimeUnit.SECONDS)).as("HopRun ends on SIGTERM").isTrue();
    assertThat(Files.readString(state.resolve("state.json"))).as("every row was taken in and stored at the stop")
        .contains("\"file\":\"" + a + "\",\"line\":301,\"byte\":" + Files.size(a));

    append(a, lines(events.subList(300, 600)));
    append(in.resolve("b.ndjson"), lines(events.subList(600, 900)));
    EventFileInputMeta untilIdle = input(true);
    untilIdle.setFollowIdleStop("1 SECOND");
    LocalRun.Result last = new LocalRun(pipeline(untilIdle, state, output, false)).run();
    assertThat(last.errors()).isZero();
    assertThat(last.pipeline().getTransform("read", 0).getLinesInput()).as("the rows after the stop only")
        .isEqualTo(600);
    assertThat(Files.readString(output)).isEqualTo(coreFile(events));
  }

  private static void awaitLog(Path log, String text) throws IOException {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!Files.readString(log).contains(text)) {
      assertThat(System.nanoTime()).as("HopRun logged '" + text + "' in time").isLessThan(end);
      sleep(20);
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The rows the window took in during {@code run}: its processor's, those taken at a stop too. */
  private static long windowTookIn(LocalRun.Result run) {
    EventTimeWindow window = (EventTimeWindow) run.pipeline().getTransform("window", 0);
    return window.getData().processor() == null ? 0 : window.getData().stats().rowsIn();
  }
}
