package io.eventtime.cli.source;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link LineSource} gives every line that is not blank, numbered as in the file, without its
 * line end, wherever its newline falls in the eight bytes it looks at together and in the reads
 * of the stream.
 */
class LineSourceTest {

  @Test
  void everyLineComesOnceWhereverItsNewlineFalls() throws IOException {
    Random random = new Random(20261205);
    StringBuilder text = new StringBuilder();
    List<String> expected = new ArrayList<>();
    int number = 0;
    while (text.length() < 3 << 20) { // past the 1 MiB buffer, so that it is refilled mid-line
      number++;
      int kind = random.nextInt(40);
      String line;
      if (kind == 0) {
        line = " \t"; // blank: counted, not given
      } else if (kind == 1) {
        line = "x".repeat(random.nextInt(300_000)); // longer than most reads
      } else {
        StringBuilder b = new StringBuilder();
        for (int i = random.nextInt(30); i > 0; i--) {
          b.append("ab{\"}: ,\t0\r".charAt(random.nextInt(11)));
        }
        line = "{" + b;
      }
      String end = random.nextInt(5) == 0 ? "\r\n" : "\n";
      text.append(line).append(end);
      // the one '\r' before the newline is the line end's, not the line's
      String given = end.equals("\n") && line.endsWith("\r") ? line.substring(0, line.length() - 1) : line;
      if (!given.isBlank()) {
        expected.add(number + ":" + given);
      }
    }
    text.append("{\"last\":1}"); // no newline after the last line
    expected.add(++number + ":{\"last\":1}");

    byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
    List<String> lines = new ArrayList<>();
    try (LineSource source = LineSource.standardInput(new ChoppyStream(bytes, random))) {
      while (source.next()) {
        lines.add(source.lineNumber() + ":"
            + new String(source.buffer(), source.offset(), source.length(), StandardCharsets.UTF_8));
      }
    }
    assertThat(lines).hasSize(expected.size());
    assertThat(lines).isEqualTo(expected);
  }

  /** A stream that hands out its bytes a few at a time, as a pipe may. */
  private static final class ChoppyStream extends InputStream {
    private final ByteArrayInputStream in;
    private final Random random;

    ChoppyStream(byte[] bytes, Random random) {
      this.in = new ByteArrayInputStream(bytes);
      this.random = random;
    }

    @Override
    public int read() {
      return in.read();
    }

    @Override
    public int read(byte[] b, int off, int len) {
      return in.read(b, off, Math.min(len, 1 + random.nextInt(random.nextBoolean() ? 13 : 70_000)));
    }
  }
}
