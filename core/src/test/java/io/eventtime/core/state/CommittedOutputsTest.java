package io.eventtime.core.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.eventtime.core.OpenState;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Output files cut back to the lengths a state committed, with real files. */
class CommittedOutputsTest {
  @TempDir
  Path dir;

  @Test
  void eachFileIsCutBackToItsCommittedLength() throws IOException {
    Path windows = Files.writeString(dir.resolve("windows.ndjson"), "{\"n\":1}\n{\"n\":2}\n{\"n\":3");
    Path late = Files.writeString(dir.resolve("late.ndjson"), "{\"ts\":1}\n");
    Path rejected = dir.resolve("rejected.ndjson");
    CommittedOutputs.cutBack(Map.of(windows.toString(), 16L, late.toString(), 9L, rejected.toString(), 0L));
    assertThat(Files.readString(windows)).isEqualTo("{\"n\":1}\n{\"n\":2}\n");
    assertThat(Files.readString(late)).as("already at its length").isEqualTo("{\"ts\":1}\n");
    assertThat(rejected).as("none written, none committed").doesNotExist();
  }

  @Test
  void aFileShorterThanCommittedIsRefusedAndNothingIsCut() throws IOException {
    Path windows = Files.writeString(dir.resolve("windows.ndjson"), "{\"n\":1}\n{\"n\":2}\n");
    Path late = Files.writeString(dir.resolve("late.ndjson"), "{\"ts\":1}\n");
    Map<String, Long> committed = new TreeMap<>(Map.of(late.toString(), 3L, windows.toString(), 24L));
    assertThatThrownBy(() -> CommittedOutputs.cutBack(committed))
        .isInstanceOf(StateException.class)
        .hasMessage("the output file " + windows + " is 16 bytes long, but the state holds 24 bytes of it as written by"
            + " the runs before: the file was cut, replaced or removed since; restore it, or give another state"
            + " directory to start again");
    assertThat(Files.readString(late)).as("checked before any file is cut").isEqualTo("{\"ts\":1}\n");
    Files.delete(windows);
    assertThatThrownBy(() -> CommittedOutputs.cutBack(committed))
        .hasMessage("the output file " + windows + " is missing, but the state holds 24 bytes of it as written by the"
            + " runs before: the file was cut, replaced or removed since; restore it, or give another state directory"
            + " to start again");
    Files.createDirectory(windows);
    assertThatThrownBy(() -> CommittedOutputs.cutBack(committed))
        .hasMessage("the output file " + windows + " is not a regular file: give an output file, not a directory");
  }

  /** The committed lengths are part of the staged state: committed with it, read back with it. */
  @Test
  void theLengthsAreStagedAndCommittedWithTheState() {
    var query = StateFixtures.exampleB();
    Path windows = dir.resolve("windows.ndjson");
    try (StateStore store = StateStore.open(dir.resolve("state"), query)) {
      StateStore.Staged staged = store.stage(new OpenState(null, 0, List.of()).withOutputs(Map.of(windows.toString(),
          82L)));
      assertThat(store.load().outputs()).as("not before the commit").isEmpty();
      staged.commit();
      assertThat(store.load().outputs()).containsExactly(Map.entry(windows.toString(), 82L));
    }
    try (StateStore store = StateStore.open(dir.resolve("state"), query)) {
      assertThat(store.load().outputs()).containsExactly(Map.entry(windows.toString(), 82L));
    }
  }
}
