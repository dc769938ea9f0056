package io.eventtime.core.ndjson;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.eventtime.core.EventTimeParser;
import io.eventtime.core.ValueType;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The rules of reading JSON values, the same for every surface: a number beyond a double's
 * range, a field written twice and an object or array are refused with the field and the
 * reason; a value becomes its column's type by one rule.
 */
class JsonValueRulesTest {
  private static final EventTimeParser TIMES = EventTimeParser.defaults();

  private static Object[] read(List<String> fields, String line) throws MalformedLineException {
    Object[] out = new Object[fields.size()];
    byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
    new FieldReader(fields).read(bytes, 0, bytes.length, out);
    return out;
  }

  @Test
  void aNumberBeyondTheRangeOfADoubleIsRefusedNamingItsField() {
    for (String line : List.of("{\"v\":1e400,\"t\":\"x\"}", "{\"v\":-1e400}", "{\"v\":" + "9".repeat(400) + "}")) {
      MalformedLineException byParse = org.junit.jupiter.api.Assertions.assertThrows(MalformedLineException.class,
          () -> NdjsonLines.parse(line));
      MalformedLineException byReader = org.junit.jupiter.api.Assertions.assertThrows(MalformedLineException.class,
          () -> read(List.of("v"), line));
      for (MalformedLineException e : List.of(byParse, byReader)) {
        assertThat(e.field()).as(line).isEqualTo("v");
      }
    }
    assertThatThrownBy(() -> NdjsonLines.parse("{\"v\":1e400}")).hasMessage("the number 1e400 is beyond the range"
        + " of a double (at most about 1.8e308 in size)");
    assertThatThrownBy(() -> read(List.of("v"), "{\"v\":" + "9".repeat(400) + "}")).hasMessage("the number "
        + "9".repeat(37) + "... is beyond the range of a double (at most about 1.8e308 in size)");
  }

  @Test
  void aLineThatIsAlsoMalformedIsMalformedFirst() {
    assertThatThrownBy(() -> read(List.of("v"), "{\"v\":1e400,"))
        .isInstanceOfSatisfying(MalformedLineException.class, e -> assertThat(e.field()).isNull())
        .hasMessageStartingWith("malformed JSON");
  }

  @Test
  void aFieldWrittenTwiceIsRefusedNamingIt() throws MalformedLineException {
    String line = "{\"t\":\"2026-07-18 10:00:00\",\"v\":1,\"t\":\"2026-07-18 11:00:00\"}";
    for (Runnable r : List.<Runnable>of(() -> check(() -> NdjsonLines.parse(line)),
        () -> check(() -> read(List.of("t", "v"), line)))) {
      r.run();
    }
    // a field the reader does not read is not looked at
    assertThat(read(List.of("v"), line)).containsExactly(1L);
  }

  private static void check(org.assertj.core.api.ThrowableAssert.ThrowingCallable call) {
    assertThatThrownBy(call).isInstanceOfSatisfying(MalformedLineException.class,
        e -> assertThat(e.field()).isEqualTo("t")).hasMessage("the field t appears twice in the object: keep one");
  }

  @Test
  void anObjectOrAnArrayIsNotAString() throws MalformedLineException {
    Map<String, Object> fields = NdjsonLines.parse("{\"o\":{\"a\": 1},\"a\":[1, 2],\"s\":\"{\\\"a\\\":1}\"}");
    assertThat(fields.get("o")).isEqualTo(new NestedValue(false, "{\"a\":1}")).isNotEqualTo(fields.get("s"));
    assertThat(fields.get("a")).isEqualTo(new NestedValue(true, "[1,2]"));
    assertThat(Arrays.asList(read(List.of("o", "a"), "{\"o\":{\"a\":1},\"a\":[1,2]}")))
        .containsExactly(new NestedValue(false, "{\"a\":1}"), new NestedValue(true, "[1,2]"));
    for (ValueType type : new ValueType[] {null, ValueType.STRING, ValueType.INT64, ValueType.DOUBLE,
        ValueType.BOOLEAN, ValueType.TIMESTAMP}) {
      assertThatThrownBy(() -> ColumnValues.convert(fields.get("o"), type, "T", TIMES))
          .hasMessage("an object {\"a\":1} is not a column's value (a column holds a number, a string, a boolean or"
              + " null)");
    }
    assertThat(ColumnValues.describe(fields.get("a"))).isEqualTo("an array [1,2]");
    assertThat(SchemaInference.typeOf(fields.get("o"))).isNull();
  }

  @Test
  void aWholeNumberColumnTakesWholeNumbersHoweverSpelled() throws Exception {
    for (Object five : List.of(5L, 5.0, 5e0)) {
      assertThat(ColumnValues.convert(five, ValueType.INT64, "BIGINT", TIMES)).isEqualTo(5L);
    }
    assertThatThrownBy(() -> ColumnValues.convert(0.5, ValueType.INT64, "BIGINT", TIMES))
        .hasMessage("0.5 is not a whole number (the column is BIGINT)");
    assertThatThrownBy(() -> ColumnValues.convert(1e20, ValueType.INT64, "BIGINT", TIMES))
        .hasMessage("1.0E20 does not fit a 64-bit whole number (the column is BIGINT)");
    assertThatThrownBy(() -> ColumnValues.convert("5", ValueType.INT64, "INT64", TIMES))
        .hasMessage("'5' is not a number (the column is INT64)");
  }

  @Test
  void theOtherColumnsTakeTheirOwnType() throws Exception {
    assertThat(ColumnValues.convert(5L, ValueType.DOUBLE, "DOUBLE", TIMES)).isEqualTo(5.0);
    assertThat(ColumnValues.convert(1.0, ValueType.STRING, "VARCHAR", TIMES)).isEqualTo("1");
    assertThat(ColumnValues.convert(1L, null, "VARCHAR", TIMES)).isEqualTo("1");
    assertThat(ColumnValues.convert(1.5, ValueType.STRING, "VARCHAR", TIMES)).isEqualTo("1.5");
    assertThat(ColumnValues.convert(true, ValueType.STRING, "VARCHAR", TIMES)).isEqualTo("true");
    assertThat(ColumnValues.convert("2026-07-18 10:00:00", ValueType.TIMESTAMP, "TIMESTAMP", TIMES))
        .isEqualTo(Instant.parse("2026-07-18T10:00:00Z"));
    assertThat(ColumnValues.convert(null, ValueType.INT64, "BIGINT", TIMES)).isNull();
    assertThatThrownBy(() -> ColumnValues.convert(1L, ValueType.BOOLEAN, "BOOLEAN", TIMES))
        .hasMessage("1 is not a boolean (the column is BOOLEAN)");
    assertThatThrownBy(() -> ColumnValues.convert(1L, ValueType.TIMESTAMP, "TIMESTAMP", TIMES))
        .hasMessage("1 is not a date-time string (the column is TIMESTAMP)");
  }
}
