package io.eventtime.core.ndjson;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Date;
import org.junit.jupiter.api.Test;

class JsonValuesTest {
  @Test
  void eachKindOfValueIsWrittenAsTheContractPrintsIt() throws IOException {
    StringWriter out = new StringWriter();
    try (JsonGenerator g = new JsonFactory().createGenerator(out)) {
      g.writeStartArray();
      for (Object v : new Object[] {null, 7L, 2.5, new BigDecimal("12345678901234567890.5"), true,
          Instant.parse("2026-07-18T10:00:00.250Z"), new Date(Instant.parse("2026-07-18T10:00:00Z").toEpochMilli()),
          new byte[] {1, 2, 3}, "a \"b\""}) {
        JsonValues.write(g, v);
      }
      g.writeEndArray();
    }
    assertThat(out.toString()).isEqualTo("[null,7,2.5,12345678901234567890.5,true,\"2026-07-18 10:00:00.250\","
        + "\"2026-07-18 10:00:00\",\"AQID\",\"a \\\"b\\\"\"]");
  }
}
