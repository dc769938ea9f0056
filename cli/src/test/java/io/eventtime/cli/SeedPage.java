package io.eventtime.cli;

import java.util.List;

/**
 * The examples of the seed page (the windows page of a command-line streaming SQL tool), with
 * the command as {@code eventtime}: its file, its queries as written there, and what each
 * prints. Shared by the in-process tests and the tests of the built command.
 */
public final class SeedPage {
  private SeedPage() {}

  public static final String[] EVENTS = {
      "{\"merchant\":\"acme\",\"amount\":250,\"event_time\":\"2026-07-18 10:00:03\"}",
      "{\"merchant\":\"globex\",\"amount\":42,\"event_time\":\"2026-07-18 10:00:07\"}",
      "{\"merchant\":\"acme\",\"amount\":980,\"event_time\":\"2026-07-18 10:01:12\"}",
      "{\"merchant\":\"acme\",\"amount\":110,\"event_time\":\"2026-07-18 10:01:48\"}",
      "{\"merchant\":\"globex\",\"amount\":7,\"event_time\":\"2026-07-18 10:02:20\"}"};

  /** One example: the SQL and the exact lines it prints, the stats line last. */
  public record Example(String name, String sql, List<String> lines) {}

  public static final Example TUMBLE = new Example("TUMBLE", """
      SELECT merchant,
                TUMBLE(event_time, INTERVAL 1 MINUTE) AS w,
                count(*) AS n,
                sum(amount) AS total
         FROM events
         GROUP BY merchant, TUMBLE(event_time, INTERVAL 1 MINUTE)""", List.of(
      "{\"merchant\":\"acme\",\"w\":\"2026-07-18 10:00:00\",\"n\":1,\"total\":250}",
      "{\"merchant\":\"globex\",\"w\":\"2026-07-18 10:00:00\",\"n\":1,\"total\":42}",
      "{\"merchant\":\"acme\",\"w\":\"2026-07-18 10:01:00\",\"n\":2,\"total\":1090}",
      "{\"merchant\":\"globex\",\"w\":\"2026-07-18 10:02:00\",\"n\":1,\"total\":7}",
      // the page's stats line, with rows_rejected after it as the issue asks
      "{\"stats\":{\"rows_in\":5,\"rows_out\":4,\"late_dropped\":0,\"windows_closed\":3,\"rows_folded\":5,\"rows_rejected\":0}}"));

  public static final Example HOP = new Example("HOP", """
      SELECT merchant,
                HOP(event_time, INTERVAL '30 SECOND', INTERVAL '1 MINUTE') AS w,
                count(*) AS n
         FROM events
         GROUP BY merchant, HOP(event_time, INTERVAL '30 SECOND', INTERVAL '1 MINUTE')""", List.of(
      "{\"merchant\":\"acme\",\"w\":\"2026-07-18 09:59:30\",\"n\":1}",
      "{\"merchant\":\"globex\",\"w\":\"2026-07-18 09:59:30\",\"n\":1}",
      "{\"merchant\":\"acme\",\"w\":\"2026-07-18 10:00:00\",\"n\":1}",
      "{\"merchant\":\"globex\",\"w\":\"2026-07-18 10:00:00\",\"n\":1}",
      "{\"merchant\":\"acme\",\"w\":\"2026-07-18 10:00:30\",\"n\":1}",
      "{\"merchant\":\"acme\",\"w\":\"2026-07-18 10:01:00\",\"n\":2}",
      "{\"merchant\":\"acme\",\"w\":\"2026-07-18 10:01:30\",\"n\":1}",
      "{\"merchant\":\"globex\",\"w\":\"2026-07-18 10:01:30\",\"n\":1}",
      "{\"merchant\":\"globex\",\"w\":\"2026-07-18 10:02:00\",\"n\":1}",
      "{\"stats\":{\"rows_in\":5,\"rows_out\":9,\"late_dropped\":0,\"windows_closed\":6,\"rows_folded\":5,\"rows_rejected\":0}}"));

  public static final Example SESSION = new Example("SESSION", """
      SELECT merchant,
                SESSION(event_time, INTERVAL '1 MINUTE') AS w,
                count(*) AS n
         FROM events
         GROUP BY merchant, SESSION(event_time, INTERVAL '1 MINUTE')""", List.of(
      "{\"merchant\":\"acme\",\"w\":\"2026-07-18 10:00:03\",\"n\":1}",
      "{\"merchant\":\"globex\",\"w\":\"2026-07-18 10:00:07\",\"n\":1}",
      "{\"merchant\":\"acme\",\"w\":\"2026-07-18 10:01:12\",\"n\":2}",
      "{\"merchant\":\"globex\",\"w\":\"2026-07-18 10:02:20\",\"n\":1}",
      "{\"stats\":{\"rows_in\":5,\"rows_out\":4,\"late_dropped\":0,\"windows_closed\":4,\"rows_folded\":5,\"rows_rejected\":0}}"));

  public static final Example WINDOW_START = new Example("window_start", """
      SELECT merchant, TUMBLE(event_time, INTERVAL 1 MINUTE)
         FROM events
         GROUP BY merchant, TUMBLE(event_time, INTERVAL 1 MINUTE)""", List.of(
      "{\"merchant\":\"acme\",\"window_start\":\"2026-07-18 10:00:00\"}",
      "{\"merchant\":\"globex\",\"window_start\":\"2026-07-18 10:00:00\"}",
      "{\"merchant\":\"acme\",\"window_start\":\"2026-07-18 10:01:00\"}",
      "{\"merchant\":\"globex\",\"window_start\":\"2026-07-18 10:02:00\"}",
      "{\"stats\":{\"rows_in\":5,\"rows_out\":4,\"late_dropped\":0,\"windows_closed\":3,\"rows_folded\":5,\"rows_rejected\":0}}"));

  public static final Example BARE_NUMBER = new Example("bare number interval",
      "SELECT count(*) FROM events GROUP BY TUMBLE(event_time, 60)", List.of(
      "{\"error\":{\"code\":\"NOT_SUPPORTED\",\"message\":\"the window interval must be an INTERVAL literal with a unit:"
          + " write INTERVAL '2 SECOND' (or MINUTE/HOUR/DAY), not a bare number\"}}"));

  public static final Example TUMBLE_ARITY = new Example("TUMBLE arity",
      "SELECT count(*) FROM events GROUP BY TUMBLE(event_time, INTERVAL '1 MINUTE', INTERVAL '1 MINUTE')", List.of(
      "{\"error\":{\"code\":\"NOT_SUPPORTED\",\"message\":\"TUMBLE takes a timestamp column and one INTERVAL:"
          + " TUMBLE(ts, INTERVAL '1 MINUTE')\"}}"));

  public static final Example HOP_ARITY = new Example("HOP arity",
      "SELECT count(*) FROM events GROUP BY HOP(event_time, INTERVAL '1 MINUTE')", List.of(
      "{\"error\":{\"code\":\"NOT_SUPPORTED\",\"message\":\"HOP takes a timestamp column, a slide and a size:"
          + " HOP(ts, INTERVAL '30 SECOND', INTERVAL '1 MINUTE')\"}}"));

  public static final Example SESSION_ARITY = new Example("SESSION arity",
      "SELECT count(*) FROM events GROUP BY SESSION(event_time)", List.of(
      "{\"error\":{\"code\":\"NOT_SUPPORTED\",\"message\":\"SESSION takes a timestamp column and a gap:"
          + " SESSION(ts, INTERVAL '5 MINUTE')\"}}"));

  public static final Example NOT_A_TIMESTAMP = new Example("time column not a TIMESTAMP",
      "SELECT count(*) FROM events GROUP BY TUMBLE(merchant, INTERVAL 1 MINUTE)", List.of(
      "{\"error\":{\"code\":\"TYPE_MISMATCH\",\"message\":\"the time column merchant of TUMBLE is VARCHAR, not a"
          + " TIMESTAMP: give TUMBLE a column whose values are date-times such as \\\"2026-07-18 10:00:03\\\" or"
          + " \\\"2026-07-18T10:00:03Z\\\"\"}}"));

  public static final Example WINDOW_START_IN_WHERE = new Example("window_start in WHERE",
      "SELECT merchant, TUMBLE(event_time, INTERVAL 1 MINUTE), count(*) AS n FROM events"
          + " WHERE window_start >= '2026-07-18 10:01:00' GROUP BY merchant, TUMBLE(event_time, INTERVAL 1 MINUTE)",
      List.of("{\"error\":{\"code\":\"INVALID_QUERY\",\"message\":\"window_start is an output column, not an input"
          + " column, so it cannot appear in WHERE: filter the timestamp column event_time instead (e.g. WHERE"
          + " event_time >= TIMESTAMP '2026-07-18 10:00:00'), or filter an aggregate in HAVING\"}}"));

  public static final List<Example> RESULTS = List.of(TUMBLE, HOP, SESSION, WINDOW_START);

  public static final List<Example> REFUSALS = List.of(BARE_NUMBER, TUMBLE_ARITY, HOP_ARITY, SESSION_ARITY, NOT_A_TIMESTAMP,
      WINDOW_START_IN_WHERE);
}
