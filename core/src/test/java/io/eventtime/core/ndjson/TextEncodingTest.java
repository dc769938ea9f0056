package io.eventtime.core.ndjson;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPOutputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;

/**
 * A UTF-16 or UTF-32 file is told by its first bytes, with or without a byte order mark, and so is a
 * compressed one; UTF-8 is not.
 */
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
  void compressedFilesAreToldByTheirMagicBytes() throws IOException {
    ByteArrayOutputStream gz = new ByteArrayOutputStream();
    try (GZIPOutputStream out = new GZIPOutputStream(gz)) {
      out.write(LINE.getBytes(StandardCharsets.UTF_8));
    }
    assertThat(of(gz.toByteArray())).isEqualTo("it is gzip-compressed (it starts with gzip's magic bytes), not UTF-8"
        + " text: decompress it first, e.g. with gzip -dc");
    ByteArrayOutputStream zip = new ByteArrayOutputStream();
    try (ZipOutputStream out = new ZipOutputStream(zip)) {
      out.putNextEntry(new ZipEntry("events.ndjson"));
      out.write(LINE.getBytes(StandardCharsets.UTF_8));
    }
    assertThat(of(zip.toByteArray())).isEqualTo("it is zip-compressed (it starts with zip's magic bytes), not UTF-8"
        + " text: decompress it first, e.g. with unzip -p");
    // the formats' headers as their tools write them (bzip2 -9, xz, zstd)
    assertThat(of(new byte[] {'B', 'Z', 'h', '9', 0x31, 0x41})).startsWith("it is bzip2-compressed").endsWith("bzip2 -dc");
    assertThat(of(new byte[] {(byte) 0xFD, '7', 'z', 'X', 'Z', 0})).startsWith("it is xz-compressed").endsWith("xz -dc");
    assertThat(of(new byte[] {0x28, (byte) 0xB5, 0x2F, (byte) 0xFD})).startsWith("it is zstd-compressed")
        .endsWith("zstd -dc");
  }

  @Test
  void textThatOnlyLooksLikeAMagicNumberIsNotRefused() {
    assertThat(of("BZh!".getBytes(StandardCharsets.UTF_8))).isNull();
    assertThat(of("PK{}".getBytes(StandardCharsets.UTF_8))).isNull();
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
