package io.eventtime.cli;

import static io.eventtime.core.contract.WorkedExamples.C;

import io.eventtime.core.Stats;
import io.eventtime.core.contract.WorkedExamples.Case;
import io.eventtime.core.contract.WorkedExamples.Window;
import java.util.ArrayList;
import java.util.List;

/**
 * The examples of the seed page (the windows page of a command-line streaming SQL tool), with
 * the command as {@code eventtime}: its file, its queries as written there, and what each
 * prints. Shared by the in-process tests and the tests of the built command.
 */
public final class SeedPage {
  private SeedPage() {}

  /** The page's file events.ndjson: the contract's example C. */
  public static final String[] EVENTS = C.lines().toArray(String[]::new);

  /**
   * What the command prints for a case of example C: a line per window, the key, the window's
   * start as {@code window} and as many of its values as {@code values} names; the stats line last.
   */
  static List<String> lines(Case c, String window, String... values) {
    List<String> lines = new ArrayList<>();
    for (Window w : c.windows()) {
      StringBuilder b = new StringBuilder("{\"" + C.keyField() + "\":\"" + w.key() + "\",\"" + window + "\":\""
          + w.start() + "\"");
      for (int i = 0; i < values.length; i++) {
        b.append(",\"").append(values[i]).append("\":").append(w.values().get(i));
      }
      lines.add(b.append('}').toString());
    }
    Stats s = c.stats();
    lines.add(Cli.stats(s.rowsIn(), s.rowsOut(), s.lateDropped(), s.windowsClosed(), s.rowsFolded(), s.rowsRejected()));
    return List.copyOf(lines);
  }

  /** One example: the SQL and the exact lines it prints, the stats line last. */
  public record Example(String name, String sql, List<String> lines) {}

  public static final Example TUMBLE = new Example("TUMBLE", """
      SELECT merchant,
                TUMBLE(event_time, INTERVAL 1 MINUTE) AS w,
                count(*) AS n,
                sum(amount) AS total
         FROM events
         GROUP BY merchant, TUMBLE(event_time, INTERVAL 1 MINUTE)""",
      // the page's stats line, with rows_rejected after it as the issue asks
      lines(C.tumbling(), "w", "n", "total"));

  public static final Example HOP = new Example("HOP", """
      SELECT merchant,
                HOP(event_time, INTERVAL '30 SECOND', INTERVAL '1 MINUTE') AS w,
                count(*) AS n
         FROM events
         GROUP BY merchant, HOP(event_time, INTERVAL '30 SECOND', INTERVAL '1 MINUTE')""",
      lines(C.hopping(), "w", "n"));

  public static final Example SESSION = new Example("SESSION", """
      SELECT merchant,
                SESSION(event_time, INTERVAL '1 MINUTE') AS w,
                count(*) AS n
         FROM events
         GROUP BY merchant, SESSION(event_time, INTERVAL '1 MINUTE')""",
      lines(C.session(), "w", "n"));

  public static final Example WINDOW_START = new Example("window_start", """
      SELECT merchant, TUMBLE(event_time, INTERVAL 1 MINUTE)
         FROM events
         GROUP BY merchant, TUMBLE(event_time, INTERVAL 1 MINUTE)""",
      lines(C.tumbling(), "window_start"));

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
