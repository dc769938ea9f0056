package io.eventtime.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command's real stdout, in a process of its own ({@code Main.main}): {@code > /dev/full} and
 * {@code | head -1} fail the run with IO_ERROR on stderr and leave the state as it was.
 */
class StdoutProcessTest {
  private static final String SQL = "SELECT TUMBLE(ts, INTERVAL 1 MINUTE) AS w, count(*) AS n FROM events"
      + " GROUP BY TUMBLE(ts, INTERVAL 1 MINUTE)";

  @TempDir
  Path dir;
  private Path state;
  private byte[] stored;

  @BeforeEach
  void storeAState() throws IOException {
    state = dir.resolve("state");
    Path first = Cli.write(dir, "first.ndjson", "{\"ts\":\"2026-03-01 00:00:00\"}");
    Cli run = Cli.run("--from", first.toString(), "--table", "events", "--state", state.toString(), SQL);
    assertThat(run.status()).as(run.out().toString()).isZero();
    stored = Files.readAllBytes(state.resolve("state.json"));
  }

  /** One row a minute: as many result rows, far more than a pipe holds. */
  private Path rows(int n) {
    String[] lines = new String[n];
    for (int i = 0; i < n; i++) {
      lines[i] = "{\"ts\":\"" + java.time.LocalDateTime.of(2026, 3, 1, 1, 0).plusMinutes(i).toString().replace('T', ' ')
          + ":00\"}";
    }
    return Cli.write(dir, "events.ndjson", lines);
  }

  private ProcessBuilder eventtime(Path from) {
    String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", classpath, Main.class.getName(), "--from", from.toString(), "--table", "events", "--state",
        state.toString(), SQL));
    return new ProcessBuilder(command).redirectError(dir.resolve("stderr.txt").toFile());
  }

  private String stderr() throws IOException {
    return Files.readString(dir.resolve("stderr.txt"));
  }

  @Test
  void stdoutOnAFullDisk() throws Exception {
    assumeTrue(new File("/dev/full").canWrite(), "no /dev/full here");
    Process p = eventtime(rows(100)).redirectOutput(new File("/dev/full")).start();
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(stderr()).isEqualTo(1);
    assertThat(stderr()).isEqualTo(Cli.error("IO_ERROR", "cannot write the results to stdout (No space left on"
        + " device)") + "\n");
    assertThat(Files.readAllBytes(state.resolve("state.json"))).isEqualTo(stored);
  }

  @Test
  void stdoutClosedAfterTheFirstLine() throws Exception {
    Process p = eventtime(rows(50_000)).start();
    try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      assertThat(out.readLine()).isEqualTo("{\"w\":\"2026-03-01 00:00:00\",\"n\":1}");
    } // as head -1 does: read one line, close the pipe
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(stderr()).isEqualTo(1);
    assertThat(stderr()).isEqualTo(Cli.error("IO_ERROR", "cannot write the results to stdout (Broken pipe)") + "\n");
    assertThat(Files.readAllBytes(state.resolve("state.json"))).isEqualTo(stored);
  }
}
