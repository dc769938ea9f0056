package io.eventtime.core.ndjson;

import com.fasterxml.jackson.core.JsonGenerator;
import io.eventtime.core.TimeText;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Date;

/**
 * How a value is written into a JSON line, the same by every surface that writes one (the
 * command's window rows, Hop's Event File Output): numbers and booleans as JSON numbers and
 * booleans, a time as the contract's text ({@code 2026-07-18 10:00:00[.250]}), bytes in base64,
 * anything else as its text.
 */
public final class JsonValues {
  private JsonValues() {}

  /** Writes {@code value} as the next JSON value of {@code g}. */
  public static void write(JsonGenerator g, Object value) throws IOException {
    if (value == null) {
      g.writeNull();
    } else if (value instanceof Long l) {
      g.writeNumber(l);
    } else if (value instanceof Double d) {
      g.writeNumber(d);
    } else if (value instanceof BigDecimal b) {
      g.writeNumber(b);
    } else if (value instanceof Boolean b) {
      g.writeBoolean(b);
    } else if (value instanceof Instant i) {
      g.writeString(TimeText.format(i.toEpochMilli()));
    } else if (value instanceof Date d) {
      g.writeString(TimeText.format(d.getTime()));
    } else if (value instanceof byte[] bytes) {
      g.writeBinary(bytes);
    } else {
      g.writeString(value.toString());
    }
  }
}
