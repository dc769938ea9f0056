package io.eventtime.core.ndjson;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** A UTF-16 or UTF-32 file is told by its first bytes, with or without a byte order mark; UTF-8 is not. */
class TextEncodingTest {
  private static final String LINE = "{\"t\":\"2026-07-18 10:00:01\"}\n";

  private static String of(byte[] bytes) {
    return TextEncoding.notUtf8(bytes, bytes.length);
  }

  @Test
  void utf16AndUtf32AreToldWithTheirName() {
    for (String name : new String[] {"UTF-16LE", "UTF-16BE", "UTF-32LE", "UTF-32BE"}) {
      Charset cs = Charset.forName(name);
      assertThat(of(("\uFEFF" + LINE).getBytes(cs))).isEqualTo("it is " + name + " text (it starts with a " + name
          + " byte order mark), not UTF-8: convert it first, e.g. iconv -f " + name + " -t UTF-8");
      assertThat(of(LINE.getBytes(cs))).isEqualTo("it is " + name + " text (zero bytes are interleaved with its first"
          + " characters), not UTF-8: convert it first, e.g. iconv -f " + name + " -t UTF-8");
    }
  }

  @Test
  void utf8WithOrWithoutItsByteOrderMarkIsUtf8() {
    assertThat(of(LINE.getBytes(StandardCharsets.UTF_8))).isNull();
    assertThat(of(("\uFEFF" + LINE).getBytes(StandardCharsets.UTF_8))).isNull();
    assertThat(of("é".getBytes(StandardCharsets.UTF_8))).isNull();
    assertThat(of(new byte[] {'{'})).isNull();
    assertThat(of(new byte[0])).isNull();
  }
}
