package io.eventtime.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 14, items 8, 10, 11 and 12: times and durations at the edges of the supported range, and
 * queries the planner crashed on. Each ends in its exact error line or its exact rows.
 */
class LimitsTest {
  private static final String RANGE = " is outside the supported range 0001-01-01 00:00:00 to 9999-12-31 23:59:59.999"
      + " (UTC): give a time of the years 0001 to 9999";
  private static final String COUNT_PER_DAY = "SELECT TUMBLE(t, INTERVAL 1 DAY) AS w, count(*) AS n FROM events"
      + " GROUP BY TUMBLE(t, INTERVAL 1 DAY)";

  @TempDir
  Path dir;
  String from;

  @BeforeEach
  void events() {
    from = "file://" + Cli.write(dir, "events.ndjson",
        "{\"t\":\"2026-07-18 10:00:00\",\"v\":1}",
        "{\"t\":\"2026-07-18 10:00:30\",\"v\":2}");
  }

  private void refused(String sql, String code, String message) {
    Cli run = Cli.run("--from", from, sql);
    assertThat(run.out()).containsExactly(Cli.error(code, message));
    assertThat(run.status()).isEqualTo(1);
    assertThat(run.err()).isEmpty();
  }

  @Test
  void aTimeOutOfRangeIsARejectedRowNotACrash() throws IOException {
    Path f = Cli.write(dir, "events.ndjson",
        "{\"t\":\"0001-01-01 00:00:00\"}",
        "{\"t\":\"+292278995-01-01T00:00:00Z\"}",
        "{\"t\":\"0000-12-31 23:59:59\"}",
        "{\"t\":\"2026-07-18 10:00:00\"}",
        "{\"t\":\"9999-12-31 23:59:59.999\"}");
    Path rejected = dir.resolve("rejected.ndjson");
    Cli run = Cli.run("--from", "file://" + f, "--rejected-output", "file://" + rejected, COUNT_PER_DAY);
    assertThat(run.out()).containsExactly(
        "{\"w\":\"0001-01-01 00:00:00\",\"n\":1}",
        "{\"w\":\"2026-07-18 00:00:00\",\"n\":1}",
        "{\"w\":\"9999-12-31 00:00:00\",\"n\":1}",
        Cli.stats(5, 3, 0, 3, 3, 2));
    assertThat(run.status()).isZero();
    assertThat(Files.readAllLines(rejected)).containsExactly(
        "{\"source\":\"" + f + "\",\"line\":2,\"field\":\"t\",\"reason\":\"'+292278995-01-01T00:00:00Z'" + RANGE
            + "\",\"row\":{\"t\":\"+292278995-01-01T00:00:00Z\"}}",
        "{\"source\":\"" + f + "\",\"line\":3,\"field\":\"t\",\"reason\":\"'0000-12-31 23:59:59'" + RANGE
            + "\",\"row\":{\"t\":\"0000-12-31 23:59:59\"}}");
  }

  @Test
  void theDirectRunnerRejectsTheSameTimesAndComputesTheSameEdges() {
    Path f = Cli.write(dir, "events.ndjson",
        "{\"t\":\"0001-01-01 00:00:00\"}",
        "{\"t\":\"+292278995-01-01T00:00:00Z\"}",
        "{\"t\":\"0000-12-31 23:59:59\"}",
        "{\"t\":\"2026-07-18 10:00:00\"}",
        "{\"t\":\"9999-12-31 23:59:59.999\"}");
    assertThat(RunnerAgreement.assertSameAsLocal("direct", f, COUNT_PER_DAY, java.util.List.of())).containsExactly(
        "{\"w\":\"0001-01-01 00:00:00\",\"n\":1}",
        "{\"w\":\"2026-07-18 00:00:00\",\"n\":1}",
        "{\"w\":\"9999-12-31 00:00:00\",\"n\":1}",
        Cli.stats(5, 3, 0, 3, 3, 2));
    assertThat(RunnerAgreement.assertSameAsLocal("direct", f, "SELECT TUMBLE(t, INTERVAL 7 DAY) AS w, count(*) AS n"
        + " FROM events GROUP BY TUMBLE(t, INTERVAL 7 DAY)", java.util.List.of("--watermark-delay", "3652425 DAYS")))
        .containsExactly(
            "{\"w\":\"0000-12-28 00:00:00\",\"n\":1}",
            "{\"w\":\"2026-07-16 00:00:00\",\"n\":1}",
            "{\"w\":\"9999-12-30 00:00:00\",\"n\":1}",
            Cli.stats(5, 3, 0, 3, 3, 2));
  }

  @Test
  void theLatestTimeIsOnTimeAndWindowEndsPastTheRangePrintAsTheirYear() {
    Path f = Cli.write(dir, "events.ndjson",
        "{\"t\":\"9999-12-31 23:59:59.999\"}",
        "{\"t\":\"0001-01-01 00:00:00\"}");
    Cli run = Cli.run("--from", "file://" + f, "--watermark-delay", "3652425 DAYS",
        "SELECT TUMBLE(t, INTERVAL 7 DAY) AS w, TUMBLE_END(t, INTERVAL 7 DAY) AS e, count(*) AS n FROM events"
            + " GROUP BY TUMBLE(t, INTERVAL 7 DAY)");
    // a week's windows start on Thursdays (1970-01-01 was one): the first starts in the year 1 BC
    assertThat(run.out()).containsExactly(
        "{\"w\":\"0000-12-28 00:00:00\",\"e\":\"0001-01-04 00:00:00\",\"n\":1}",
        "{\"w\":\"9999-12-30 00:00:00\",\"e\":\"+10000-01-06 00:00:00\",\"n\":1}",
        Cli.stats(2, 2, 0, 2, 2, 0));
  }

  @Test
  void aDelayOrIntervalLongerThanTheLimitIsRefusedNamingIt() {
    Cli run = Cli.run("--from", from, "--watermark-delay", "106751991167 DAY", COUNT_PER_DAY);
    assertThat(run.out()).containsExactly(Cli.error("INVALID_ARGUMENT",
        "--watermark-delay 106751991167 DAY is too long: give at most 3652425 DAYS (10,000 years)"));
    assertThat(run.status()).isEqualTo(2);
    refused("SELECT count(*) AS n FROM events GROUP BY SESSION(t, INTERVAL 106751991168 DAY)", "INVALID_QUERY",
        "the interval INTERVAL 106751991168 DAY is too long: give at most 3652425 DAYS (10,000 years)");
    refused("SELECT count(*) AS n FROM events GROUP BY TUMBLE(t, INTERVAL '3652426' DAY)", "INVALID_QUERY",
        "the interval INTERVAL '3652426' DAY is too long: give at most 3652425 DAYS (10,000 years)");
  }

  @Test
  void aHopOfMillionsOfWindowsPerRowIsRefusedNamingTheLimit() {
    refused("SELECT count(*) AS n FROM events GROUP BY HOP(t, INTERVAL 1 MILLISECOND, INTERVAL 100000 DAY)",
        "INVALID_QUERY", "in HOP(t, INTERVAL 1 MILLISECOND, INTERVAL 100000 DAY): the hopping window size"
            + " (8640000000000 ms) is 8640000000000 times its slide (1 ms), so each row would land in 8640000000000"
            + " windows; at most 10000 are supported: make the slide at least the size / 10000 (864000000 ms), or the"
            + " size smaller");
    refused("SELECT count(*) AS n FROM events GROUP BY HOP(t, INTERVAL 1 SECOND, INTERVAL 1 DAY)",
        "INVALID_QUERY", "in HOP(t, INTERVAL 1 SECOND, INTERVAL 1 DAY): the hopping window size (86400000 ms) is 86400"
            + " times its slide (1000 ms), so each row would land in 86400 windows; at most 10000 are supported: make"
            + " the slide at least the size / 10000 (8640 ms), or the size smaller");
    Cli run = Cli.run("--from", from, "SELECT count(*) AS n FROM events GROUP BY HOP(t, INTERVAL 9 SECOND, INTERVAL 1"
        + " DAY)");
    // 30 s apart, the two rows share all but 3 of their 9600 windows
    assertThat(run.out()).hasSize(9604).last().isEqualTo(Cli.stats(2, 9603, 0, 9603, 2, 0));
  }

  @Test
  void anEmptyQueryIsInvalid() {
    String message = "the query is empty (nothing but blanks and comments): give one SELECT, e.g. SELECT count(*)"
        + " AS n FROM events GROUP BY TUMBLE(event_time, INTERVAL 1 MINUTE)";
    for (String sql : new String[] {"", "   ", "\n\t", "-- nothing here", "/* nor here */", "-- a\n/* b */\n"}) {
      refused(sql, "INVALID_QUERY", message);
    }
  }

  @Test
  void aQueryMayStartWithOrHoldComments() {
    for (String sql : new String[] {"-- per day\n" + COUNT_PER_DAY, "--per day\n" + COUNT_PER_DAY,
        "/* per day */ " + COUNT_PER_DAY, COUNT_PER_DAY + " -- the end", COUNT_PER_DAY + ";", COUNT_PER_DAY + " ; -- done",
        COUNT_PER_DAY.replace(" FROM", " /* from */ FROM\n-- a line\n")}) {
      Cli run = Cli.run("--from", from, sql);
      assertThat(run.out()).as(sql).containsExactly("{\"w\":\"2026-07-18 00:00:00\",\"n\":2}", Cli.stats(2, 1, 0, 1, 2, 0));
    }
    Cli flagAfter = Cli.run("-- per day\n" + COUNT_PER_DAY, "--from", from);
    assertThat(flagAfter.out()).containsExactly("{\"w\":\"2026-07-18 00:00:00\",\"n\":2}", Cli.stats(2, 1, 0, 1, 2, 0));
  }

  @Test
  void textAfterTheSemicolonIsRefusedNamingIt() {
    refused(COUNT_PER_DAY + "; DROP TABLE events", "INVALID_QUERY", "the query is one SELECT, but text follows its"
        + " end at line 1, column 102: 'DROP TABLE events': remove it (one query per run)");
    refused(COUNT_PER_DAY + ";\n  SELECT 1;", "INVALID_QUERY", "the query is one SELECT, but text follows its end at"
        + " line 2, column 3: 'SELECT 1;': remove it (one query per run)");
    refused(COUNT_PER_DAY + "; 'unterminated", "INVALID_QUERY", "the query is one SELECT, but text follows its end"
        + " at line 1, column 101: ''unterminated': remove it (one query per run)");
    refused(COUNT_PER_DAY + ";\r\t\rDROP it", "INVALID_QUERY", "the query is one SELECT, but text follows its end at"
        + " line 3, column 1: 'DROP it': remove it (one query per run)");
    // a character the parser has no token for: quoted from the end of the statement (the output escapes it)
    Cli emoji = Cli.run("--from", from, COUNT_PER_DAY + "; \uD83D\uDE00 x");
    assertThat(emoji.out()).containsExactly("{\"error\":{\"code\":\"INVALID_QUERY\",\"message\":\"the query is one"
        + " SELECT, but text follows its end at line 1, column 101: '\\uD83D\\uDE00 x': remove it (one query per run)\"}}");
    refused(COUNT_PER_DAY + ";;", "INVALID_QUERY", "the query is one SELECT, but text follows its end at line 1,"
        + " column 101: ';': remove it (one query per run)");
  }

  @Test
  void wholeNumbersBeyond64BitsAreInvalidAndTheEdgesAreRead() {
    String where = "SELECT TUMBLE(t, INTERVAL 1 DAY) AS w, count(*) AS n FROM events WHERE v %s GROUP BY"
        + " TUMBLE(t, INTERVAL 1 DAY)";
    String fit = " does not fit a 64-bit whole number (BIGINT, -9223372036854775808 to 9223372036854775807): give a"
        + " smaller one, or write it with a decimal point to compare it as a DOUBLE";
    refused(String.format(where, "< 9223372036854775808"), "INVALID_QUERY", "the number 9223372036854775808" + fit);
    refused(String.format(where, "> -9223372036854775809"), "INVALID_QUERY", "the number -9223372036854775809" + fit);
    refused(String.format(where, "IN (1, 99999999999999999999999)"), "INVALID_QUERY",
        "the number 99999999999999999999999" + fit);
    refused("SELECT count(*) AS n FROM events GROUP BY TUMBLE(t, INTERVAL 1 DAY) HAVING count(*) < 9223372036854775808",
        "INVALID_QUERY", "the number 9223372036854775808" + fit);
    refused(String.format(where, "< 1e400"), "INVALID_QUERY",
        "the number 1e400 is beyond the range of a DOUBLE (at most about 1.8E308 either way): give a smaller one");
    for (String edge : new String[] {"< 9223372036854775807", "> -9223372036854775808", "BETWEEN -9223372036854775808"
        + " AND 9223372036854775807"}) {
      Cli run = Cli.run("--from", from, String.format(where, edge));
      assertThat(run.out()).as(edge).containsExactly("{\"w\":\"2026-07-18 00:00:00\",\"n\":2}",
          Cli.stats(2, 1, 0, 1, 2, 0));
    }
  }
}
