package io.eventtime.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
    String[] lines = new String[times.length];
    for (int i = 0; i < times.length; i++) {
      lines[i] = "{\"ts\":\"2026-03-01 " + times[i] + ":00\"}";
    }
    return Cli.write(dir, name, lines);
  }

  private Cli run(String runner, Path file, Path state, String sql, String... more) {
    List<String> args = new ArrayList<>(List.of("--runner", runner, "--from", file.toString(), "--table", "events",
        "--state", state.toString(), "--watermark-delay", "5 MINUTE", "--late-policy", "event"));
    args.addAll(List.of(more));
    args.add(sql);
    return Cli.run(args.toArray(String[]::new));
  }

  @ParameterizedTest
  @ValueSource(strings = {"local", "direct"})
  void exampleB_twoRunsEmitEachWindowOnce(String runner) {
    Path state = dir.resolve("state-" + runner);
    Cli run1 = run(runner, arrivals("run1.ndjson", "00:01", "00:04", "00:08", "00:12", "00:17"), state, SQL);
    assertThat(run1.out()).containsExactly(
        "{\"window_start\":\"2026-03-01 00:00:00\",\"events\":3}",
        Cli.stats(5, 1, 0, 1, 5, 0));
    Cli run2 = run(runner, arrivals("run2.ndjson", "00:05", "00:11", "00:13", "00:30", "00:34"), state, SQL);
    assertThat(run2.out()).containsExactly(
        "{\"window_start\":\"2026-03-01 00:10:00\",\"events\":3}",
        Cli.stats(5, 1, 2, 1, 3, 0));
    // the stored state holds window 00:30 with two rows: a third run whose watermark passes it emits it
    Cli run3 = run(runner, arrivals("run3.ndjson", "00:50"), state, SQL);
    assertThat(run3.out()).containsExactly(
        "{\"window_start\":\"2026-03-01 00:30:00\",\"events\":2}",
        Cli.stats(1, 1, 0, 1, 1, 0));
  }

  @Test
  void localAndDirectShareTheState() {
    Path state = dir.resolve("shared");
    run("local", arrivals("run1.ndjson", "00:01", "00:04", "00:08", "00:12", "00:17"), state, SQL);
    Cli run2 = run("direct", arrivals("run2.ndjson", "00:05", "00:11", "00:13", "00:30", "00:34"), state, SQL);
    assertThat(run2.rows()).containsExactly("{\"window_start\":\"2026-03-01 00:10:00\",\"events\":3}");
  }

  @Test
  void aStateOfAnotherQueryIsRefusedAndKept() throws IOException {
    Path state = dir.resolve("state");
    Path run1 = arrivals("run1.ndjson", "00:01", "00:04", "00:08", "00:12", "00:17");
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
    run("local", arrivals("run1.ndjson", "00:01", "00:04", "00:08", "00:12", "00:17"), state, SQL);
    byte[] stored = Files.readAllBytes(state.resolve("state.json"));
    Path unwritable = dir.resolve("no/such/dir/late.ndjson");
    Cli failed = run("local", arrivals("run2.ndjson", "00:05", "00:30"), state, SQL, "--late-output",
        "file://" + unwritable);
    assertThat(failed.status()).isNotZero();
    assertThat(Files.readAllBytes(state.resolve("state.json"))).isEqualTo(stored);
  }
}
