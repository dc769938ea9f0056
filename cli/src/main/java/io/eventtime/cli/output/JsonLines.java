package io.eventtime.cli.output;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;

/** Writes one JSON object per line with Jackson; timestamps as {@code 2026-07-18 10:00:00[.250]}. */
final class JsonLines {
  private static final JsonFactory FACTORY = new JsonFactory();

  private JsonLines() {}

  static JsonGenerator generator(OutputStream out) {
    try {
      JsonGenerator g = FACTORY.createGenerator(out, JsonEncoding.UTF8);
      g.configure(JsonGenerator.Feature.AUTO_CLOSE_TARGET, false);
      g.setRootValueSeparator(null);
      return g;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static void endLine(JsonGenerator g) throws IOException {
    g.writeRaw('\n');
  }
}
