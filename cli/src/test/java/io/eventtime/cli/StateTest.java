package io.eventtime.cli;

import static org.assertj.core.api.Assertions.assertThat;

import static io.eventtime.core.contract.WorkedExamples.B;

import io.eventtime.core.Stats;
import io.eventtime.core.contract.WorkedExamples.Window;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** --state: worked example B of the contract through the command, and the refusals. */
class StateTest {
  private static final String SQL = "SELECT TUMBLE(ts, INTERVAL 10 MINUTE) AS window_start, count(*) AS events"
      + " FROM events GROUP BY TUMBLE(ts, INTERVAL 10 MINUTE)";

  @TempDir
  Path dir;

  private Path arrivals(String name, String... times) {
    return arrivals(name, Stream.of(times).map(t -> "2026-03-01 " + t + ":00").toList());
  }

  private Path arrivals(String name, List<String> times) {
    return Cli.write(dir, name, times.stream().map(t -> "{\"ts\":\"" + t + "\"}").toArray(String[]::new));
  }

  /** The lines the command prints for {@code windows}, the stats line last when given. */
  private static List<String> printed(List<Window> windows, Stats stats) {
    List<String> lines = new ArrayList<>(windows.stream()
        .map(w -> "{\"window_start\":\"" + w.start() + "\",\"events\":" + w.count() + "}").toList());
    if (stats != null) {
      lines.add(Cli.stats(stats.rowsIn(), stats.rowsOut(), stats.lateDropped(), stats.windowsClosed(),
          stats.rowsFolded(), stats.rowsRejected()));
    }
    return lines;
  }

  private Cli run(String runner, Path file, Path state, String sql, String... more) {
    List<String> args = new ArrayList<>(List.of("--runner", runner, "--from", file.toString(), "--table", "events",
        "--state", state.toString(), "--watermark-delay", B.delay(), "--late-policy", B.policy()));
    args.addAll(List.of(more));
    args.add(sql);
    return Cli.run(args.toArray(String[]::new));
  }

  @ParameterizedTest
  @ValueSource(strings = {"local", "direct"})
  void exampleB_twoRunsEmitEachWindowOnce(String runner) {
    Path state = dir.resolve("state-" + runner);
    Cli run1 = run(runner, arrivals("run1.ndjson", B.run1().times()), state, SQL);
    assertThat(run1.out()).isEqualTo(printed(B.run1().windows(), B.run1().stats()));
    Cli run2 = run(runner, arrivals("run2.ndjson", B.run2().times()), state, SQL);
    assertThat(run2.out()).isEqualTo(printed(B.run2().windows(), B.run2().stats()));
    // the stored state holds window 00:30 with two rows: a third run whose watermark passes it emits it
    Cli run3 = run(runner, arrivals("run3.ndjson", "00:50"), state, SQL);
    assertThat(run3.out()).isEqualTo(printed(B.run2().open(), new Stats(1, 1, 0, 1, 1, 0)));
  }

  @Test
  void localAndDirectShareTheState() {
    Path state = dir.resolve("shared");
    run("local", arrivals("run1.ndjson", B.run1().times()), state, SQL);
    Cli run2 = run("direct", arrivals("run2.ndjson", B.run2().times()), state, SQL);
    assertThat(run2.rows()).isEqualTo(printed(B.run2().windows(), null));
  }

  @Test
  void aStateOfAnotherQueryIsRefusedAndKept() throws IOException {
    Path state = dir.resolve("state");
    Path run1 = arrivals("run1.ndjson", B.run1().times());
    run("local", run1, state, SQL);
    byte[] stored = Files.readAllBytes(state.resolve("state.json"));
    Cli other = run("local", run1, state, SQL.replace("10 MINUTE", "5 MINUTE"));
    assertThat(other.out()).singleElement().asString()
        .startsWith("{\"error\":{\"code\":\"STATE_REFUSED\",\"message\":\"--state " + state + ": ");
    assertThat(other.status()).isEqualTo(1);
    assertThat(Files.readAllBytes(state.resolve("state.json"))).isEqualTo(stored);
  }

  @Test
  void aDamagedStateIsRefused() throws IOException {
    Path state = Files.createDirectories(dir.resolve("state"));
    Files.writeString(state.resolve("state.json"), "{\"format\":");
    Cli run = run("local", arrivals("run1.ndjson", "00:01"), state, SQL);
    assertThat(run.out()).singleElement().asString().startsWith("{\"error\":{\"code\":\"STATE_REFUSED\"");
  }

  @Test
  void aRefusedRunLeavesTheStateAsItWas() throws IOException {
    Path state = dir.resolve("state");
    run("local", arrivals("run1.ndjson", B.run1().times()), state, SQL);
    byte[] stored = Files.readAllBytes(state.resolve("state.json"));
    Path unwritable = dir.resolve("no/such/dir/late.ndjson");
    Cli failed = run("local", arrivals("run2.ndjson", "00:05", "00:30"), state, SQL, "--late-output",
        "file://" + unwritable);
    assertThat(failed.status()).isNotZero();
    assertThat(Files.readAllBytes(state.resolve("state.json"))).isEqualTo(stored);
  }
}
