package io.eventtime.cli.output;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.eventtime.core.TimeText;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.time.Instant;

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

  static void writeValue(JsonGenerator g, Object v) throws IOException {
    if (v == null) {
      g.writeNull();
    } else if (v instanceof Long l) {
      g.writeNumber(l);
    } else if (v instanceof Double d) {
      g.writeNumber(d);
    } else if (v instanceof Boolean b) {
      g.writeBoolean(b);
    } else if (v instanceof Instant i) {
      g.writeString(TimeText.format(i.toEpochMilli()));
    } else {
      g.writeString(v.toString());
    }
  }

  static void endLine(JsonGenerator g) throws IOException {
    g.writeRaw('\n');
  }
}
