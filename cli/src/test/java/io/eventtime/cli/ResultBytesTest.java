package io.eventtime.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The result rows are written byte for byte as Jackson writes the same values: keys that need
 * escaping or are not ASCII, the extreme whole numbers, fractions, times, nulls.
 */
class ResultBytesTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void eachRowIsTheLineJacksonWrites(@TempDir Path dir) throws Exception {
    List<String> keys = List.of("plain", "quote\"d", "back\\slash", "tab\tx", "ctl\u0001", "del\u007f", "é ü",
        "emoji \uD83D\uDE00", "slash/", "", "line\nbreak");
    long[] amounts = {Long.MIN_VALUE, Long.MAX_VALUE, 0, -5, 123456789, 7, -1, 10, 99, 1, 2};
    List<String> lines = new ArrayList<>();
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < keys.size(); i++) {
      Map<String, Object> in = new LinkedHashMap<>();
      in.put("k", keys.get(i));
      in.put("amount", amounts[i]);
      in.put("t", "2026-07-18 10:00:0" + (i % 10) + ".25");
      lines.add(JSON.writeValueAsString(in));
      Map<String, Object> out = new LinkedHashMap<>();
      out.put("k", keys.get(i));
      out.put("w", "2026-07-18 10:00:00");
      out.put("window_end", "2026-07-18 10:01:00");
      out.put("n", 1);
      out.put("lo", amounts[i]);
      out.put("mean", (double) amounts[i]);
      out.put("last", "2026-07-18 10:00:0" + (i % 10) + ".250");
      out.put("none", null);
      // as Jackson writes UTF-8 (where a character outside the BMP is escaped as its surrogates)
      expected.add(new String(JSON.writeValueAsBytes(out), StandardCharsets.UTF_8));
    }
    lines.add("{\"k\":\"plain\",\"amount\":1,\"t\":\"2026-07-18 10:02:00\",\"x\":2.5}");
    Path file = Cli.write(dir, "events.ndjson", lines.toArray(String[]::new));
    Cli run = Cli.run("--from", file.toString(), "--table", "events",
        "SELECT k, TUMBLE(t, INTERVAL 1 MINUTE) AS w, TUMBLE_END(t, INTERVAL 1 MINUTE), count(*) AS n, min(amount) AS lo,"
            + " avg(amount) AS mean, max(t) AS last, max(x) AS none FROM events GROUP BY k, TUMBLE(t, INTERVAL 1 MINUTE)");
    assertThat(run.status()).as(run.err()).isZero();
    List<String> rows = run.rows();
    assertThat(rows.subList(0, keys.size())).containsExactlyInAnyOrderElementsOf(expected);
    assertThat(rows.get(keys.size())).isEqualTo("{\"k\":\"plain\",\"w\":\"2026-07-18 10:02:00\",\"window_end\":"
        + "\"2026-07-18 10:03:00\",\"n\":1,\"lo\":1,\"mean\":1.0,\"last\":\"2026-07-18 10:02:00\",\"none\":2.5}");
  }

  @Test
  void wholeNumbersOfEveryLengthAreWrittenAsTheirDigits(@TempDir Path dir) throws Exception {
    List<Long> numbers = new ArrayList<>(List.of(Long.MIN_VALUE + 1, Long.MAX_VALUE - 1, 1_000_000_007L));
    for (long p = 1; p <= Long.MAX_VALUE / 10; p *= 10) {
      numbers.addAll(List.of(p, 10 * p - 1, -p, 3 * p + 1));
    }
    List<String> lines = new ArrayList<>();
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < numbers.size(); i++) {
      lines.add("{\"k\":" + i + ",\"amount\":" + numbers.get(i) + ",\"t\":\"2026-07-18 10:00:00\"}");
      expected.add("{\"k\":" + i + ",\"lo\":" + numbers.get(i) + "}");
    }
    Path file = Cli.write(dir, "events.ndjson", lines.toArray(String[]::new));
    Cli run = Cli.run("--from", file.toString(), "--table", "events",
        "SELECT k, min(amount) AS lo FROM events GROUP BY k, TUMBLE(t, INTERVAL 1 MINUTE)");
    assertThat(run.status()).as(run.err()).isZero();
    assertThat(run.rows()).containsExactlyInAnyOrderElementsOf(expected);
  }
}
