package io.eventtime.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The worked examples A and C of the contract (semantics.md), through SQL, to the row. */
class ContractExamplesSqlTest {
  private static final String[] EXAMPLE_A = {"00:01", "00:04", "00:08", "00:12", "00:05", "00:11", "00:30", "00:34"};

  @TempDir
  Path dir;

  private String exampleA() {
    String[] lines = new String[EXAMPLE_A.length];
    for (int i = 0; i < lines.length; i++) {
      lines[i] = "{\"arrival\":" + (i + 1) + ",\"ts\":\"2026-03-01 " + EXAMPLE_A[i] + ":00\"}";
    }
    return "file://" + Cli.write(dir, "events.ndjson", lines);
  }

  private Cli runA(String sql, String... more) {
    String[] args = new String[7 + more.length];
    args[0] = "--from";
    args[1] = exampleA();
    args[2] = "--watermark-delay";
    args[3] = "5 MINUTE";
    args[4] = "--late-policy";
    args[5] = "event";
    System.arraycopy(more, 0, args, 6, more.length);
    args[args.length - 1] = sql;
    Cli run = Cli.run(args);
    assertThat(run.status()).as(run.out() + run.err()).isZero();
    return run;
  }

  @Test
  void exampleA_tumbling() {
    Cli run = runA("SELECT TUMBLE(ts, INTERVAL 10 MINUTE) AS window_start, count(*) AS events FROM events"
        + " GROUP BY TUMBLE(ts, INTERVAL 10 MINUTE)");
    assertThat(run.out()).containsExactly(
        "{\"window_start\":\"2026-03-01 00:00:00\",\"events\":3}",
        "{\"window_start\":\"2026-03-01 00:10:00\",\"events\":2}",
        "{\"window_start\":\"2026-03-01 00:30:00\",\"events\":2}",
        Cli.stats(8, 3, 1, 3, 7, 0));
  }

  @Test
  void exampleA_hopping() {
    Cli run = runA("SELECT HOP(ts, INTERVAL '5' MINUTE, INTERVAL '10' MINUTE) AS window_start, count(*) AS events"
        + " FROM events GROUP BY HOP(ts, INTERVAL '5' MINUTE, INTERVAL '10' MINUTE)");
    assertThat(run.out()).containsExactly(
        "{\"window_start\":\"2026-02-28 23:55:00\",\"events\":2}",
        "{\"window_start\":\"2026-03-01 00:00:00\",\"events\":3}",
        "{\"window_start\":\"2026-03-01 00:05:00\",\"events\":3}",
        "{\"window_start\":\"2026-03-01 00:10:00\",\"events\":2}",
        "{\"window_start\":\"2026-03-01 00:25:00\",\"events\":2}",
        "{\"window_start\":\"2026-03-01 00:30:00\",\"events\":2}",
        Cli.stats(8, 6, 1, 6, 7, 0));
  }

  /** The seed's session table: window_end there is the last event time, which max(ts) gives. */
  @Test
  void exampleA_session() {
    Cli run = runA("SELECT SESSION(ts, INTERVAL '5 MINUTES') AS window_start, max(ts) AS window_end,"
        + " count(*) AS events FROM events GROUP BY SESSION(ts, INTERVAL '5 MINUTES')");
    assertThat(run.out()).containsExactly(
        "{\"window_start\":\"2026-03-01 00:01:00\",\"window_end\":\"2026-03-01 00:12:00\",\"events\":5}",
        "{\"window_start\":\"2026-03-01 00:30:00\",\"window_end\":\"2026-03-01 00:34:00\",\"events\":2}",
        Cli.stats(8, 2, 1, 2, 7, 0));
  }

  @Test
  void exampleA_sessionEndIsTheLastEventPlusTheGap() {
    Cli run = runA("SELECT SESSION(ts, INTERVAL 5 MINUTE), SESSION_END(ts, INTERVAL 5 MINUTE), count(*) AS events"
        + " FROM events GROUP BY SESSION(ts, INTERVAL 5 MINUTE)");
    assertThat(run.rows()).containsExactly(
        "{\"window_start\":\"2026-03-01 00:01:00\",\"window_end\":\"2026-03-01 00:17:00\",\"events\":5}",
        "{\"window_start\":\"2026-03-01 00:30:00\",\"window_end\":\"2026-03-01 00:39:00\",\"events\":2}");
  }

  @Test
  void exampleA_theLateRowGoesToTheLateOutputWithItsLineAndReason() throws IOException {
    Path late = dir.resolve("late.ndjson");
    runA("SELECT TUMBLE(ts, INTERVAL 10 MINUTE), count(*) AS events FROM events GROUP BY TUMBLE(ts, INTERVAL 10 MINUTE)",
        "--late-output", "file://" + late);
    assertThat(Files.readAllLines(late)).containsExactly(
        "{\"source\":\"" + dir.resolve("events.ndjson") + "\",\"line\":5,\"event_time\":\"2026-03-01 00:05:00\","
            + "\"reason\":\"event time 2026-03-01 00:05:00 is behind the watermark 2026-03-01 00:07:00"
            + " (late policy event)\",\"row\":{\"arrival\":5,\"ts\":\"2026-03-01 00:05:00\"}}");
  }

  private String exampleC() {
    return "file://" + Cli.write(dir, "events.ndjson", SeedPage.EVENTS);
  }

  @Test
  void exampleC_tumblingCountAndSum() {
    Cli run = Cli.run("--from", exampleC(), "SELECT merchant, TUMBLE(event_time, INTERVAL 1 MINUTE) AS window_start,"
        + " count(*) AS n, sum(amount) AS total FROM events GROUP BY merchant, TUMBLE(event_time, INTERVAL 1 MINUTE)");
    assertThat(run.out()).containsExactly(
        "{\"merchant\":\"acme\",\"window_start\":\"2026-07-18 10:00:00\",\"n\":1,\"total\":250}",
        "{\"merchant\":\"globex\",\"window_start\":\"2026-07-18 10:00:00\",\"n\":1,\"total\":42}",
        "{\"merchant\":\"acme\",\"window_start\":\"2026-07-18 10:01:00\",\"n\":2,\"total\":1090}",
        "{\"merchant\":\"globex\",\"window_start\":\"2026-07-18 10:02:00\",\"n\":1,\"total\":7}",
        Cli.stats(5, 4, 0, 3, 5, 0));
  }

  @Test
  void exampleC_hopping() {
    Cli run = Cli.run("--from", exampleC(), "SELECT merchant, HOP(event_time, INTERVAL 30 SECONDS, INTERVAL 1 MINUTE),"
        + " count(*) AS n FROM events GROUP BY merchant, HOP(event_time, INTERVAL 30 SECONDS, INTERVAL 1 MINUTE)");
    assertThat(run.rows()).containsExactly(
        "{\"merchant\":\"acme\",\"window_start\":\"2026-07-18 09:59:30\",\"n\":1}",
        "{\"merchant\":\"globex\",\"window_start\":\"2026-07-18 09:59:30\",\"n\":1}",
        "{\"merchant\":\"acme\",\"window_start\":\"2026-07-18 10:00:00\",\"n\":1}",
        "{\"merchant\":\"globex\",\"window_start\":\"2026-07-18 10:00:00\",\"n\":1}",
        "{\"merchant\":\"acme\",\"window_start\":\"2026-07-18 10:00:30\",\"n\":1}",
        "{\"merchant\":\"acme\",\"window_start\":\"2026-07-18 10:01:00\",\"n\":2}",
        "{\"merchant\":\"acme\",\"window_start\":\"2026-07-18 10:01:30\",\"n\":1}",
        "{\"merchant\":\"globex\",\"window_start\":\"2026-07-18 10:01:30\",\"n\":1}",
        "{\"merchant\":\"globex\",\"window_start\":\"2026-07-18 10:02:00\",\"n\":1}");
  }

  @Test
  void exampleC_session() {
    Cli run = Cli.run("--from", exampleC(), "SELECT merchant, SESSION(event_time, INTERVAL 1 MINUTE), count(*) AS n"
        + " FROM events GROUP BY merchant, SESSION(event_time, INTERVAL 1 MINUTE)");
    assertThat(run.rows()).containsExactly(
        "{\"merchant\":\"acme\",\"window_start\":\"2026-07-18 10:00:03\",\"n\":1}",
        "{\"merchant\":\"globex\",\"window_start\":\"2026-07-18 10:00:07\",\"n\":1}",
        "{\"merchant\":\"acme\",\"window_start\":\"2026-07-18 10:01:12\",\"n\":2}",
        "{\"merchant\":\"globex\",\"window_start\":\"2026-07-18 10:02:20\",\"n\":1}");
  }
}
