package io.eventtime.core.ndjson;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each line is decoded strictly on its own: bytes that are not UTF-8 reject that line, named, and the next is read. */
class Utf8LinesTest {
  private static byte[] bytes(Object... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (Object p : parts) {
      if (p instanceof String s) {
        out.writeBytes(s.getBytes(StandardCharsets.UTF_8));
      } else {
        out.write((Integer) p);
      }
    }
    return out.toByteArray();
  }

  /** Each line as its text, or as "! reason | shown text" when it is not UTF-8. */
  private static List<String> lines(byte[] input) throws IOException {
    List<String> lines = new ArrayList<>();
    try (Utf8Lines in = new Utf8Lines(new ByteArrayInputStream(input))) {
      while (true) {
        try {
          String line = in.readLine();
          if (line == null) {
            return lines;
          }
          lines.add(line);
        } catch (Utf8Lines.NotUtf8 e) {
          lines.add("! " + e.getMessage() + " | " + e.text());
        }
      }
    }
  }

  @Test
  void aLineWithBytesThatAreNotUtf8IsRejectedAndTheNextIsRead() throws IOException {
    byte[] input = bytes("{\"m\":\"a", 0xFF, 0xFE, "b\"}\n", "{\"m\":\"é\"}\r\n", "\n", "{\"m\":\"x", 0xE2, 0x82, "y\"}");
    assertThat(lines(input)).containsExactly(
        "! the line is not UTF-8 text (0xff at byte 8 of the line) | {\"m\":\"a\uFFFD\uFFFDb\"}",
        "{\"m\":\"é\"}",
        "",
        "! the line is not UTF-8 text (0xe2 0x82 at byte 8 of the line) | {\"m\":\"x\uFFFDy\"}");
  }

  @Test
  void encodedSurrogatesAndOverlongFormsAreNotUtf8() {
    assertThatThrownBy(() -> Utf8Lines.decode(bytes("ab", 0xED, 0xA0, 0x80), 0, 5))
        .isInstanceOf(Utf8Lines.NotUtf8.class).hasMessage("the line is not UTF-8 text (0xed 0xa0 0x80 at byte 3 of the line)");
    assertThatThrownBy(() -> Utf8Lines.decode(bytes(0xC0, 0xAF), 0, 2))
        .hasMessage("the line is not UTF-8 text (0xc0 at byte 1 of the line)");
  }

  @Test
  void theByteOrderMarkIsSkippedAndLinesEndAtNewlineOnly() throws IOException {
    assertThat(lines(bytes(0xEF, 0xBB, 0xBF, "{\"a\":1}\r\n{\"a\":\r2}\n"))).containsExactly("{\"a\":1}", "{\"a\":\r2}");
    assertThat(lines(bytes(""))).isEmpty();
    assertThat(lines(bytes("x\n\n"))).containsExactly("x", "");
  }

  @Test
  void aLineLongerThanTheBufferIsReadWhole() throws IOException {
    String longLine = "é".repeat(100_000);
    assertThat(lines(bytes(longLine, "\n", "z"))).containsExactly(longLine, "z");
    assertThat(Utf8Lines.decode(bytes("xé€😀"), 1, 9)).isEqualTo("é€😀");
  }
}
