package io.eventtime.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.cli.sql.SqlPlanner;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The refusals beyond the seed page's: each one line with its code, exit status 1, and no rows. */
class RefusalsTest {
  @TempDir
  Path dir;
  String from;

  @BeforeEach
  void events() {
    from = "file://" + Cli.write(dir, "events.ndjson", SeedPage.EVENTS);
  }

  private void refused(String sql, String code, String message) {
    Cli run = Cli.run("--from", from, sql);
    assertThat(run.out()).containsExactly(Cli.error(code, message));
    assertThat(run.status()).isEqualTo(1);
  }

  private static final String GROUP = " GROUP BY TUMBLE(event_time, INTERVAL 1 MINUTE)";

  @Test
  void unknownColumn() {
    refused("SELECT merchnt, count(*) FROM events GROUP BY merchnt, TUMBLE(event_time, INTERVAL 1 MINUTE)",
        "UNKNOWN_COLUMN", "unknown column merchnt: the rows of events have the columns merchant, amount, event_time"
            + " (inferred from the first 5 rows of " + dir.resolve("events.ndjson") + ")");
  }

  @Test
  void unknownTimeColumn() {
    refused("SELECT count(*) FROM events GROUP BY TUMBLE(ts, INTERVAL 1 MINUTE)", "UNKNOWN_COLUMN",
        "unknown column ts: the rows of events have the columns merchant, amount, event_time (inferred from the first"
            + " 5 rows of " + dir.resolve("events.ndjson") + ")");
  }

  @Test
  void unknownTable() {
    refused("SELECT count(*) FROM orders" + GROUP, "UNKNOWN_TABLE", "unknown table orders: the source is the table"
        + " events (its file's name without the extension), so write FROM events, or name the source with --table orders");
  }

  @Test
  void syntaxError() {
    Cli run = Cli.run("--from", from, "SELECT count(*) FROM events WHERE GROUP BY x");
    assertThat(run.out()).singleElement().asString()
        .startsWith("{\"error\":{\"code\":\"SYNTAX_ERROR\",\"message\":\"the SQL does not parse: Encountered unexpected"
            + " token: \\\"BY\\\" \\\"BY\\\" at line 1, column 41");
    assertThat(run.status()).isEqualTo(1);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "ORDER BY | SELECT count(*) AS n FROM events" + GROUP + " ORDER BY n"
          + " | ORDER BY is not supported (rows come out in the order their windows close: by window end, then start, then keys)",
      "LIMIT | SELECT count(*) FROM events" + GROUP + " LIMIT 3 | LIMIT, OFFSET, FETCH and TOP are not supported",
      "join | SELECT count(*) FROM events JOIN other ON a = b" + GROUP + " | joins are not supported",
      "UNION | SELECT count(*) FROM events" + GROUP + " UNION SELECT count(*) FROM events" + GROUP
          + " | UNION, INTERSECT and EXCEPT are not supported",
      "INSERT | INSERT INTO events VALUES (1) | INSERT statements are not supported",
      "no GROUP BY | SELECT count(*) FROM events | a query without GROUP BY is not supported: the command runs windowed"
          + " aggregations, so GROUP BY the window call (and any keys), e.g. GROUP BY merchant, TUMBLE(ts, INTERVAL 1 MINUTE)",
      "no window | SELECT merchant, count(*) FROM events GROUP BY merchant | a GROUP BY without a window call is not"
          + " supported: add TUMBLE(ts, size), HOP(ts, slide, size) or SESSION(ts, gap) to it",
      "SELECT * | SELECT * FROM events" + GROUP + " | SELECT * is not supported: name the group keys, the window call"
          + " and the aggregates",
      "arithmetic | SELECT sum(amount) / count(*) FROM events" + GROUP
          + " | the expression sum(amount) / count(*) in SELECT is not supported",
      "other function | SELECT upper(merchant) FROM events" + GROUP + " | the function upper is not supported",
      "aggregate of an expression | SELECT sum(amount * 2) FROM events" + GROUP
          + " | sum(amount * 2) is not supported: an aggregate takes one column, e.g. sum(amount)",
      "DISTINCT | SELECT DISTINCT merchant FROM events GROUP BY merchant, TUMBLE(event_time, INTERVAL 1 MINUTE)"
          + " | SELECT DISTINCT is not supported",
      "two windows | SELECT count(*) FROM events GROUP BY TUMBLE(event_time, INTERVAL 1 MINUTE),"
          + " TUMBLE(event_time, INTERVAL 2 MINUTE) | grouping by two window calls (TUMBLE(event_time, INTERVAL 1 MINUTE)"
          + " and TUMBLE(event_time, INTERVAL 2 MINUTE)) is not supported: GROUP BY one",
      "WEEK | SELECT count(*) FROM events GROUP BY TUMBLE(event_time, INTERVAL 1 WEEK) | the interval INTERVAL 1 WEEK"
          + " is not supported: write a whole number and a unit from MILLISECOND to DAY (singular or plural), e.g."
          + " INTERVAL 1 MINUTE, INTERVAL '30 SECOND' or INTERVAL '30' SECOND",
  })
  void notSupported(String name, String sql, String message) {
    Cli run = Cli.run("--from", from, sql);
    String expected = message.startsWith("the interval") ? message : message + ": " + SqlPlanner.SUPPORTED;
    assertThat(run.out()).containsExactly(Cli.error("NOT_SUPPORTED", expected));
    assertThat(run.status()).isEqualTo(1);
  }

  @Test
  void stringIntervalWithoutInterval() {
    refused("SELECT count(*) FROM events GROUP BY TUMBLE(event_time, '1 MINUTE')", "NOT_SUPPORTED",
        "the window interval must be an INTERVAL literal with a unit: write INTERVAL '1 MINUTE' (or"
            + " MILLISECOND/SECOND/HOUR/DAY), not '1 MINUTE'");
  }

  @Test
  void bareNumberInsideInterval() {
    refused("SELECT count(*) FROM events GROUP BY TUMBLE(event_time, INTERVAL '60')", "NOT_SUPPORTED",
        SqlPlanner.BARE_NUMBER);
  }

  @Test
  void arityOfTheEndForms() {
    refused("SELECT TUMBLE_END(event_time) FROM events" + GROUP, "NOT_SUPPORTED",
        "TUMBLE_END takes a timestamp column and one INTERVAL: TUMBLE_END(ts, INTERVAL '1 MINUTE')");
  }

  @Test
  void zeroInterval() {
    refused("SELECT count(*) FROM events GROUP BY TUMBLE(event_time, INTERVAL 0 SECOND)", "INVALID_QUERY",
        "in TUMBLE(event_time, INTERVAL 0 SECOND): the tumbling window size must be positive, got 0 ms: give a duration"
            + " greater than zero (e.g. 1 MINUTE)");
  }

  @Test
  void slideLargerThanSize() {
    Cli run = Cli.run("--from", from, "SELECT count(*) FROM events GROUP BY HOP(event_time, INTERVAL 2 MINUTE,"
        + " INTERVAL 1 MINUTE)");
    assertThat(run.last()).startsWith("{\"error\":{\"code\":\"INVALID_QUERY\",\"message\":\"in HOP(event_time,"
        + " INTERVAL 2 MINUTE, INTERVAL 1 MINUTE): the hopping window slide (120000 ms) is larger than its size");
  }

  @Test
  void selectedColumnNotGrouped() {
    refused("SELECT merchant, count(*) FROM events" + GROUP, "INVALID_QUERY", "the column merchant is selected but"
        + " neither grouped nor aggregated: add it to GROUP BY, or select an aggregate of it such as max(merchant)");
  }

  @Test
  void windowInSelectDiffersFromGroupBy() {
    refused("SELECT TUMBLE(event_time, INTERVAL 2 MINUTE), count(*) FROM events" + GROUP, "INVALID_QUERY",
        "the window call TUMBLE(event_time, INTERVAL 2 MINUTE) in SELECT is not the one the query groups by,"
            + " TUMBLE(event_time, INTERVAL 1 MINUTE): use the same function, column and intervals");
  }

  @Test
  void windowCallAndAliasInWhere() {
    refused("SELECT TUMBLE(event_time, INTERVAL 1 MINUTE) AS w, count(*) FROM events WHERE w > '2026-07-18 10:00:00'"
        + GROUP, "INVALID_QUERY", "w is an output column, not an input column, so it cannot appear in WHERE: filter the"
        + " timestamp column event_time instead (e.g. WHERE event_time >= TIMESTAMP '2026-07-18 10:00:00'), or filter"
        + " an aggregate in HAVING");
    refused("SELECT count(*) FROM events WHERE TUMBLE(event_time, INTERVAL 1 MINUTE) > '2026-07-18 10:00:00'" + GROUP,
        "INVALID_QUERY", "TUMBLE(event_time, INTERVAL 1 MINUTE) is an output column, not an input column, so it"
        + " cannot appear in WHERE: filter the timestamp column event_time instead (e.g. WHERE event_time >="
        + " TIMESTAMP '2026-07-18 10:00:00'), or filter an aggregate in HAVING");
  }

  @Test
  void aggregateInWhere() {
    refused("SELECT count(*) FROM events WHERE count(*) > 1" + GROUP, "INVALID_QUERY",
        "the aggregate count(*) cannot appear in WHERE, which filters input rows: filter aggregates in HAVING");
  }

  @Test
  void havingOnAColumnThatIsNotAKey() {
    refused("SELECT count(*) FROM events" + GROUP + " HAVING amount > 1", "INVALID_QUERY", "HAVING filters result"
        + " rows, which have the group keys, the window and the aggregates; amount is none of them: filter input rows"
        + " on it in WHERE, or use an aggregate of it such as max(amount)");
  }

  @Test
  void typeMismatches() {
    refused("SELECT sum(merchant) FROM events" + GROUP, "TYPE_MISMATCH", "the field 'merchant' of sum(merchant) is of"
        + " type VARCHAR, which is not a number: sum takes a numeric field; use count, min or max for that field,"
        + " or sum a numeric one");
    refused("SELECT count(*) FROM events WHERE amount = 'acme'" + GROUP, "TYPE_MISMATCH",
        "cannot compare amount (BIGINT) with 'acme' (VARCHAR): compare values of one type");
    refused("SELECT count(*) FROM events WHERE event_time > 'yesterday'" + GROUP, "TYPE_MISMATCH",
        "cannot compare event_time (TIMESTAMP) with 'yesterday': 'yesterday' is not a time in ISO-8601 form"
            + " (e.g. 2026-07-18 10:00:03 or 2026-07-18T10:00:03Z)");
  }

  @Test
  void epochNumbersAreNotATimestamp() {
    from = "file://" + Cli.write(dir, "events.ndjson", "{\"t\":1784368803000}");
    refused("SELECT count(*) FROM events GROUP BY SESSION(t, INTERVAL 1 MINUTE)", "TYPE_MISMATCH",
        "the time column t of SESSION is BIGINT, not a TIMESTAMP: give SESSION a column whose values are date-times"
            + " such as \"2026-07-18 10:00:03\" or \"2026-07-18T10:00:03Z\"");
  }

  @Test
  void duplicateOutputNames() {
    refused("SELECT count(*) AS n, sum(amount) AS n FROM events" + GROUP, "INVALID_QUERY",
        "the output name 'n' is used twice: give each output column its own name");
    refused("SELECT count(*) AS total, sum(amount) AS Total FROM events" + GROUP, "INVALID_QUERY",
        "the output name 'Total' is used twice (as 'total' and 'Total': names are compared ignoring case): give each"
            + " output column its own name");
  }
}
