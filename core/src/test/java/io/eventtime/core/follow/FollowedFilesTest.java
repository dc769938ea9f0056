package io.eventtime.core.follow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FollowedFilesTest {
  @TempDir
  Path dir;

  private FollowedFiles follow(String pattern) {
    return new FollowedFiles(FileListing.of(dir.resolve(pattern)), () -> false);
  }

  private void append(String file, String text) throws IOException {
    Files.writeString(dir.resolve(file), text, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
        StandardOpenOption.APPEND);
  }

  /** What the file hands on now without waiting. */
  private static String atHand(FollowedFile f) throws IOException {
    byte[] b = new byte[f.available()];
    int n = b.length == 0 ? 0 : f.read(b, 0, b.length);
    return new String(b, 0, n, StandardCharsets.UTF_8);
  }

  private static String rest(FollowedFile f) throws IOException {
    return new String(f.readAllBytes(), StandardCharsets.UTF_8);
  }

  @Test
  void listsTheMatchingFilesLeavingOutHiddenOnes() throws IOException {
    append("b.ndjson", "");
    append("a.ndjson", "");
    append(".c.ndjson", "");
    append("d.txt", "");
    assertThat(FileListing.of(dir.resolve("*.ndjson")).list()).containsExactlyInAnyOrder(dir.resolve("a.ndjson"),
        dir.resolve("b.ndjson"));
    assertThat(FileListing.of(dir).list()).containsExactlyInAnyOrder(dir.resolve("a.ndjson"), dir.resolve("b.ndjson"),
        dir.resolve("d.txt"));
    assertThat(FileListing.of(dir.resolve("a.ndjson")).list()).containsExactly(dir.resolve("a.ndjson"));
    assertThat(FileListing.of(dir.resolve("none.ndjson")).list()).isEmpty();
    assertThatThrownBy(() -> FileListing.of(dir.resolve("missing/*.ndjson")).list())
        .hasMessageContaining("there is no folder " + dir.resolve("missing"));
  }

  @Test
  void aStoppedReadingTellsTheBytesLeftAfterItsLastWholeLine() throws IOException {
    append("a.ndjson", "1\n");
    append("b.ndjson", "2\n3");
    FollowedFiles files = follow("*.ndjson").endWhenIdleFor(200);
    StringBuilder read = new StringBuilder();
    for (FollowedFile f; (f = files.next()) != null; ) {
      read.append(rest(f));
    }
    assertThat(read).hasToString("1\n2\n");
    assertThat(files.unreadAtStop()).isEqualTo(new FollowedFiles.Unread(dir.resolve("b.ndjson"), 1));
    append("b.ndjson", "\n");
    FollowedFiles again = follow("*.ndjson").endWhenIdleFor(200);
    for (FollowedFile f; (f = again.next()) != null; ) {
      rest(f);
    }
    assertThat(again.unreadAtStop()).isNull();
  }

  @Test
  void aReadingToTheEndAtTheStopReadsTheLastLineWithoutItsNewline() throws IOException {
    append("a.ndjson", "1\n");
    append("b.ndjson", "2\n3");
    FollowedFiles files = follow("*.ndjson").endWhenIdleFor(200).readToTheEndAtStop();
    StringBuilder read = new StringBuilder();
    for (FollowedFile f; (f = files.next()) != null; ) {
      read.append(rest(f));
    }
    assertThat(read).hasToString("1\n2\n3");
    assertThat(files.unreadAtStop()).isNull();
  }

  @Test
  void readsTheFilesInNameOrderWhateverOrderTheListingGivesLeavingOutTemporaryOnes() throws IOException {
    append("a.ndjson", "1\n");
    append("b.ndjson", "2\n");
    append("c.ndjson", "3\n");
    append(".d.ndjson", "4\n");
    // Hop's file lists, among others, come in no set order, and with a writer's temporary files
    FileListing reversed = () -> List.of(dir.resolve("c.ndjson"), dir.resolve(".d.ndjson"), dir.resolve("a.ndjson"),
        dir.resolve("b.ndjson"));
    FollowedFiles files = new FollowedFiles(reversed, () -> false).endWhenIdleFor(200);
    StringBuilder read = new StringBuilder();
    for (FollowedFile f; (f = files.next()) != null; ) {
      read.append(f.path().getFileName()).append(':').append(rest(f));
    }
    assertThat(read).hasToString("a.ndjson:1\nb.ndjson:2\nc.ndjson:3\n");
  }

  @Test
  void handsOnWholeLinesAsTheyAreAppendedAndMovesOnWhenALaterFileLands() throws IOException {
    append("a.ndjson", "1\n2\n");
    FollowedFiles files = follow("*.ndjson");
    FollowedFile a = files.next();
    assertThat(a.path()).isEqualTo(dir.resolve("a.ndjson"));
    assertThat(atHand(a)).isEqualTo("1\n2\n");
    append("a.ndjson", "3");
    assertThat(atHand(a)).as("a line without its newline waits").isEmpty();
    append("a.ndjson", "\n4");
    assertThat(atHand(a)).isEqualTo("3\n");
    assertThat(a.position()).isEqualTo(6);
    append("b.ndjson", "5\n");
    assertThat(rest(a)).as("a later file finishes the file, its last line too").isEqualTo("4");
    FollowedFile b = files.next();
    assertThat(b.path()).isEqualTo(dir.resolve("b.ndjson"));
    assertThat(atHand(b)).isEqualTo("5\n");
    append("b.ndjson", "6");
    files.stop();
    assertThat(rest(b)).as("a stop leaves a line without its newline unread").isEmpty();
    assertThat(b.position()).isEqualTo(2);
    assertThat(files.next()).isNull();
  }

  @Test
  void waitsForTheFirstFileAndEndsWhenIdle() throws IOException {
    FollowedFiles files = follow("*.ndjson").endWhenIdleFor(300);
    long start = System.nanoTime();
    assertThat(files.next()).isNull();
    assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(300_000_000L);
  }

  @Test
  void resumesAtAStoredPositionAndSkipsTheFilesBefore() throws IOException {
    append("a.ndjson", "1\n");
    append("b.ndjson", "2\n3\n4\n");
    FollowedFiles files = follow("*.ndjson").resumeAt(dir.resolve("b.ndjson"), 2, 2);
    FollowedFile b = files.next();
    assertThat(b.startLine()).isEqualTo(2);
    assertThat(atHand(b)).isEqualTo("3\n4\n");

    FollowedFiles mid = follow("*.ndjson").resumeAt(dir.resolve("b.ndjson"), 2, 3);
    assertThatThrownBy(mid::next).hasMessageContaining("byte 3 of " + dir.resolve("b.ndjson"))
        .hasMessageContaining("not the start of a line");
    FollowedFiles beyond = follow("*.ndjson").resumeAt(dir.resolve("b.ndjson"), 9, 100);
    assertThatThrownBy(beyond::next).hasMessageContaining("fewer than the 100 already read");
    FollowedFiles gone = follow("*.ndjson").resumeAt(dir.resolve("c.ndjson"), 1, 0);
    assertThatThrownBy(gone::next).hasMessageContaining("not among the files followed any more");
  }

  /**
   * A finished file's last line without a newline was read whole once a later file had landed, so a
   * stored position can be the file's end without a newline before it: reading goes on with the
   * next file. While no later file is listed, that byte is not the start of a line.
   */
  @Test
  void resumesAtTheEndOfAFinishedFileWhoseLastLineHasNoNewline() throws IOException {
    append("a.ndjson", "1\n2");
    FollowedFiles alone = follow("*.ndjson").resumeAt(dir.resolve("a.ndjson"), 3, 3);
    assertThatThrownBy(alone::next).hasMessageContaining("not the start of a line");

    append("b.ndjson", "3\n");
    FollowedFiles files = follow("*.ndjson").resumeAt(dir.resolve("a.ndjson"), 3, 3);
    assertThat(rest(files.next())).isEmpty();
    FollowedFile b = files.next();
    assertThat(b.path()).isEqualTo(dir.resolve("b.ndjson"));
    assertThat(atHand(b)).isEqualTo("3\n");
  }

  @Test
  void aFileThatShrinksIsAnErrorNamingIt() throws IOException {
    append("a.ndjson", "1\n2\n");
    FollowedFile a = follow("*.ndjson").next();
    atHand(a);
    Files.writeString(dir.resolve("a.ndjson"), "1\n");
    assertThatThrownBy(a::read).hasMessageContaining(dir.resolve("a.ndjson") + " shrank from 4 to 2 bytes");
  }

  @Test
  void aFileReplacedUnderItsNameIsAnError() throws IOException {
    append("a.ndjson", "1\n");
    FollowedFile a = follow("*.ndjson").next();
    atHand(a);
    Path other = Files.writeString(dir.resolve(".tmp"), "1\n2\n");
    Files.move(other, dir.resolve("a.ndjson"), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    assertThatThrownBy(a::read).hasMessageContaining(dir.resolve("a.ndjson") + " was replaced");
  }

  @Test
  void aFileLandingBeforeTheOneReadIsAnError() throws IOException {
    append("b.ndjson", "1\n");
    FollowedFile b = follow("*.ndjson").next();
    atHand(b);
    append("a.ndjson", "2\n");
    assertThatThrownBy(b::read).hasMessageContaining(dir.resolve("a.ndjson") + " landed after "
        + dir.resolve("b.ndjson"));
  }

  @Test
  void aFinishedFileThatGrowsIsAnError() throws IOException {
    append("a.ndjson", "1\n");
    append("b.ndjson", "2\n");
    FollowedFiles files = follow("*.ndjson");
    assertThat(rest(files.next())).isEqualTo("1\n");
    FollowedFile b = files.next();
    atHand(b);
    append("a.ndjson", "3\n");
    assertThatThrownBy(b::read).hasMessageContaining(dir.resolve("a.ndjson") + " changed after it was read");
  }

  @Test
  void aStopTestEndsTheWait() throws IOException {
    append("a.ndjson", "1\n");
    boolean[] stop = {false};
    FollowedFiles files = new FollowedFiles(FileListing.of(dir.resolve("a.ndjson")), () -> stop[0]);
    FollowedFile a = files.next();
    assertThat(atHand(a)).isEqualTo("1\n");
    stop[0] = true;
    assertThat(a.read()).isEqualTo(-1);
    assertThat(List.of(a.position())).containsExactly(2L);
  }
}
