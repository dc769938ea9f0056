package io.eventtime.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The SQL the command takes beyond the seed page: intervals, aggregates, window_end, WHERE, HAVING. */
class SqlSubsetTest {
  @TempDir
  Path dir;
  String from;

  @BeforeEach
  void events() {
    from = "file://" + Cli.write(dir, "events.ndjson", SeedPage.EVENTS);
  }

  private Cli run(String sql) {
    Cli run = Cli.run("--from", from, sql);
    assertThat(run.status()).as(String.join("\n", run.out())).isZero();
    return run;
  }

  @ParameterizedTest
  @ValueSource(strings = {"INTERVAL 1 MINUTE", "INTERVAL 1 MINUTES", "INTERVAL '1 MINUTE'", "INTERVAL '1' MINUTE",
      "INTERVAL '60' SECOND", "INTERVAL 60 SECONDS", "INTERVAL '60000 MILLISECONDS'", "INTERVAL 60000 MILLISECOND",
      "interval '1 minute'"})
  void everyIntervalFormMeansTheSameWindows(String interval) {
    Cli run = run("SELECT TUMBLE(event_time, " + interval + ") AS w, count(*) AS n FROM events"
        + " GROUP BY TUMBLE(event_time, " + interval + ")");
    assertThat(run.rows()).containsExactly(
        "{\"w\":\"2026-07-18 10:00:00\",\"n\":2}",
        "{\"w\":\"2026-07-18 10:01:00\",\"n\":2}",
        "{\"w\":\"2026-07-18 10:02:00\",\"n\":1}");
  }

  @Test
  void hoursAndDays() {
    assertThat(run("SELECT TUMBLE(event_time, INTERVAL 1 HOUR) AS w, count(*) AS n FROM events"
        + " GROUP BY TUMBLE(event_time, INTERVAL 1 HOUR)").rows())
        .containsExactly("{\"w\":\"2026-07-18 10:00:00\",\"n\":5}");
    assertThat(run("SELECT TUMBLE(event_time, INTERVAL '2' DAYS) AS w, count(*) AS n FROM events"
        + " GROUP BY TUMBLE(event_time, INTERVAL '2' DAYS)").rows())
        .containsExactly("{\"w\":\"2026-07-18 00:00:00\",\"n\":5}");
  }

  @Test
  void everyAggregateWithAndWithoutAliases() {
    Cli run = run("SELECT merchant, TUMBLE(event_time, INTERVAL 5 MINUTE), count(*), count(amount) AS c,"
        + " count(DISTINCT amount), sum(amount), min(amount) AS lo, max(amount), avg(amount) AS mean, min(event_time)"
        + " FROM events GROUP BY merchant, TUMBLE(event_time, INTERVAL 5 MINUTE)");
    assertThat(run.out()).containsExactly(
        "{\"merchant\":\"acme\",\"window_start\":\"2026-07-18 10:00:00\",\"count(*)\":3,\"c\":3,"
            + "\"count(DISTINCT amount)\":3,\"sum(amount)\":1340,\"lo\":110,\"max(amount)\":980,\"mean\":446.6666666666667,"
            + "\"min(event_time)\":\"2026-07-18 10:00:03\"}",
        "{\"merchant\":\"globex\",\"window_start\":\"2026-07-18 10:00:00\",\"count(*)\":2,\"c\":2,"
            + "\"count(DISTINCT amount)\":2,\"sum(amount)\":49,\"lo\":7,\"max(amount)\":42,\"mean\":24.5,"
            + "\"min(event_time)\":\"2026-07-18 10:00:07\"}",
        Cli.stats(5, 2, 0, 1, 5, 0));
  }

  @Test
  void windowEndFormsAndColumnsInSelectOrder() {
    Cli run = run("SELECT count(*) AS n, HOP_END(event_time, INTERVAL '30 SECOND', INTERVAL '1 MINUTE') AS until,"
        + " merchant, HOP_START(event_time, INTERVAL '30 SECOND', INTERVAL '1 MINUTE') AS since FROM events"
        + " WHERE merchant = 'globex'"
        + " GROUP BY merchant, HOP(event_time, INTERVAL '30 SECOND', INTERVAL '1 MINUTE')");
    assertThat(run.rows()).containsExactly(
        "{\"n\":1,\"until\":\"2026-07-18 10:00:30\",\"merchant\":\"globex\",\"since\":\"2026-07-18 09:59:30\"}",
        "{\"n\":1,\"until\":\"2026-07-18 10:01:00\",\"merchant\":\"globex\",\"since\":\"2026-07-18 10:00:00\"}",
        "{\"n\":1,\"until\":\"2026-07-18 10:02:30\",\"merchant\":\"globex\",\"since\":\"2026-07-18 10:01:30\"}",
        "{\"n\":1,\"until\":\"2026-07-18 10:03:00\",\"merchant\":\"globex\",\"since\":\"2026-07-18 10:02:00\"}");
  }

  @Test
  void tumbleEndUnaliasedIsWindowEnd() {
    Cli run = run("SELECT TUMBLE_END(event_time, INTERVAL 1 MINUTE), count(*) AS n FROM events"
        + " GROUP BY TUMBLE(event_time, INTERVAL '60' SECOND)");
    assertThat(run.rows()).containsExactly(
        "{\"window_end\":\"2026-07-18 10:01:00\",\"n\":2}",
        "{\"window_end\":\"2026-07-18 10:02:00\",\"n\":2}",
        "{\"window_end\":\"2026-07-18 10:03:00\",\"n\":1}");
  }

  /** WHERE filters rows before the windows: rows it leaves out are not counted in rows_in. */
  @Test
  void whereOnInputColumns() {
    Cli run = run("SELECT merchant, TUMBLE(event_time, INTERVAL 1 MINUTE) AS w, count(*) AS n FROM events"
        + " WHERE (amount >= 42 AND merchant IN ('acme', 'globex') AND NOT merchant = 'initech')"
        + " AND event_time < TIMESTAMP '2026-07-18 10:01:30' AND amount BETWEEN 1 AND 1000 AND amount IS NOT NULL"
        + " GROUP BY merchant, TUMBLE(event_time, INTERVAL 1 MINUTE)");
    assertThat(run.out()).containsExactly(
        "{\"merchant\":\"acme\",\"w\":\"2026-07-18 10:00:00\",\"n\":1}",
        "{\"merchant\":\"globex\",\"w\":\"2026-07-18 10:00:00\",\"n\":1}",
        "{\"merchant\":\"acme\",\"w\":\"2026-07-18 10:01:00\",\"n\":1}",
        Cli.stats(3, 3, 0, 2, 3, 0));
  }

  @Test
  void whereWithAStringTimeAndOr() {
    Cli run = run("SELECT TUMBLE(event_time, INTERVAL 1 MINUTE) AS w, count(*) AS n FROM events"
        + " WHERE event_time >= '2026-07-18 10:01:00' OR amount = 250 GROUP BY TUMBLE(event_time, INTERVAL 1 MINUTE)");
    assertThat(run.rows()).containsExactly(
        "{\"w\":\"2026-07-18 10:00:00\",\"n\":1}",
        "{\"w\":\"2026-07-18 10:01:00\",\"n\":2}",
        "{\"w\":\"2026-07-18 10:02:00\",\"n\":1}");
  }

  /** HAVING leaves windows out of the output; rows_out and windows_closed count what was printed. */
  @Test
  void havingOnAggregatesAndAliases() {
    Cli run = run("SELECT merchant, TUMBLE(event_time, INTERVAL 1 MINUTE) AS w, sum(amount) AS total FROM events"
        + " GROUP BY merchant, TUMBLE(event_time, INTERVAL 1 MINUTE) HAVING count(*) >= 1 AND total > 100");
    assertThat(run.out()).containsExactly(
        "{\"merchant\":\"acme\",\"w\":\"2026-07-18 10:00:00\",\"total\":250}",
        "{\"merchant\":\"acme\",\"w\":\"2026-07-18 10:01:00\",\"total\":1090}",
        Cli.stats(5, 2, 0, 2, 5, 0));
  }

  @Test
  void havingOnAnAggregateNotSelected() {
    Cli run = run("SELECT merchant, TUMBLE(event_time, INTERVAL 1 MINUTE) AS w FROM events"
        + " GROUP BY merchant, TUMBLE(event_time, INTERVAL 1 MINUTE) HAVING count(*) = 2 OR merchant = 'globex'"
        + " AND w > '2026-07-18 10:01:00'");
    assertThat(run.rows()).containsExactly(
        "{\"merchant\":\"acme\",\"w\":\"2026-07-18 10:01:00\"}",
        "{\"merchant\":\"globex\",\"w\":\"2026-07-18 10:02:00\"}");
  }

  @Test
  void noKeysAndAKeyNotSelected() {
    assertThat(run("SELECT count(*) AS n FROM events GROUP BY merchant, TUMBLE(event_time, INTERVAL 1 MINUTE)").rows())
        .containsExactly("{\"n\":1}", "{\"n\":1}", "{\"n\":2}", "{\"n\":1}");
  }

  @Test
  void quotedAndQualifiedNamesAndTableAlias() {
    Cli run = run("SELECT e.\"merchant\" AS \"Merchant\", TUMBLE(e.event_time, INTERVAL 3 MINUTE) AS w, COUNT(*) AS n"
        + " FROM EVENTS e GROUP BY e.\"merchant\", TUMBLE(e.event_time, INTERVAL 3 MINUTE)");
    assertThat(run.rows()).containsExactly(
        "{\"Merchant\":\"acme\",\"w\":\"2026-07-18 10:00:00\",\"n\":3}",
        "{\"Merchant\":\"globex\",\"w\":\"2026-07-18 10:00:00\",\"n\":2}");
  }
}
