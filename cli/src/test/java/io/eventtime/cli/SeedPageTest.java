package io.eventtime.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every example of the seed page, run through the command in-process: exact lines and exit status. */
class SeedPageTest {
  @TempDir
  Path dir;

  static Stream<SeedPage.Example> results() {
    return SeedPage.RESULTS.stream();
  }

  static Stream<SeedPage.Example> refusals() {
    return SeedPage.REFUSALS.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("results")
  void printsTheRowsAndTheStats(SeedPage.Example example) {
    Cli.write(dir, "events.ndjson", SeedPage.EVENTS);
    Cli run = Cli.run("--from", "file://" + dir.resolve("events.ndjson"), example.sql());
    assertThat(run.out()).containsExactlyElementsOf(example.lines());
    assertThat(run.status()).isZero();
    assertThat(run.err()).isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("refusals")
  void refusesWithTheCodeAndMessage(SeedPage.Example example) {
    Cli.write(dir, "events.ndjson", SeedPage.EVENTS);
    Cli run = Cli.run("--from", "file://" + dir.resolve("events.ndjson"), example.sql());
    assertThat(run.out()).containsExactlyElementsOf(example.lines());
    assertThat(run.status()).isEqualTo(1);
  }
}
