package io.eventtime.core.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A run killed before it commits leaves the old state as it was, and running it again gives
 * what a run that never died gives. Each run is a JVM of its own ({@link StateRunMain}); it says
 * when it has reached the point where it is to be killed, and waits there to be killed.
 */
class KilledRunTest {
  private static final long MINUTE = 60_000L;

  @TempDir
  Path tmp;
  Path input1;
  Path input2;
  List<String> expectedOutput2;
  byte[] expectedState2;

  /** Two batches of rows, and what two runs that never die make of them. */
  @BeforeEach
  void twoBatchesAndTheirReference() throws IOException {
    Random random = new Random(11);
    List<String> rows = new ArrayList<>();
    long t = StateFixtures.at("00:00");
    for (int i = 0; i < 400; i++) {
      t += random.nextInt(15_000);
      long ts = random.nextInt(10) == 0 ? t - random.nextInt(3) * MINUTE : t;
      rows.add("k" + random.nextInt(4) + "," + ts + "," + (random.nextInt(6) == 0 ? "" : random.nextInt(500)));
    }
    input1 = Files.write(tmp.resolve("batch1.csv"), rows.subList(0, 180));
    input2 = Files.write(tmp.resolve("batch2.csv"), rows.subList(180, rows.size()));

    Path reference = tmp.resolve("reference");
    StateRunMain.run(reference, input1, tmp.resolve("reference1.out"), "none");
    StateRunMain.run(reference, input2, tmp.resolve("reference2.out"), "none");
    expectedOutput2 = Files.readAllLines(tmp.resolve("reference2.out"));
    expectedState2 = Files.readAllBytes(reference.resolve(StateStore.STATE_FILE));
    assertThat(expectedOutput2).hasSizeGreaterThan(20);
  }

  @ParameterizedTest(name = "killed at {0}")
  @ValueSource(strings = {"midway", "before-commit", "staged"})
  void aRunKilledBeforeItCommitsLeavesTheOldStateAndReRunsTheSame(String stop) throws Exception {
    Path state = tmp.resolve("state");
    StateRunMain.run(state, input1, tmp.resolve("run1.out"), "none");
    byte[] oldState = Files.readAllBytes(state.resolve(StateStore.STATE_FILE));
    Path output = tmp.resolve("run2.out");

    Process killed = start(state, input2, output, stop);
    try {
      BufferedReader said = new BufferedReader(new InputStreamReader(killed.getInputStream(), StandardCharsets.UTF_8));
      String line = CompletableFuture.supplyAsync(() -> readLine(said)).get(60, TimeUnit.SECONDS);
      assertThat(line).as("the run says where it is (stderr: %s)", stderr()).isEqualTo("REACHED " + stop);
      List<String> leftovers = StateStoreTest.listing(state);
      killed.destroyForcibly();
      assertThat(killed.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(killed.exitValue()).as("killed, not ended").isNotIn(0, 3);

      assertThat(Files.readAllBytes(state.resolve(StateStore.STATE_FILE))).isEqualTo(oldState);
      if (stop.equals("staged")) {
        // killed with the whole new state on disk beside the old one, not yet renamed over it
        assertThat(leftovers).hasSize(3).contains("state.json", "state.lock");
        Path temp = state.resolve(leftovers.stream().filter(f -> f.endsWith(".tmp")).findFirst().orElseThrow());
        assertThat(Files.readAllBytes(temp)).isEqualTo(expectedState2);
      } else {
        assertThat(leftovers).containsExactly("state.json", "state.lock");
      }
    } finally {
      killed.destroyForcibly();
    }

    Process again = start(state, input2, output, "none");
    try {
      assertThat(again.waitFor(120, TimeUnit.SECONDS)).isTrue();
      assertThat(again.exitValue()).as("stderr: %s", stderr()).isZero();
      assertThat(new String(again.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("DONE\n");
    } finally {
      again.destroyForcibly();
    }
    assertThat(Files.readAllLines(output)).isEqualTo(expectedOutput2);
    assertThat(Files.readAllBytes(state.resolve(StateStore.STATE_FILE))).isEqualTo(expectedState2);
    assertThat(StateStoreTest.listing(state)).containsExactly("state.json", "state.lock");
  }

  private Process start(Path state, Path input, Path output, String stop) throws IOException {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    return new ProcessBuilder(java.toString(), "-Xshare:auto", "-XX:TieredStopAtLevel=1",
        "-cp", System.getProperty("java.class.path"), StateRunMain.class.getName(),
        state.toString(), input.toString(), output.toString(), stop)
        .redirectError(tmp.resolve("stderr-" + stop + "-" + System.nanoTime() + ".txt").toFile())
        .start();
  }

  private static String readLine(BufferedReader reader) {
    try {
      return reader.readLine();
    } catch (IOException e) {
      return "(cannot read: " + e + ")";
    }
  }

  private String stderr() throws IOException {
    StringBuilder all = new StringBuilder();
    try (var files = Files.newDirectoryStream(tmp, "stderr-*.txt")) {
      for (Path f : files) {
        all.append(Files.readString(f));
      }
    }
    return all.toString();
  }
}
