package io.eventtime.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.core.AggregateSpec;
import io.eventtime.core.WindowQuery;
import io.eventtime.core.WindowSpec;
import io.eventtime.core.state.StateStore;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where the late and rejected rows go: output paths that clash with an input, the state or each
 * other are refused before anything is opened; a refused run leaves the files as they were; a
 * failed run keeps the rows it counted; and the flags that named no file or directory.
 */
class OutputPathsTest {
  private static final String SQL = "SELECT TUMBLE(ts, INTERVAL 10 MINUTE) AS w, count(*) AS n FROM events"
      + " GROUP BY TUMBLE(ts, INTERVAL 10 MINUTE)";
  private static final String[] EVENTS = {
      "{\"ts\":\"2026-03-01 00:01:00\"}",
      "{\"ts\":\"2026-03-01 00:12:00\"}",
      "{\"ts\":\"2026-03-01 00:02:00\"}",
      "not json",
      "{\"ts\":\"2026-03-01 00:25:00\"}"};

  @TempDir
  Path dir;
  private Path input;
  private byte[] inputBytes;

  @BeforeEach
  void input() throws IOException {
    input = Cli.write(dir, "events.ndjson", EVENTS);
    inputBytes = Files.readAllBytes(input);
  }

  private static Cli run(String... flags) {
    List<String> args = new ArrayList<>(List.of(flags));
    args.add(SQL);
    return Cli.run(args.toArray(String[]::new));
  }

  private void refused(Cli run, String message) throws IOException {
    assertThat(run.out()).containsExactly(Cli.error("INVALID_ARGUMENT", message));
    assertThat(run.status()).isEqualTo(2);
    assertThat(Files.readAllBytes(input)).isEqualTo(inputBytes);
  }

  @Test
  void theLateOutputIsTheInput() throws IOException {
    refused(run("--from", input.toString(), "--late-output", input.toString()), "--late-output " + input
        + " is the input --from " + input + " (both are " + input + "): writing it would destroy the input; name"
        + " another file");
  }

  @Test
  void theRejectedOutputIsTheInputThroughDotsAndAFileUri() throws IOException {
    Files.createDirectories(dir.resolve("sub"));
    String roundabout = "file://" + dir + "/./sub/../events.ndjson";
    refused(run("--from", input.toString(), "--rejected-output", roundabout), "--rejected-output " + roundabout
        + " is the input --from " + input + " (both are " + input + "): writing it would destroy the input; name"
        + " another file");
  }

  @Test
  void anOutputIsALinkToTheInput() throws IOException {
    Path link = Files.createSymbolicLink(dir.resolve("late.ndjson"), input);
    refused(run("--from", input.toString(), "--late-output", link.toString()), "--late-output " + link
        + " is the input --from " + input + " (both are " + input + "): writing it would destroy the input; name"
        + " another file");
    assertThat(Files.isSymbolicLink(link)).isTrue();
  }

  @Test
  void anOutputIsTheStateFile() throws IOException {
    Path state = dir.resolve("state");
    assertThat(run("--from", input.toString(), "--state", state.toString()).status()).isZero();
    byte[] stored = Files.readAllBytes(state.resolve("state.json"));
    Path stateFile = state.resolve("state.json");
    refused(run("--from", input.toString(), "--state", state.toString(), "--late-output", stateFile.toString()),
        "--late-output " + stateFile + " is in the state directory " + state + ", which is for the state's own"
            + " files: name a file outside it");
    assertThat(Files.readAllBytes(stateFile)).isEqualTo(stored);
  }

  @Test
  void anOutputIsInTheStateDirectoryThroughALink() throws IOException {
    Path state = Files.createDirectories(dir.resolve("state"));
    Path link = Files.createSymbolicLink(dir.resolve("state-link"), state);
    String rejected = link.resolve("rejected.ndjson").toString();
    refused(run("--from", input.toString(), "--state", state.toString(), "--rejected-output", rejected),
        "--rejected-output " + rejected + " is in the state directory " + state + ", which is for the state's own"
            + " files: name a file outside it");
  }

  @Test
  void anOutputIsTheStateDirectoryNotMadeYet() throws IOException {
    Path state = dir.resolve("new-state");
    refused(run("--from", input.toString(), "--state", state.toString(), "--late-output", state.toString()),
        "--late-output " + state + " is the state directory " + state + ", which is for the state's own files: name"
            + " a file outside it");
    assertThat(state).doesNotExist();
  }

  @Test
  void anInputIsInTheStateDirectory() throws IOException {
    refused(run("--from", input.toString(), "--state", dir.toString()), "--from " + input + " is in the state"
        + " directory " + dir + ", whose files each run replaces: move the input out of it, or give another --state");
    assertThat(dir.resolve("state.json")).doesNotExist();
  }

  @Test
  void bothOutputsNameOneFile() throws IOException {
    Path late = dir.resolve("out.ndjson");
    refused(run("--from", input.toString(), "--late-output", late.toString(), "--rejected-output",
        "file://" + late), "--late-output " + late + " and --rejected-output file://" + late + " name one file, "
        + late + ": give each its own file");
    assertThat(late).doesNotExist();
  }

  @Test
  void bothOutputsNameOneFileThroughALinkToAFileNotMadeYet() throws IOException {
    Path late = dir.resolve("out.ndjson");
    Path link = Files.createSymbolicLink(dir.resolve("link.ndjson"), late);
    refused(run("--from", input.toString(), "--late-output", late.toString(), "--rejected-output", link.toString()),
        "--late-output " + late + " and --rejected-output " + link + " name one file, " + late + ": give each its own"
            + " file");
  }

  /** Issue 3: a run refused before it starts, even one refused for another run's lock, touches no output. */
  @Test
  void aRefusedRunLeavesTheOutputsAsTheyWere() throws IOException {
    Path state = dir.resolve("state");
    Path late = Cli.write(dir, "late.ndjson", "{\"kept\":\"from the last run\"}");
    Path rejected = Cli.write(dir, "rejected.ndjson", "{\"kept\":\"from the last run too\"}");
    byte[] lateBytes = Files.readAllBytes(late);
    byte[] rejectedBytes = Files.readAllBytes(rejected);
    String[] outputs = {"--late-output", late.toString(), "--rejected-output", rejected.toString()};
    WindowQuery query = WindowQuery.of(WindowSpec.tumbling(600_000)).withAggregates(AggregateSpec.countAll("n"));
    Cli locked;
    try (StateStore other = StateStore.open(state, query, "ts")) {
      locked = run(concat(new String[] {"--from", input.toString(), "--state", state.toString()}, outputs));
    }
    assertThat(locked.out()).containsExactly(Cli.error("STATE_REFUSED", "--state " + state + ": another run is using"
        + " the state in " + state + ": wait until it ends, or give this run its own state directory"));
    Cli badQuery = Cli.run(concat(new String[] {"--from", input.toString()}, outputs,
        "SELECT count(*) FROM events GROUP BY TUMBLE(tz, INTERVAL 1 MINUTE)"));
    assertThat(badQuery.last()).startsWith("{\"error\":{\"code\":\"UNKNOWN_COLUMN\"");
    Cli badSecondOutput = run("--from", input.toString(), "--late-output", late.toString(), "--rejected-output",
        "/proc/rejected.ndjson");
    assertThat(badSecondOutput.last()).startsWith("{\"error\":{\"code\":\"INVALID_ARGUMENT\"");
    assertThat(Files.readAllBytes(late)).isEqualTo(lateBytes);
    assertThat(Files.readAllBytes(rejected)).isEqualTo(rejectedBytes);
    assertNoTemporaryFiles();
  }

  /** A run that succeeds replaces the files in one step and leaves no temporary file. */
  @Test
  void aRunReplacesTheOutputs() throws IOException {
    Path late = Cli.write(dir, "late.ndjson", "{\"old\":1}");
    Path rejected = dir.resolve("rejected.ndjson");
    Cli run = run("--from", input.toString(), "--late-output", late.toString(), "--rejected-output",
        rejected.toString());
    assertThat(run.last()).isEqualTo(Cli.stats(5, 3, 1, 3, 3, 1));
    assertThat(Files.readAllLines(late)).containsExactly("{\"source\":\"" + input + "\",\"line\":3,\"event_time\":"
        + "\"2026-03-01 00:02:00\",\"reason\":\"every window of event time 2026-03-01 00:02:00 had closed at watermark"
        + " 2026-03-01 00:12:00 (late policy window)\",\"row\":{\"ts\":\"2026-03-01 00:02:00\"}}");
    // (the words of the reason are the line reader's)
    assertThat(Files.readAllLines(rejected)).singleElement().asString()
        .startsWith("{\"source\":\"" + input + "\",\"line\":4,\"reason\":\"").endsWith("\",\"text\":\"not json\"}");
    assertNoTemporaryFiles();
  }

  /** Issue 6: the rows a failed run counted before it failed are in its files. */
  @Test
  void aFailedRunKeepsTheRowsItCounted() throws IOException {
    Path late = dir.resolve("late.ndjson");
    Path rejected = dir.resolve("rejected.ndjson");
    Path from = Cli.write(dir, "sums.ndjson",
        "{\"ts\":\"2026-03-01 00:01:00\",\"v\":9223372036854775807}",
        "{\"ts\":\"2026-03-01 00:02:00\",\"v\":1}",
        "{\"v\":2}",
        "{\"ts\":\"2026-03-01 00:12:00\",\"v\":3}",
        "{\"ts\":\"2026-03-01 00:03:00\",\"v\":4}",
        "{\"ts\":\"2026-03-01 00:25:00\",\"v\":5}");
    Cli run = Cli.run("--from", from.toString(), "--table", "events", "--late-output", late.toString(),
        "--rejected-output", rejected.toString(), "--late-policy", "event",
        "SELECT TUMBLE(ts, INTERVAL 10 MINUTE) AS w, sum(v) AS s FROM events GROUP BY TUMBLE(ts, INTERVAL 10 MINUTE)");
    // the first window's sum overflows when it closes, at line 4; the rows after it are never read
    assertThat(run.out()).singleElement().asString().startsWith("{\"error\":{\"code\":\"TYPE_MISMATCH\"");
    assertThat(Files.readAllLines(rejected)).containsExactly("{\"source\":\"" + from + "\",\"line\":3,\"field\":\"ts\","
        + "\"reason\":\"the row has no field ts\",\"row\":{\"v\":2}}");
    assertThat(late).isEmptyFile();
    assertNoTemporaryFiles();
  }

  @Test
  void anEmptyStateIsRefused() {
    for (String empty : new String[] {"", "file://", " "}) {
      Cli run = run("--from", input.toString(), "--state", empty);
      assertThat(run.out()).containsExactly(Cli.error("INVALID_ARGUMENT", "--state '" + empty + "' names no directory:"
          + " give one, e.g. --state ./state (it is created when missing)"));
      assertThat(run.status()).isEqualTo(2);
    }
    assertThat(Path.of("state.json")).doesNotExist();
  }

  @Test
  void anEmptyOutputIsRefused() {
    Cli run = run("--from", input.toString(), "--late-output", "");
    assertThat(run.out()).containsExactly(Cli.error("INVALID_ARGUMENT", "--late-output '' names no file: e.g."
        + " --late-output file://late.ndjson"));
  }

  @Test
  void aDirectoryThatTakesNoFilesIsRefusedWithTheReason() throws IOException {
    Cli run = run("--from", input.toString(), "--late-output", "/proc/x");
    assertThat(run.out()).containsExactly(Cli.error("INVALID_ARGUMENT", "--late-output /proc/x: cannot create a file"
        + " in the directory /proc (no such file or directory): write the file to a directory that takes new files"));
    assertThat(run.status()).isEqualTo(2);
  }

  @Test
  void aDeviceIsRefused() {
    Cli run = run("--from", input.toString(), "--rejected-output", "/dev/null");
    assertThat(run.out()).containsExactly(Cli.error("INVALID_ARGUMENT", "--rejected-output /dev/null is not a regular"
        + " file (a device, a pipe or a socket): name a regular file, new or existing; the run writes it beside the"
        + " file and moves it into place"));
  }

  @Test
  void theHelpTellsWhatTheStateDoes() {
    String help = String.join("\n", Cli.run("--help").out());
    assertThat(help).doesNotContain("not available").contains("--state=DIR").contains("Carry the watermark");
  }

  @Test
  void helpThatCannotBePrintedIsAnError() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = Main.run(new String[] {"--help"}, Faults.FailingStream.stdout(1, Faults.FULL),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    assertThat(status).isEqualTo(1);
    assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo(Cli.error("IO_ERROR",
        "cannot write the help or version text to stdout") + "\n");
  }

  private void assertNoTemporaryFiles() throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files.map(f -> f.getFileName().toString())).noneMatch(n -> n.endsWith(".tmp"));
    }
  }

  private static String[] concat(String[] a, String[] b, String... c) {
    List<String> all = new ArrayList<>(List.of(a));
    all.addAll(List.of(b));
    all.addAll(List.of(c));
    return all.toArray(String[]::new);
  }
}
