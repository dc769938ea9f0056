package io.eventtime.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.eventtime.cli.sql.Schema;
import io.eventtime.cli.sql.SqlPlanner;
import io.eventtime.core.ndjson.NdjsonLines;
import io.eventtime.core.ndjson.SchemaInference;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.lifecycle.LifecycleContext;
import net.jqwik.api.lifecycle.SkipExecutionHook;

/**
 * A fuzz test of the command's SQL planner, its line reader and its flags (issue 14): random
 * queries, NDJSON lines and flags, made from a grammar and from the cases that once crashed, then
 * mutated. The property: no input ends in {@code INTERNAL_ERROR} or a stack trace, every line
 * printed is JSON, and every run that succeeds keeps {@code rows_in = rows_folded +
 * late_dropped + rows_rejected}, prints {@code rows_out} rows, and writes exactly
 * {@code late_dropped} lines to the late file and {@code rows_rejected} to the rejected file.
 *
 * <p>The suite runs a short, fixed-seed run and the fixed corpus; {@code scripts/fuzz.sh} runs
 * {@link #longRun} and {@link #longPlannerRun} with random seeds for as many tries as it is told.
 */
class CommandFuzzTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  /** A frame of a Java stack trace, as printStackTrace writes it. */
  private static final Pattern STACK_FRAME = Pattern.compile("(?m)^\\s+at [\\w$.]+\\(|^Caused by: ");
  /** An argument picocli reads as --help or --version (alone, or clustered with other short flags). */
  private static final Pattern HELP_OR_VERSION = Pattern.compile("--help$|--version$|-[A-Za-z]*[hV]");

  private static final String TUMBLE = "SELECT k, TUMBLE(t, INTERVAL 1 MINUTE) AS w, count(*) AS n, sum(v) AS s"
      + " FROM events GROUP BY k, TUMBLE(t, INTERVAL 1 MINUTE)";

  /** Queries that crashed the planner or ran wrongly once (issue 14), and their neighbours. */
  static final List<String> QUERIES = List.of(
      TUMBLE,
      "-V",
      "-h",
      "-V)-O*R3",
      "--x",
      "",
      "   ",
      "-- only a comment",
      "/* only a comment */",
      "-- counts per minute\n" + TUMBLE,
      "/* counts */ " + TUMBLE + " -- the end",
      TUMBLE + ";",
      TUMBLE + "; DROP TABLE events",
      TUMBLE + ";;",
      TUMBLE + "; garbage (",
      TUMBLE + "; 'unterminated",
      "SELECT count(*) AS n FROM events GROUP BY TUMBLE(t, INTERVAL 106751991168 DAY)",
      "SELECT count(*) AS n FROM events GROUP BY TUMBLE(t, INTERVAL 106751991167 DAY)",
      "SELECT count(*) AS n FROM events GROUP BY SESSION(t, INTERVAL 3652425 DAY)",
      "SELECT count(*) AS n FROM events GROUP BY SESSION(t, INTERVAL 3652426 DAY)",
      "SELECT count(*) AS n FROM events GROUP BY TUMBLE(t, INTERVAL 99999999999999999999 DAY)",
      "SELECT count(*) AS n FROM events GROUP BY HOP(t, INTERVAL 1 MILLISECOND, INTERVAL 100000 DAY)",
      "SELECT count(*) AS n FROM events GROUP BY HOP(t, INTERVAL 1 MILLISECOND, INTERVAL 10 SECOND)",
      "SELECT count(*) AS n FROM events GROUP BY HOP(t, INTERVAL 1 MILLISECOND, INTERVAL 10001 MILLISECOND)",
      "SELECT count(*) AS n FROM events WHERE v < 9223372036854775808 GROUP BY TUMBLE(t, INTERVAL 1 MINUTE)",
      "SELECT count(*) AS n FROM events WHERE v > -9223372036854775808 GROUP BY TUMBLE(t, INTERVAL 1 MINUTE)",
      "SELECT count(*) AS n FROM events WHERE v > -9223372036854775809 GROUP BY TUMBLE(t, INTERVAL 1 MINUTE)",
      "SELECT count(*) AS n FROM events GROUP BY TUMBLE(t, INTERVAL 1 MINUTE) HAVING count(*) < 99999999999999999999",
      "SELECT count(*) AS n FROM events WHERE v < 1e400 GROUP BY TUMBLE(t, INTERVAL 1 MINUTE)",
      "SELECT count(*) AS n FROM events WHERE t > TIMESTAMP '+292278995-01-01T00:00:00Z'"
          + " GROUP BY TUMBLE(t, INTERVAL 1 MINUTE)",
      "SELECT count(*) AS n FROM events WHERE t > '0000-01-01 00:00:00' GROUP BY TUMBLE(t, INTERVAL 1 MINUTE)",
      "SELECT 'a\\';x' FROM events",
      "SELECT k, SESSION(t, INTERVAL 5 MINUTE) AS s, SESSION_END(t, INTERVAL 5 MINUTE) AS e, count(*) AS n,"
          + " max(t) AS last FROM events GROUP BY k, SESSION(t, INTERVAL 5 MINUTE)",
      "SELECT k, HOP(t, INTERVAL 30 SECOND, INTERVAL 1 MINUTE), HOP_END(t, INTERVAL 30 SECOND, INTERVAL 1 MINUTE),"
          + " avg(v), min(v), max(v), count(DISTINCT k) FROM events WHERE k IN ('a', 'b') AND v BETWEEN -5 AND 5"
          + " GROUP BY k, HOP(t, INTERVAL 30 SECOND, INTERVAL 1 MINUTE) HAVING count(*) >= 1");

  /** Lines that crashed the reader or were read wrongly once, and their neighbours. */
  static final List<String> LINES = List.of(
      "{\"t\":\"2026-07-18 10:00:00\",\"k\":\"a\",\"v\":1}",
      "{\"t\":\"+292278995-01-01T00:00:00Z\",\"k\":\"a\",\"v\":1}",
      "{\"t\":\"+292278994-08-17T07:12:55.807Z\",\"k\":\"a\",\"v\":1}",
      "{\"t\":\"-292275055-05-16T16:47:04.192Z\"}",
      "{\"t\":\"0000-01-01 00:00:00\"}",
      "{\"t\":\"-0001-12-31T23:59:59Z\"}",
      "{\"t\":\"0001-01-01 00:00:00\",\"v\":-9223372036854775808}",
      "{\"t\":\"9999-12-31 23:59:59.999\",\"v\":9223372036854775807}",
      "{\"t\":\"2026-07-18 10:00:01\",\"v\":9223372036854775808}",
      "{\"t\":\"2026-07-18 10:00:02\",\"v\":1e400}",
      "{\"t\":\"2026-07-18 10:00:03\",\"v\":0.5}",
      "{\"t\":\"2026-07-18 10:00:04\",\"k\":1}",
      "{\"t\":\"2026-07-18 10:00:05\",\"k\":1.0}",
      "{\"t\":\"2026-07-18 10:00:06\",\"k\":{\"a\":1}}",
      "{\"t\":\"2026-07-18 10:00:07\",\"k\":\"{\\\"a\\\":1}\"}",
      "{\"t\":\"2026-07-18 10:00:08\",\"t\":\"2026-07-18 10:09:00\"}",
      "{\"t\":[\"2026-07-18 10:00:00\"]}",
      "{\"t\":{\"at\":\"2026-07-18 10:00:00\"}}",
      "{\"t\":null}",
      "{\"t\":1784368803000}",
      "{\"t\":\"\"}",
      "{}",
      "[]",
      "null",
      "{\"t\":\"2026-07-18 10:00:09\"",
      "\uFEFF{\"t\":\"2026-07-18 10:00:10\"}",
      "{\"t\":\"2026-07-18 10:00:11\"} trailing",
      "{\"t\":\"2026-02-30 10:00:00\"}",
      "{\"t\":\"2026-07-18 10:00:12\r\"}",
      "{\"t\":\"2026-07-18 10:00:13\",\"k\":\"\\ud800\"}",
      "{\"t\":\"2026-07-18 10:00:14\",\"v\":-0.0}",
      "{\"t\":\"2026-07-18 10:00:15\",\"v\":1E+2}");

  /** Flags that were refused wrongly or let a run wrap once. */
  static final List<List<String>> FLAGS = List.of(
      List.of(),
      List.of("--watermark-delay", "106751991167 DAY"),
      List.of("--watermark-delay", "9223372036854775807 ms"),
      List.of("--watermark-delay", "3652425 DAYS"),
      List.of("--watermark-delay", "3652426 DAYS"),
      List.of("--watermark-delay", "-1 ms"),
      List.of("--watermark-delay", "PT-5M"),
      List.of("--watermark-delay", "P"),
      List.of("--late-policy", "event", "--watermark-delay", "1 MINUTE"),
      List.of("--late-policy", "sometimes"),
      List.of("--infer-rows", "1"),
      List.of("--infer-rows", "0"),
      List.of("--infer-rows", "99999999999"),
      List.of("--table", "events"),
      List.of("--table", "1bad"));

  /**
   * One run: the query, the input lines (raw bytes), the flags besides --from and the outputs, and
   * how the lines are laid out: the line end, whether the last line has one, and how many lines go
   * to the first file (the rest to a second, read after it).
   */
  record Case(String query, List<byte[]> lines, List<String> flags, String lineEnd, boolean lastLineEnded,
      int firstFileLines) {
    Case(String query, List<byte[]> lines, List<String> flags) {
      this(query, lines, flags, "\n", true, lines.size());
    }

    @Override
    public String toString() {
      StringBuilder b = new StringBuilder("query: ").append(query).append("\nflags: ").append(flags)
          .append("\nline end: ").append(lineEnd.replace("\r", "\\r").replace("\n", "\\n"))
          .append(lastLineEnded ? "" : ", none after the last").append(", first file: ").append(firstFileLines)
          .append(" lines\nlines:");
      for (byte[] l : lines) {
        b.append("\n  ").append(new String(l, StandardCharsets.UTF_8));
      }
      return b.toString();
    }
  }

  // ---- the property ----

  @Property(tries = 80, seed = "20261201")
  void noInputQueryOrFlagEndsInABugAndNoRowIsLost(@ForAll("cases") Case c) throws IOException {
    check(c);
  }

  /** The long run of {@code scripts/fuzz.sh}: random seeds, {@code -Djqwik.tries.default} tries. */
  @Property
  @AddLifecycleHook(OnlyInLongRuns.class)
  void longRun(@ForAll("cases") Case c) throws IOException {
    check(c);
  }

  /**
   * The planner alone, many more queries than the command runs: parsing and binding to a schema
   * either plans the query or refuses it with a code; nothing else escapes.
   */
  @Property(tries = 300, seed = "20261202")
  void thePlannerPlansOrRefusesEveryQuery(@ForAll("queries") String query) throws Exception {
    planOrRefuse(query);
  }

  /** The long run of the planner alone, beside {@link #longRun}. */
  @Property
  @AddLifecycleHook(OnlyInLongRuns.class)
  void longPlannerRun(@ForAll("queries") String query) throws Exception {
    planOrRefuse(query);
  }

  private static void planOrRefuse(String query) throws Exception {
    SchemaInference inference = new SchemaInference();
    inference.observe(NdjsonLines.parse("{\"t\":\"2026-07-18 10:00:00\",\"k\":\"a\",\"v\":1}"));
    inference.observe(NdjsonLines.parse("{\"t\":\"2026-07-18 10:00:01\",\"k\":\"b\",\"v\":2.5}"));
    try {
      SqlPlanner.bind(SqlPlanner.parse(query), "events", new Schema(inference, 2, "two rows"));
    } catch (CliException refused) {
      assertThat(refused.code()).as(refused.getMessage()).isNotEqualTo(ErrorCode.INTERNAL_ERROR);
      assertThat(refused.getMessage()).isNotBlank();
    }
  }

  @Example
  void everyQueryOfTheCorpus() throws IOException {
    for (String q : QUERIES) {
      check(new Case(q, bytes(LINES.subList(0, 12)), List.of())); // the edges of the time range among them
    }
  }

  @Example
  void everyLineOfTheCorpus() throws IOException {
    for (String line : LINES) {
      check(new Case(TUMBLE, bytes(List.of(LINES.get(0), line, "{\"t\":\"2026-07-18 10:05:00\",\"k\":\"b\",\"v\":2}")),
          List.of()));
    }
  }

  @Example
  void everyFlagOfTheCorpus() throws IOException {
    for (List<String> flags : FLAGS) {
      check(new Case(TUMBLE, bytes(LINES), flags));
    }
  }

  @Example
  void longLinesLineEndsAndSeveralFiles() throws IOException {
    // lines longer than the reader's 1 MiB buffer, and lines that straddle its end
    String big = "{\"t\":\"2026-07-18 10:00:01\",\"k\":\"" + "x".repeat(5 << 18) + "\",\"v\":1}";
    String near = "{\"t\":\"2026-07-18 10:00:02\",\"k\":\"" + "y".repeat((1 << 20) - 40) + "\"}";
    List<byte[]> lines = bytes(List.of(LINES.get(0), near, big, "", "   ", LINES.get(1), big));
    check(new Case(TUMBLE, lines, List.of(), "\n", true, 3));
    check(new Case(TUMBLE, lines, List.of(), "\r\n", false, lines.size()));
    check(new Case(TUMBLE, lines, List.of(), "\n\n", false, 0));
  }

  @Example
  void rawBytesThatAreNotUtf8() throws IOException {
    byte[] utf16 = "{\"t\":\"2026-07-18 10:00:00\"}".getBytes(StandardCharsets.UTF_16LE);
    List<byte[]> lines = List.of(new byte[] {(byte) 0xFF, (byte) 0xFE, '{', 0}, utf16,
        new byte[] {'{', '"', 't', '"', ':', '"', (byte) 0xC3, '"', '}'}, new byte[] {(byte) 0x80, (byte) 0xBF},
        new byte[] {0, 0, 0});
    check(new Case(TUMBLE, lines, List.of()));
  }

  static void check(Case c) throws IOException {
    Path dir = Files.createTempDirectory("eventtime-fuzz");
    try {
      Path input = dir.resolve("events.ndjson");
      Path more = dir.resolve("more.ndjson");
      int first = Math.min(c.firstFileLines(), c.lines().size());
      write(input, c.lines().subList(0, first), c);
      Path late = dir.resolve("late.ndjson");
      Path rejected = dir.resolve("rejected.ndjson");
      List<String> args = new ArrayList<>(List.of("--from", "file://" + input, "--late-output", "file://" + late,
          "--rejected-output", "file://" + rejected));
      if (first < c.lines().size()) {
        write(more, c.lines().subList(first, c.lines().size()), c);
        args.addAll(List.of("--from", more.toString()));
      }
      args.addAll(c.flags());
      args.add(c.query());
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      int status = Main.run(args.toArray(String[]::new), out, new PrintStream(err, true, StandardCharsets.UTF_8));
      String stdout = out.toString(StandardCharsets.UTF_8);
      String stderr = err.toString(StandardCharsets.UTF_8);

      assertThat(stderr).as("stderr").doesNotContainPattern(STACK_FRAME);
      assertThat(stdout).as("stdout").endsWith("\n").doesNotContain("INTERNAL_ERROR");
      if (HELP_OR_VERSION.matcher(c.query()).lookingAt() && !stdout.startsWith("{")) {
        // a "query" such as -V or -h is the flag it looks like: the version or the help, as text
        assertThat(status).as("exit status of " + stdout).isZero();
        return;
      }
      List<String> lines = stdout.lines().toList();
      List<JsonNode> printed = new ArrayList<>();
      for (String line : lines) {
        printed.add(JSON.readTree(line)); // every line is one JSON document
      }
      JsonNode last = printed.get(printed.size() - 1);
      if (last.has("error")) {
        assertThat(status).as("exit status of " + last).isIn(1, 2);
        return;
      }
      assertThat(status).as("exit status").isZero();
      JsonNode stats = last.get("stats");
      assertThat(stats).as("the last line is the stats").isNotNull();
      long in = stats.get("rows_in").asLong();
      long folded = stats.get("rows_folded").asLong();
      long lateDropped = stats.get("late_dropped").asLong();
      long rejectedRows = stats.get("rows_rejected").asLong();
      assertThat(in).as("rows_in = rows_folded + late_dropped + rows_rejected in " + stats)
          .isEqualTo(folded + lateDropped + rejectedRows);
      assertThat((long) lines.size() - 1).as("rows_out").isEqualTo(stats.get("rows_out").asLong());
      assertThat(lineCount(late)).as("lines of the late file").isEqualTo(lateDropped);
      assertThat(lineCount(rejected)).as("lines of the rejected file").isEqualTo(rejectedRows);
    } finally {
      try (Stream<Path> files = Files.walk(dir)) {
        files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  private static void write(Path file, List<byte[]> lines, Case c) throws IOException {
    try (var out = Files.newOutputStream(file)) {
      for (int i = 0; i < lines.size(); i++) {
        out.write(lines.get(i));
        if (i < lines.size() - 1 || c.lastLineEnded()) {
          out.write(c.lineEnd().getBytes(StandardCharsets.UTF_8));
        }
      }
    }
  }

  private static long lineCount(Path file) throws IOException {
    if (!Files.exists(file)) {
      return 0;
    }
    try (Stream<String> lines = Files.lines(file)) {
      return lines.count();
    }
  }

  private static List<byte[]> bytes(List<String> lines) {
    return lines.stream().map(l -> l.getBytes(StandardCharsets.UTF_8)).toList();
  }

  /** Skips {@link #longRun} unless {@code scripts/fuzz.sh} asked for it. */
  static final class OnlyInLongRuns implements SkipExecutionHook {
    @Override
    public SkipResult shouldBeSkipped(LifecycleContext context) {
      return Boolean.getBoolean("eventtime.fuzz.long") ? SkipResult.doNotSkip()
          : SkipResult.skip("the long fuzz run is scripts/fuzz.sh");
    }
  }

  // ---- the generators ----

  @Provide
  Arbitrary<Case> cases() {
    return Combinators.combine(queries(), lines().list().ofMaxSize(8), flags(), Arbitraries.of("\n", "\r\n", "\n\n"),
        Arbitraries.of(true, true, false), Arbitraries.integers().between(0, 9)).as(Case::new);
  }

  private static final List<String> INTERVALS = List.of("INTERVAL 1 MILLISECOND", "INTERVAL 1 SECOND",
      "INTERVAL '30' SECOND", "INTERVAL '30 SECOND'", "INTERVAL 1 MINUTE", "INTERVAL 2 HOURS", "INTERVAL 1 DAY",
      "INTERVAL 3652425 DAY", "INTERVAL 3652426 DAY", "INTERVAL 0 SECOND", "INTERVAL 106751991168 DAY",
      "INTERVAL 5", "INTERVAL 'x' SECOND");
  private static final List<String> CONSTANTS = List.of("0", "1", "-1", "2.5", "1e400", "-1e400",
      "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
      "99999999999999999999999", "'a'", "''", "'it''s'", "NULL", "TRUE", "FALSE",
      "TIMESTAMP '2026-07-18 10:00:00'", "TIMESTAMP '0000-01-01 00:00:00'", "'+292278995-01-01T00:00:00Z'",
      "TIMESTAMP 'never'");
  private static final List<String> SPLICES = List.of(";", " ; ", " -- x\n", "--", "/*", "*/", "/* c */", "'", "\"",
      "`", "(", ")", ",", " AND ", " OR ", " NOT ", " NULL ", " 9223372036854775808 ", " 1e400 ", " -", "\u0000",
      "\n", "\uD800", "\u00FC", " INTERVAL 106751991168 DAY", " TIMESTAMP '+10000-01-01 00:00:00' ", " DROP TABLE x",
      " GROUP BY ", " HAVING ", " WHERE ", " SELECT ", " FROM events ");

  @Provide
  Arbitrary<String> queries() {
    return Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(2, Arbitraries.of(QUERIES)),
        net.jqwik.api.Tuple.of(4, grammarQueries()),
        net.jqwik.api.Tuple.of(3, mutate(Arbitraries.oneOf(Arbitraries.of(QUERIES), grammarQueries()), SPLICES)),
        net.jqwik.api.Tuple.of(1, mutate(mutate(mutate(grammarQueries(), SPLICES), SPLICES), SPLICES)),
        net.jqwik.api.Tuple.of(1, Arbitraries.strings().withChars("SELCTFROMGBYWHEAVINUPSD(),'*;-/ \n0123456789.")
            .ofMaxLength(60)));
  }

  private Arbitrary<String> grammarQueries() {
    Arbitrary<String> window = Combinators.combine(Arbitraries.of("TUMBLE", "HOP", "SESSION", "tumble", "HOP_START"),
        Arbitraries.of(INTERVALS), Arbitraries.of(INTERVALS), Arbitraries.of("t", "k", "\"t\""))
        .as((f, a, b, col) -> f.startsWith("HOP") ? f + "(" + col + ", " + a + ", " + b + ")" : f + "(" + col + ", " + a + ")");
    Arbitrary<String> aggregate = Arbitraries.of("count(*)", "count(v)", "count(DISTINCT k)", "sum(v)", "min(v)",
        "max(t)", "avg(v)", "sum(k)", "first(v)");
    Arbitrary<String> condition = Combinators.combine(Arbitraries.of("v", "k", "t", "count(*)", "sum(v)", "w", "missing"),
        Arbitraries.of("=", "<>", "<", "<=", ">", ">=", "IN", "BETWEEN", "IS NULL", "IS NOT NULL"),
        Arbitraries.of(CONSTANTS), Arbitraries.of(CONSTANTS))
        .as((col, op, a, b) -> switch (op) {
          case "IN" -> col + " IN (" + a + ", " + b + ")";
          case "BETWEEN" -> col + " BETWEEN " + a + " AND " + b;
          case "IS NULL", "IS NOT NULL" -> col + " " + op;
          default -> col + " " + op + " " + a;
        });
    return Combinators.combine(window, aggregate.list().ofMinSize(0).ofMaxSize(3), Arbitraries.of(true, false),
        condition.optional(), condition.optional(), Arbitraries.of(" AS w", "", " AS k"))
        .as((w, aggs, keyed, where, having, alias) -> {
          StringBuilder q = new StringBuilder("SELECT ");
          if (keyed) {
            q.append("k, ");
          }
          q.append(w).append(alias);
          for (String a : aggs) {
            q.append(", ").append(a);
          }
          q.append(" FROM events");
          where.ifPresent(c -> q.append(" WHERE ").append(c));
          q.append(" GROUP BY ").append(keyed ? "k, " : "").append(w);
          having.ifPresent(c -> q.append(" HAVING ").append(c));
          return q.toString();
        });
  }

  private static final List<String> TIMES = List.of("2026-07-18 10:00:00", "2026-07-18 10:00:30.250",
      "2026-07-18T10:01:00Z", "2026-07-18 09:59:00", "2026-07-18 10:10:00", "2026-07-18T12:00:00+02:00",
      "0001-01-01 00:00:00", "9999-12-31 23:59:59.999", "0000-12-31 23:59:59", "+10000-01-01T00:00:00Z",
      "+292278995-01-01T00:00:00Z", "-0001-01-01T00:00:00Z", "2026-02-30 10:00:00", "2026-07-18", "not a time", "");
  private static final List<String> VALUES = List.of("1", "-1", "0", "2.5", "0.5", "-0.0", "1e400", "1E+2",
      "9223372036854775807", "-9223372036854775808", "9223372036854775808", "\"x\"", "null", "true", "[1]",
      "{\"a\":1}", "\"2026-07-18 10:00:00\"");
  private static final List<String> LINE_SPLICES = List.of("\"", "{", "}", ",", ":", "\\", "\\u", "\\ud800", "\r",
      "\u0000", "\uFEFF", "\u00FC", "1e400", "-", "null", "[", "]", " ");

  Arbitrary<byte[]> lines() {
    Arbitrary<String> value = Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(3, Arbitraries.of(VALUES)),
        net.jqwik.api.Tuple.of(1, Arbitraries.longs().map(String::valueOf)),
        net.jqwik.api.Tuple.of(1, Arbitraries.doubles().map(String::valueOf).filter(d -> !d.contains("N")
            && !d.contains("I"))));
    Arbitrary<String> time = Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(6, Arbitraries.of(TIMES).map(t -> "\"" + t + "\"")),
        net.jqwik.api.Tuple.of(1, value));
    Arbitrary<String> object = Combinators.combine(time.optional(), Arbitraries.of("\"a\"", "\"b\"", "1", "1.0",
        "null", "{\"x\":1}", "\"{\\\"x\\\":1}\"", "[\"a\"]").optional(), value.optional(), Arbitraries.of(true, false))
        .as((t, k, v, twice) -> {
          List<String> fields = new ArrayList<>();
          t.ifPresent(x -> fields.add("\"t\":" + x));
          k.ifPresent(x -> fields.add("\"k\":" + x));
          v.ifPresent(x -> fields.add("\"v\":" + x));
          if (twice && t.isPresent()) {
            fields.add("\"t\":\"2026-07-18 10:20:00\"");
          }
          return "{" + String.join(",", fields) + "}";
        });
    Arbitrary<String> text = Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(6, object),
        net.jqwik.api.Tuple.of(1, Arbitraries.of(LINES)),
        net.jqwik.api.Tuple.of(2, mutate(Arbitraries.oneOf(object, Arbitraries.of(LINES)), LINE_SPLICES)),
        net.jqwik.api.Tuple.of(1, mutate(mutate(object, LINE_SPLICES), LINE_SPLICES)));
    return Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(9, text.map(s -> s.getBytes(StandardCharsets.UTF_8))),
        net.jqwik.api.Tuple.of(1, Arbitraries.bytes().array(byte[].class).ofMaxSize(12)
            .filter(b -> new String(b, StandardCharsets.ISO_8859_1).indexOf('\n') < 0)));
  }

  Arbitrary<List<String>> flags() {
    Arbitrary<List<String>> one = Arbitraries.oneOf(
        Arbitraries.of("0 SECOND", "1 MINUTE", "5 MINUTE", "PT5M", "1500ms", "3652425 DAYS", "3652426 DAYS",
            "106751991167 DAY", "9223372036854775807 ms", "-1 ms", "5", "x").map(d -> List.of("--watermark-delay", d)),
        Arbitraries.of("window", "event", "WINDOW", "other").map(p -> List.of("--late-policy", p)),
        Arbitraries.of("1", "2", "1000", "0", "-1", "x", "99999999999").map(n -> List.of("--infer-rows", n)),
        Arbitraries.of("events", "other", "").map(t -> List.of("--table", t)),
        Arbitraries.of("", "file://", "/", "missing.ndjson", "http://example.com/x.ndjson", "file://%zz")
            .map(f -> List.of("--from", f)));
    return Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(3, Arbitraries.just(List.<String>of())),
        net.jqwik.api.Tuple.of(1, Arbitraries.of(FLAGS)),
        net.jqwik.api.Tuple.of(3, one.list().ofMaxSize(3).map(l -> l.stream().flatMap(List::stream).toList())));
  }

  /** Mutations of a text: a splice inserted, a stretch deleted or repeated, or the text cut short. */
  private static Arbitrary<String> mutate(Arbitrary<String> texts, List<String> splices) {
    return Combinators.combine(texts, Arbitraries.integers().between(0, 3), Arbitraries.integers().between(0, 10_000),
        Arbitraries.integers().between(0, 12), Arbitraries.of(splices))
        .as((s, op, at, length, splice) -> {
          int from = at % (s.length() + 1);
          int to = Math.min(s.length(), from + length);
          return switch (op) {
            case 0 -> s.substring(0, from) + splice + s.substring(from);
            case 1 -> s.substring(0, from) + s.substring(to);
            case 2 -> s.substring(0, to) + s.substring(from);
            default -> s.substring(0, from);
          };
        });
  }
}
