package io.eventtime.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.eventtime.cli.output.FileSink;
import java.io.ByteArrayOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Fault injection on the command's outputs: stdout closed or full, the late and the rejected file
 * on a full disk, each output failing at its n-th write, the state directory gone before the
 * commit. Each run must fail with one exact error line, keep the state byte for byte, and leave
 * in the late and rejected files the whole records it wrote before the failure.
 */
class OutputFaultsTest {
  private static final String SQL = "SELECT TUMBLE(ts, INTERVAL 1 MINUTE) AS w, count(*) AS n FROM events"
      + " GROUP BY TUMBLE(ts, INTERVAL 1 MINUTE)";
  private static final int ON_TIME = 2000;

  @TempDir
  Path dir;
  private Path input;
  private Path state;
  private Path late;
  private Path rejected;
  private byte[] storedState;
  /** What a run that does not fail prints and writes, from the same stored state. */
  private Baseline baseline;

  record Baseline(byte[] out, List<Integer> writes, List<String> late, List<String> rejected, byte[] state) {}

  @BeforeEach
  void storeAStateAndRunOnceWithoutFaults() throws IOException {
    state = dir.resolve("state");
    late = dir.resolve("late.ndjson");
    rejected = dir.resolve("rejected.ndjson");
    Path first = Cli.write(dir, "first.ndjson", "{\"ts\":\"2026-03-01 00:00:00\"}");
    Cli run1 = Cli.run(args("local", first, state));
    assertThat(run1.status()).as(run1.out().toString()).isZero();
    storedState = Files.readAllBytes(state.resolve("state.json"));
    input = Cli.write(dir, "events.ndjson", events(ON_TIME));
    baseline = baseline(input);
    assertThat(new String(baseline.out(), StandardCharsets.UTF_8))
        .endsWith(Cli.stats(3001, ON_TIME, 501, ON_TIME, ON_TIME, 500) + "\n");
    // enough that stdout and both files are written in several parts
    assertThat(baseline.writes()).hasSizeGreaterThan(6);
    assertThat(String.join("\n", baseline.late()).length()).isGreaterThan(2 << 16);
    assertThat(String.join("\n", baseline.rejected()).length()).isGreaterThan(2 << 16);
  }

  /** What a run without faults prints and writes from the stored state, on the local runner. */
  private Baseline baseline(Path from) throws IOException {
    Path base = dir.resolve("baseline-" + from.getFileName());
    Path copy = Files.createDirectories(base.resolve("state"));
    Files.copy(state.resolve("state.json"), copy.resolve("state.json"));
    Faults.FailingStream out = Faults.FailingStream.counting();
    List<String> a = new ArrayList<>(List.of(args("local", from, copy)));
    a.set(a.indexOf(late.toString()), base.resolve("late.ndjson").toString());
    a.set(a.indexOf(rejected.toString()), base.resolve("rejected.ndjson").toString());
    Cli ok = Cli.run(out, FileSink.DISK, a.toArray(String[]::new));
    assertThat(ok.status()).as(ok.err()).isZero();
    return new Baseline(out.taken(), out.sizes(), lines(base.resolve("late.ndjson")),
        lines(base.resolve("rejected.ndjson")), Files.readAllBytes(copy.resolve("state.json")));
  }

  /**
   * One row a minute from 01:00, and after every fourth a late row and a rejected one (it has no
   * time); the last line is late.
   */
  private static String[] events(int onTime) {
    String pad = "x".repeat(200);
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < onTime; i++) {
      lines.add(String.format("{\"ts\":\"2026-03-%02d %02d:%02d:00\"}", 1 + (60 + i) / 1440, (60 + i) / 60 % 24, i % 60));
      if (i % 4 == 3) {
        lines.add("{\"ts\":\"2026-02-28 00:00:00\",\"note\":\"late " + i + " " + pad + "\"}");
        lines.add("{\"note\":\"rejected " + i + " " + pad + "\"}");
      }
    }
    lines.add("{\"ts\":\"2026-02-28 00:00:00\",\"note\":\"the last line\"}");
    return lines.toArray(String[]::new);
  }

  private String[] args(String runner, Path from, Path stateDir) {
    return new String[] {"--runner", runner, "--from", from.toString(), "--table", "events", "--state", stateDir.toString(),
        "--late-output", late.toString(), "--rejected-output", rejected.toString(), SQL};
  }

  /** The lines of stderr but the first rejections it tells: the error line, when stdout could not take it. */
  private static List<String> errorLines(Cli run) {
    return run.err().lines().filter(l -> !l.startsWith("eventtime: rejected line ")
        && !l.matches("eventtime: \\d+ more rows rejected")).toList();
  }

  private static List<String> lines(Path file) {
    try {
      return Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The stored state is what it was, and the run left no file of its own in the directory. */
  private void assertStateUnchanged() throws IOException {
    assertThat(Files.readAllBytes(state.resolve("state.json"))).isEqualTo(storedState);
    try (Stream<Path> files = Files.list(state)) {
      assertThat(files.map(f -> f.getFileName().toString())).containsExactlyInAnyOrder("state.json", "state.lock");
    }
  }

  /** The file holds the first whole records the run without faults wrote, and no temporary file is left. */
  private void assertWholeRecordsKept(Path file, List<String> all, boolean complete) throws IOException {
    String text = Files.readString(file);
    assertThat(text.isEmpty() || text.endsWith("\n")).as("whole records only").isTrue();
    List<String> kept = lines(file);
    assertThat(kept.size()).isLessThanOrEqualTo(all.size());
    assertThat(kept).isEqualTo(all.subList(0, kept.size()));
    if (complete) {
      assertThat(kept).hasSameSizeAs(all);
    } else {
      assertThat(kept).hasSizeLessThan(all.size());
    }
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files.map(f -> f.getFileName().toString())).noneMatch(n -> n.endsWith(".tmp"));
    }
  }

  /** What a failing stdout had taken: the bytes of the first {@code writes} writes of the run without faults. */
  private String firstWrites(int writes) {
    int bytes = baseline.writes().subList(0, writes).stream().mapToInt(Integer::intValue).sum();
    return new String(Arrays.copyOf(baseline.out(), bytes), StandardCharsets.UTF_8);
  }

  @Test
  void stdoutClosedEarly_theRunStopsReadingAndKeepsTheState() throws IOException {
    Faults.FailingStream out = Faults.FailingStream.stdout(1, Faults.CLOSED);
    Cli run = Cli.run(out, FileSink.DISK, args("local", input, state));
    assertThat(run.status()).isEqualTo(1);
    assertThat(run.out()).isEmpty();
    assertThat(errorLines(run)).containsExactly(Cli.error("IO_ERROR", "cannot write the results to stdout (Broken pipe)"));
    assertStateUnchanged();
    // the run stopped at the first write: the rest of the input, and its last (late) line, were never read
    assertWholeRecordsKept(late, baseline.late(), false);
    assertThat(Files.readString(late)).doesNotContain("the last line");
    assertWholeRecordsKept(rejected, baseline.rejected(), false);
  }

  @Test
  void stdoutOnAFullDisk() throws IOException {
    Path full = Path.of("/dev/full");
    assumeTrue(Files.isWritable(full), "no /dev/full here");
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status;
    try (FileOutputStream out = new FileOutputStream(full.toFile())) {
      status = Main.run(args("local", input, state), out, new PrintStream(err, true, StandardCharsets.UTF_8));
    }
    assertThat(status).isEqualTo(1);
    assertThat(err.toString(StandardCharsets.UTF_8)).endsWith("\n"
        + Cli.error("IO_ERROR", "cannot write the results to stdout (No space left on device)") + "\n");
    assertStateUnchanged();
  }

  /** {@code n}: the write that fails, from 1; -1 for the last write of rows (when all is read). */
  @ParameterizedTest(name = "stdout fails at write {0}")
  @ValueSource(ints = {1, 2, 5, -1})
  void stdoutFailsAtItsNthWrite(int n) throws IOException {
    int statsWrite = baseline.writes().size();
    int failAt = n == -1 ? statsWrite - 1 : n;
    Faults.FailingStream out = Faults.FailingStream.stdout(failAt, Faults.CLOSED);
    Cli run = Cli.run(out, FileSink.DISK, args("local", input, state));
    assertThat(run.status()).isEqualTo(1);
    assertThat(new String(out.taken(), StandardCharsets.UTF_8)).isEqualTo(firstWrites(failAt - 1));
    assertThat(errorLines(run)).containsExactly(Cli.error("IO_ERROR", "cannot write the results to stdout (Broken pipe)"));
    assertStateUnchanged();
    assertWholeRecordsKept(late, baseline.late(), n == -1);
    assertWholeRecordsKept(rejected, baseline.rejected(), n == -1);
  }

  /** The stats line comes after the state is stored: when it cannot be written the run says so. */
  @Test
  void stdoutFailsAtTheStatsLine() throws IOException {
    int statsWrite = baseline.writes().size();
    Cli run = Cli.run(Faults.FailingStream.stdout(statsWrite, Faults.CLOSED), FileSink.DISK,
        args("local", input, state));
    assertThat(run.status()).isEqualTo(1);
    assertThat(run.out()).hasSize(ON_TIME).noneMatch(l -> l.startsWith("{\"stats\""));
    assertThat(errorLines(run)).containsExactly(Cli.error("IO_ERROR", "cannot write the stats line to stdout (Broken"
        + " pipe); the result rows before it were written and the new state was stored"));
    assertThat(Files.readAllBytes(state.resolve("state.json"))).isEqualTo(baseline.state());
    assertWholeRecordsKept(late, baseline.late(), true);
    assertWholeRecordsKept(rejected, baseline.rejected(), true);
  }

  @ParameterizedTest(name = "{0} fills the disk at its write {1}")
  @CsvSource({"--late-output, 1", "--late-output, 2", "--rejected-output, 1", "--rejected-output, 2"})
  void anOutputFileOnAFullDisk(String flag, int failAt) throws IOException {
    Path file = flag.equals("--late-output") ? late : rejected;
    Path other = file == late ? rejected : late;
    String name = "." + file.getFileName() + ".";
    Cli run = Cli.run(Faults.FailingStream.counting(), Faults.fullDisk(n -> n.startsWith(name), failAt),
        args("local", input, state));
    assertThat(run.status()).isEqualTo(1);
    assertThat(run.last()).isEqualTo(Cli.error("IO_ERROR", "cannot write " + flag + " " + file
        + " (No space left on device)"));
    assertThat(baseline.out().length).isGreaterThan(0);
    assertThat(new String(baseline.out(), StandardCharsets.UTF_8)).startsWith(
        String.join("", run.rows().stream().map(l -> l + "\n").toList()));
    assertStateUnchanged();
    List<String> all = file == late ? baseline.late() : baseline.rejected();
    assertWholeRecordsKept(file, all, false);
    if (failAt == 1) {
      assertThat(file).isEmptyFile(); // the half record the full disk took is cut off
    } else {
      assertThat(lines(file)).isNotEmpty();
    }
    assertWholeRecordsKept(other, other == late ? baseline.late() : baseline.rejected(), false);
  }

  /** The new state cannot be stored (its directory is gone): no stats line, only the error. */
  @Test
  void theStateCannotBeStored_onlyTheErrorLine() throws IOException {
    Path moved = dir.resolve("state-moved");
    FileSink movesTheState = Faults.onFirstFile(() -> {
      try {
        Files.move(state, moved);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
    Cli run = Cli.run(Faults.FailingStream.counting(), movesTheState, args("local", input, state));
    assertThat(run.status()).isEqualTo(1);
    assertThat(run.rows()).hasSize(ON_TIME).noneMatch(l -> l.startsWith("{\"stats\""));
    assertThat(run.last()).isEqualTo(Cli.error("STATE_REFUSED", "--state " + state + ": cannot write the new state in "
        + state + " (no such file or directory): the stored state is kept as it was"));
    assertThat(Files.readAllBytes(moved.resolve("state.json"))).isEqualTo(storedState);
    assertWholeRecordsKept(late, baseline.late(), true);
    assertWholeRecordsKept(rejected, baseline.rejected(), true);
  }

  /**
   * The Beam runners print the results after the pipeline has run: by then the late and rejected
   * files have every row. (A smaller stream: the Direct runner is slow.)
   */
  @Test
  void directRunner_stdoutClosed() throws IOException {
    Path small = Cli.write(dir, "small.ndjson", events(8));
    Baseline expected = baseline(small);
    Cli run = Cli.run(Faults.FailingStream.stdout(1, Faults.CLOSED), FileSink.DISK, args("direct", small, state));
    assertThat(run.status()).as(run.err()).isEqualTo(1);
    assertThat(run.out()).isEmpty();
    assertThat(errorLines(run)).containsExactly(Cli.error("IO_ERROR", "cannot write the results to stdout (Broken pipe)"));
    assertStateUnchanged();
    assertWholeRecordsKept(late, expected.late(), true);
    assertWholeRecordsKept(rejected, expected.rejected(), true);
  }

  @Test
  void directRunner_lateFileOnAFullDisk() throws IOException {
    Path small = Cli.write(dir, "small.ndjson", events(8));
    Baseline expected = baseline(small);
    Cli run = Cli.run(Faults.FailingStream.counting(), Faults.fullDisk(n -> n.startsWith(".late.ndjson."), 1),
        args("direct", small, state));
    assertThat(run.status()).as(run.err()).isEqualTo(1);
    // the late rows fit in one write, made when the results are printed: the disk is full then
    String rows = new String(expected.out(), StandardCharsets.UTF_8);
    assertThat(run.rows()).containsExactlyElementsOf(rows.lines().filter(l -> !l.startsWith("{\"stats\"")).toList());
    assertThat(run.last()).isEqualTo(Cli.error("IO_ERROR", "cannot write --late-output " + late
        + " (No space left on device)"));
    assertStateUnchanged();
    assertThat(late).isEmptyFile();
    assertWholeRecordsKept(rejected, expected.rejected(), true);
  }
}
