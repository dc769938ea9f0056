package io.eventtime.core.state;

import static io.eventtime.core.contract.WorkedExamples.B;
import static io.eventtime.core.state.StateFixtures.MIN;
import static io.eventtime.core.state.StateFixtures.at;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.eventtime.core.Key;
import io.eventtime.core.OpenState;
import io.eventtime.core.TimeText;
import io.eventtime.core.WindowProcessor;
import io.eventtime.core.contract.WorkedExamples;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The state store through its files: example B, where the state lives, and who may use it. */
class StateStoreTest {
  @TempDir
  Path tmp;

  /** One run of example B's query from the state in {@code dir}: returns the windows it emits. */
  private static List<String> runB(Path dir, List<Boolean> folded, String... minutes) {
    return runB(dir, folded, Stream.of(minutes).map(m -> "2026-03-01 " + m + ":00").toList());
  }

  /** One run of example B's query from the state in {@code dir}, the arrivals as TimeText. */
  private static List<String> runB(Path dir, List<Boolean> folded, List<String> arrivals) {
    List<String> emitted = new ArrayList<>();
    try (StateStore store = StateStore.open(dir, StateFixtures.exampleB())) {
      WindowProcessor p = new WindowProcessor(StateFixtures.exampleB(),
          r -> emitted.add(TimeText.format(r.start()) + "|" + TimeText.format(r.end()) + "|" + r.values()[0]),
          store.load());
      for (String t : arrivals) {
        folded.add(p.process(Key.GLOBAL, WorkedExamples.millis(t), new Object[] {null}));
      }
      store.commit(p.hold());
    }
    return emitted;
  }

  private static List<String> texts(List<WorkedExamples.Window> windows) {
    return windows.stream().map(WorkedExamples.Window::text).toList();
  }

  @Test
  void exampleB_twoRunsThroughTheStateFiles() throws IOException {
    Path dir = tmp.resolve("state");
    List<Boolean> folded1 = new ArrayList<>();
    assertThat(runB(dir, folded1, B.run1().times())).isEqualTo(texts(B.run1().windows()));
    assertThat(folded1).isEqualTo(B.run1().folded());
    assertThat(Files.readString(dir.resolve("state.json"))).isEqualTo("""
        {
          "format": "eventtime-state",
          "version": 1,
          "query": {
            "window": {"kind":"tumbling","size_ms":600000,"offset_ms":0},
            "key_fields": [],
            "aggregates": [
              {"kind":"count(*)","field":null,"output":"events"}
            ],
            "delay_ms": 300000,
            "late_policy": "event",
            "time_field": null
          },
          "max_event_time": %d,
          "next_arrival": 5,
          "windows": [
            {"key":[],"start":%d,"end":%d,"aggregates":[{"count":2}]}
          ],
          "checksum": "sha256:CHECKSUM"
        }
        """.formatted(at("00:17"), at("00:10"), at("00:20")).replace("CHECKSUM",
        "601b1f872b97b7ea75e7f308eba33358274fd4014e344b7a4c265c9a11365592"));

    List<Boolean> folded2 = new ArrayList<>();
    assertThat(runB(dir, folded2, B.run2().times())).isEqualTo(texts(B.run2().windows()));
    assertThat(folded2).isEqualTo(B.run2().folded());

    try (StateStore store = StateStore.open(dir, StateFixtures.exampleB())) {
      OpenState state = store.load();
      assertThat(state.maxEventTime() - B.delayMillis()).as("stored watermark").isEqualTo(B.run2().watermarkMillis());
      assertThat(state.nextArrival()).isEqualTo(B.run1().times().size() + B.run2().times().size());
      assertThat(state.windows()).allSatisfy(w -> assertThat(w.key()).isEqualTo(Key.GLOBAL));
      assertThat(state.windows().stream().map(w -> TimeText.format(w.start()) + "|" + TimeText.format(w.end()) + "|"
          + w.accumulators()[0].result()).toList()).isEqualTo(texts(B.run2().open()));
      List<String> flushed = new ArrayList<>();
      WindowProcessor last = new WindowProcessor(StateFixtures.exampleB(),
          r -> flushed.add(TimeText.format(r.start()) + "|" + TimeText.format(r.end()) + "|" + r.values()[0]), state);
      last.finish();
      assertThat(flushed).isEqualTo(texts(B.run2().open()));
    }
  }

  @Test
  void aMissingDirectoryIsCreatedAndStartsEmpty() {
    Path dir = tmp.resolve("a/b/c");
    try (StateStore store = StateStore.open(dir, StateFixtures.exampleB())) {
      assertThat(dir).isDirectory();
      assertThat(store.directory()).isEqualTo(dir.toAbsolutePath());
      assertThat(store.hasState()).isFalse();
      assertThat(store.load()).isEqualTo(OpenState.empty());
      assertThat(store.file()).doesNotExist();
    }
  }

  @Test
  void aLocationThatIsAFileIsRefused() throws IOException {
    Path file = Files.writeString(tmp.resolve("plain"), "x");
    assertThatThrownBy(() -> StateStore.open(file, StateFixtures.exampleB()))
        .isInstanceOf(StateException.class)
        .hasMessage("the state location " + file + " is a file, not a directory: give a directory for the state"
            + " (it is created when missing)");
  }

  @Test
  void aDirectoryThatCannotBeCreatedIsRefused() throws IOException {
    Path file = Files.writeString(tmp.resolve("plain"), "x");
    Path dir = file.resolve("state");
    assertThatThrownBy(() -> StateStore.open(dir, StateFixtures.exampleB()))
        .isInstanceOf(StateException.class)
        .hasMessage("cannot create the state directory " + dir + " (Not a directory): give a directory that can be"
            + " created, or create it first");
  }

  /**
   * Root writes through file permissions, so the directory is made immutable ({@code chattr +i}),
   * which stops root too. Skipped where chattr cannot do that (another file system, no
   * CAP_LINUX_IMMUTABLE); {@link #aDirectoryNobodyCanWriteToIsRefused} covers the check there.
   */
  @Test
  void anImmutableDirectoryIsRefusedBeforeAnyWork() throws Exception {
    Path dir = tmp.resolve("immutable");
    runB(dir, new ArrayList<>(), "00:01", "00:12");
    byte[] before = Files.readAllBytes(dir.resolve("state.json"));
    assumeTrue(command("chattr", "+i", dir.toString()) == 0, "chattr +i is not possible here");
    try {
      assumeTrue(!canCreateFileIn(dir), "chattr +i did not stop writes here");
      assertThatThrownBy(() -> StateStore.open(dir, StateFixtures.exampleB()))
          .isInstanceOf(StateException.class)
          .hasMessage("the state directory " + dir + " is not writable (Operation not permitted): the state of this"
              + " run could not be saved there; make it writable, or give another state directory");
    } finally {
      command("chattr", "-i", dir.toString());
    }
    assertThat(Files.readAllBytes(dir.resolve("state.json"))).isEqualTo(before);
  }

  /** A directory of {@code /proc}: it exists, and no one, root included, can create files in it. */
  @Test
  void aDirectoryNobodyCanWriteToIsRefused() {
    Path dir = Path.of("/proc/self");
    assumeTrue(Files.isDirectory(dir) && !canCreateFileIn(dir), "no /proc here");
    assertThatThrownBy(() -> StateStore.open(dir, StateFixtures.exampleB()))
        .isInstanceOf(StateException.class)
        .hasMessageStartingWith("the state directory /proc/self is not writable (")
        .hasMessageEndingWith("): the state of this run could not be saved there; make it writable, or give"
            + " another state directory");
  }

  /** Where file permissions stop the user running the tests (not root). */
  @Test
  void aDirectoryWithoutWritePermissionIsRefused() throws IOException {
    Path dir = Files.createDirectories(tmp.resolve("readonly"));
    assumeTrue(dir.toFile().setWritable(false, false));
    try {
      assumeTrue(!canCreateFileIn(dir), "this user writes through permissions (root)");
      assertThatThrownBy(() -> StateStore.open(dir, StateFixtures.exampleB()))
          .isInstanceOf(StateException.class)
          .hasMessageStartingWith("the state directory " + dir + " is not writable (");
    } finally {
      dir.toFile().setWritable(true, true);
    }
  }

  @Test
  void aSecondRunIsRefusedWhileTheFirstHasTheStateOpen() {
    Path dir = tmp.resolve("busy");
    try (StateStore first = StateStore.open(dir, StateFixtures.exampleB())) {
      assertThatThrownBy(() -> StateStore.open(dir, StateFixtures.exampleB()))
          .isInstanceOf(StateException.class)
          .hasMessage("another run is using the state in " + dir + ": wait until it ends, or give this run its own"
              + " state directory");
      first.commit(OpenState.empty());
    }
    try (StateStore second = StateStore.open(dir, StateFixtures.exampleB())) {
      assertThat(second.hasState()).isTrue();
    }
  }

  @Test
  void aStagedStateReplacesTheStoredOneOnlyOnCommit() throws IOException {
    Path dir = tmp.resolve("staged");
    runB(dir, new ArrayList<>(), "00:01", "00:12");
    byte[] old = Files.readAllBytes(dir.resolve("state.json"));
    OpenState next;
    try (StateStore store = StateStore.open(dir, StateFixtures.exampleB())) {
      WindowProcessor p = new WindowProcessor(StateFixtures.exampleB(), r -> { }, store.load());
      p.process(Key.GLOBAL, at("00:13"), new Object[] {null});
      next = p.hold();
      StateStore.Staged staged = store.stage(next);
      assertThat(staged.file()).exists().hasParent(store.directory());
      assertThat(Files.readAllBytes(store.file())).isEqualTo(old);
      staged.commit();
      assertThat(staged.file()).doesNotExist();
      assertThat(listing(dir)).containsExactly("state.json", "state.lock");
      assertThat(store.load().nextArrival()).isEqualTo(3);
    }
    byte[] committed = Files.readAllBytes(dir.resolve("state.json"));
    assertThat(committed).isNotEqualTo(old);

    try (StateStore store = StateStore.open(dir, StateFixtures.exampleB())) {
      StateStore.Staged abandoned = store.stage(OpenState.empty());
      assertThat(abandoned.file()).exists();
      store.close();
      assertThat(abandoned.file()).doesNotExist();
    }
    assertThat(Files.readAllBytes(dir.resolve("state.json"))).isEqualTo(committed);
  }

  @Test
  void theLeftoversOfARunCutOffWhileWritingAreIgnoredAndRemoved() throws IOException {
    Path dir = tmp.resolve("leftover");
    runB(dir, new ArrayList<>(), "00:01", "00:12");
    byte[] old = Files.readAllBytes(dir.resolve("state.json"));
    Files.write(dir.resolve("state.json.123456.tmp"), java.util.Arrays.copyOf(old, old.length / 2));
    try (StateStore store = StateStore.open(dir, StateFixtures.exampleB())) {
      assertThat(listing(dir)).containsExactly("state.json", "state.lock");
      assertThat(store.load().nextArrival()).isEqualTo(2);
    }
    assertThat(Files.readAllBytes(dir.resolve("state.json"))).isEqualTo(old);
  }

  @Test
  void eachLoadHandsOutItsOwnAccumulators() {
    Path dir = tmp.resolve("twice");
    runB(dir, new ArrayList<>(), "00:01", "00:12");
    try (StateStore store = StateStore.open(dir, StateFixtures.exampleB())) {
      OpenState a = store.load();
      OpenState b = store.load();
      a.windows().get(0).accumulators()[0].add(null, 99);
      assertThat(a.windows().get(0).accumulators()[0].result()).isEqualTo(2L);
      assertThat(b.windows().get(0).accumulators()[0].result()).isEqualTo(1L);
    }
  }

  @Test
  void aClosedStoreRefusesToGoOn() {
    StateStore store = StateStore.open(tmp.resolve("closed"), StateFixtures.exampleB());
    store.close();
    assertThatThrownBy(store::load).isInstanceOf(IllegalStateException.class)
        .hasMessage("the state store of " + tmp.resolve("closed") + " is closed: open it again");
  }

  static List<String> listing(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(f -> f.getFileName().toString()).sorted().toList();
    }
  }

  private static boolean canCreateFileIn(Path dir) {
    try {
      Files.delete(Files.createTempFile(dir, "probe", ".tmp"));
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static int command(String... args) throws InterruptedException {
    try {
      Process p = new ProcessBuilder(args).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
          .start();
      return p.waitFor();
    } catch (IOException notInstalled) {
      return -1;
    }
  }
}
