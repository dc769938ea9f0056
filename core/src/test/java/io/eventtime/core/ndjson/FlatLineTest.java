package io.eventtime.core.ndjson;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * {@link FieldReader}'s fast path ({@link FlatLine}) reads exactly what Jackson's parser reads:
 * on random lines, well-formed or not, {@link FieldReader#read} gives the same values (of the same
 * types) or the same error as {@link FieldReader#readWithJackson}; and the fast path does take
 * the usual lines, so the comparison is not of Jackson with itself.
 */
class FlatLineTest {
  private static final List<String> FIELDS = List.of("merchant", "amount", "t", "é");

  private static final List<String> NAMES = List.of("merchant", "amount", "t", "other", "", "a b", "am\\u006fount",
      "é", "t\u0001", "\u007f");

  private static final List<String> VALUES = List.of(
      "\"m1\"", "\"\"", "\"a b\"", "\"2026-07-18 10:00:00\"", "\"\\n\"", "\"\\\"\"", "\"é\"", "\"\u0001\"",
      "\"\u007f\"", "\"\t\"", "\"unclosed",
      "0", "-0", "01", "-", "1.", "1.5", "-1.5e3", "1e400", "-1e400", "1E+2", "1e-2", "1e", "1e+", ".5", "+1", "0.0",
      "-0.0", "123456789012345678", "-123456789012345678", "1234567890123456789", "9223372036854775807",
      "-9223372036854775808", "9223372036854775808", "99999999999999999999", "4.9e-324", "2.5e-324",
      "1" + "0".repeat(70), "0." + "1".repeat(70), "1x", "1-", "00", "-01", "0e5", "0.5e",
      "true", "false", "null", "nul", "truex", "True", "nulll",
      "{}", "[]", "[1]", "{\"a\":1}", "{\"t\":\"x\"}");

  private static final List<String> SPACES = List.of("", "", "", " ", "\t", "  ", "\r", "\u000b", "\u0000");

  @Provide
  Arbitrary<String> lines() {
    Arbitrary<String> space = Arbitraries.of(SPACES);
    Arbitrary<String> field = Combinators.combine(space, Arbitraries.of(NAMES), space, space, Arbitraries.of(VALUES),
        space).as((s1, name, s2, s3, value, s4) -> s1 + "\"" + name + "\"" + s2 + ":" + s3 + value + s4);
    Arbitrary<String> separator = Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(30, Arbitraries.just(",")),
        net.jqwik.api.Tuple.of(1, Arbitraries.of("", ",,", ";", "}", " ")));
    Arbitrary<List<String>> fields = field.list().ofMinSize(0).ofMaxSize(6);
    Arbitrary<String> open = Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(30, Arbitraries.just("{")),
        net.jqwik.api.Tuple.of(1, Arbitraries.of("", "[", "\uFEFF{", "{{")));
    Arbitrary<String> close = Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(30, Arbitraries.just("}")),
        net.jqwik.api.Tuple.of(1, Arbitraries.of("", ",}", "}}", "} x", "}{}", "]", "} 1")));
    return Combinators.combine(space, open, fields, separator.list().ofSize(6), close, space)
        .as((s1, o, fs, seps, c, s2) -> {
          StringBuilder line = new StringBuilder(s1).append(o);
          for (int i = 0; i < fs.size(); i++) {
            line.append(i == 0 ? "" : seps.get(i)).append(fs.get(i));
          }
          return line.append(c).append(s2).toString();
        });
  }

  @Property(tries = 10000)
  void readsWhatJacksonReads(@ForAll("lines") String line) {
    byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
    FieldReader reader = new FieldReader(FIELDS);
    assertThat(outcome(() -> {
      Object[] out = new Object[FIELDS.size()];
      reader.read(bytes, 0, bytes.length, out);
      return out;
    })).as(line).isEqualTo(outcome(() -> {
      Object[] out = new Object[FIELDS.size()];
      Arrays.fill(out, FieldReader.MISSING);
      reader.readWithJackson(bytes, 0, bytes.length, out);
      return out;
    }));
  }

  @Test
  void readsTheUsualLinesItself() {
    FlatLine flat = new FlatLine(new String[] {"merchant", "amount", "event_time", "rate"});
    Object[] out = new Object[4];
    Arrays.fill(out, FieldReader.MISSING);
    byte[] line = "{\"merchant\":\"m123\", \"amount\":-250,\"skip\":[1],\"event_time\":\"2026-07-18 10:00:03\",\"rate\":1.5e1} "
        .getBytes(StandardCharsets.UTF_8);
    assertThat(flat.read(line, 0, line.length, out)).isFalse(); // an array, even in a field not read
    line = "{\"merchant\":\"m123\", \"amount\":-250,\"skip\":null,\"event_time\":\"2026-07-18 10:00:03\",\"rate\":1.5e1} "
        .getBytes(StandardCharsets.UTF_8);
    Arrays.fill(out, FieldReader.MISSING);
    assertThat(flat.read(line, 0, line.length, out)).isTrue();
    assertThat(out).containsExactly("m123", -250L, "2026-07-18 10:00:03", 15.0);
    for (String declined : List.of("{\"merchant\":\"m\\u0031\"}", "{\"amount\":1234567890123456789}", "{\"amount\":1e400}",
        "{\"merchant\":\"é\"}", "{\"amount\":1,\"amount\":2}", "{\"amount\":01}", "{\"amount\":1,}", "{} {}")) {
      byte[] b = declined.getBytes(StandardCharsets.UTF_8);
      Arrays.fill(out, FieldReader.MISSING);
      assertThat(flat.read(b, 0, b.length, out)).as(declined).isFalse();
    }
  }

  /** The values read, as a list of each value and its class, or the error's field and message. */
  private static List<Object> outcome(Read read) {
    try {
      List<Object> values = new ArrayList<>();
      for (Object v : read.read()) {
        values.add(v == null ? "null" : v.getClass().getSimpleName() + ":" + v);
      }
      return values;
    } catch (MalformedLineException e) {
      return List.of("error", String.valueOf(e.field()), e.getMessage());
    }
  }

  private interface Read {
    Object[] read() throws MalformedLineException;
  }
}
