package io.eventtime.hop.fileinput;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.core.OpenState;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The position after a line of a followed file: the next line and the byte it starts at. */
class LineStartsTest {
  @TempDir
  Path dir;

  @Test
  void givesTheNextLineAndItsByteAsTheFileGrowsAcrossFilesAndBack() throws Exception {
    Path a = Files.writeString(dir.resolve("a.ndjson"), "{\"x\":1}\r\n\n{\"x\":22}\n");
    Path b = Files.writeString(dir.resolve("b.ndjson"), "{}\n{\"y\":3}");
    String fa = a.toString();
    String fb = b.toString();
    try (LineStarts starts = new LineStarts()) {
      assertThat(starts.after(fa, 1)).isEqualTo(new OpenState.FileLine(fa, 2, 9));
      assertThat(starts.after(fa, 3)).as("a blank line counts").isEqualTo(new OpenState.FileLine(fa, 4, 19));
      Files.writeString(a, "{\"x\":4}\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
      assertThat(starts.after(fa, 4)).as("the file grew").isEqualTo(new OpenState.FileLine(fa, 5, 27));
      assertThat(starts.after(fb, 1)).isEqualTo(new OpenState.FileLine(fb, 2, 3));
      assertThat(starts.after(fb, 2)).as("a last line without a newline ends at the end of the file")
          .isEqualTo(new OpenState.FileLine(fb, 3, 10));
      assertThat(starts.after(fa, 2)).as("back to an earlier file and line").isEqualTo(new OpenState.FileLine(fa, 3,
          10));
    }
  }

  @Test
  void countsLinesLongerThanItsBuffer() throws Exception {
    String longLine = "{\"x\":\"" + "z".repeat(200_000) + "\"}\n";
    Path a = Files.writeString(dir.resolve("a.ndjson"), longLine + longLine + "{}\n");
    try (LineStarts starts = new LineStarts()) {
      assertThat(starts.after(a.toString(), 2)).isEqualTo(new OpenState.FileLine(a.toString(), 3,
          2L * longLine.length()));
      assertThat(starts.after(a.toString(), 3)).isEqualTo(new OpenState.FileLine(a.toString(), 4,
          2L * longLine.length() + 3));
    }
  }
}
