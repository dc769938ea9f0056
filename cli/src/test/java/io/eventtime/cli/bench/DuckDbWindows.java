package io.eventtime.cli.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Map;

/**
 * The benchmark's peer: DuckDB computing the windows the eventtime command computes over the same
 * file, with its own JSON reader, and writing every result row to a file as JSON lines
 * ({@code COPY ... TO ... (FORMAT JSON)}), as the command writes its rows to stdout. The watermark
 * is the contract's: the latest event time among the rows before, in file order, less 5 minutes
 * (a window function over the row number); then per merchant count(*) and sum(amount).
 *
 * <ul>
 *   <li>{@code tumble}: 1 minute windows; {@code hop}: 1 minute windows every 30 seconds;
 *       {@code session}: a gap of 1 minute (a gap of more than a minute splits).
 *   <li>{@code event}: a row behind the watermark counts nowhere. {@code window} (tumble and hop
 *       only): a row counts in each of its windows whose end is after the watermark.
 * </ul>
 *
 * <pre>java -cp ... io.eventtime.cli.bench.DuckDbWindows events.ndjson out.ndjson tumble event</pre>
 */
public final class DuckDbWindows {
  private DuckDbWindows() {}

  /** The rows with their arrival number and the watermark before each. */
  private static String marked(String file) {
    return "WITH events AS ("
        + "  SELECT row_number() OVER () AS arrival, merchant, amount, event_time FROM read_json('" + file + "',"
        + "    format = 'newline_delimited', columns = {merchant: 'VARCHAR', amount: 'BIGINT', event_time: 'TIMESTAMP'})),"
        + " marked AS ("
        + "  SELECT *, max(event_time) OVER (ORDER BY arrival ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)"
        + "    - INTERVAL 5 MINUTE AS watermark FROM events) ";
  }

  private static final String ON_TIME = "(watermark IS NULL OR event_time >= watermark)";

  private static final Map<String, String> QUERIES = Map.of(
      "tumble event",
      "SELECT merchant, time_bucket(INTERVAL 1 MINUTE, event_time) AS w, count(*) AS n, sum(amount)::BIGINT AS total"
          + " FROM marked WHERE " + ON_TIME + " GROUP BY ALL",
      "tumble window",
      "SELECT merchant, time_bucket(INTERVAL 1 MINUTE, event_time) AS w, count(*) AS n, sum(amount)::BIGINT AS total"
          + " FROM marked WHERE watermark IS NULL OR time_bucket(INTERVAL 1 MINUTE, event_time) + INTERVAL 1 MINUTE"
          + " > watermark GROUP BY ALL",
      "hop event",
      "SELECT merchant, w, count(*) AS n, sum(amount)::BIGINT AS total FROM (SELECT merchant, amount,"
          + " time_bucket(INTERVAL 30 SECOND, event_time) - k * INTERVAL 30 SECOND AS w FROM marked,"
          + " (VALUES (0), (1)) AS hops(k) WHERE " + ON_TIME + ") GROUP BY ALL",
      "hop window",
      "SELECT merchant, w, count(*) AS n, sum(amount)::BIGINT AS total FROM (SELECT merchant, amount, watermark,"
          + " time_bucket(INTERVAL 30 SECOND, event_time) - k * INTERVAL 30 SECOND AS w FROM marked,"
          + " (VALUES (0), (1)) AS hops(k)) WHERE watermark IS NULL OR w + INTERVAL 1 MINUTE > watermark GROUP BY ALL",
      "session event",
      "SELECT merchant, min(event_time) AS w, max(event_time) + INTERVAL 1 MINUTE AS e, count(*) AS n,"
          + " sum(amount)::BIGINT AS total FROM (SELECT *, sum(split) OVER (PARTITION BY merchant ORDER BY event_time"
          + " ROWS UNBOUNDED PRECEDING) AS session FROM (SELECT merchant, amount, event_time,"
          + " CASE WHEN event_time - lag(event_time) OVER (PARTITION BY merchant ORDER BY event_time)"
          + " > INTERVAL 1 MINUTE THEN 1 ELSE 0 END AS split FROM marked WHERE " + ON_TIME + "))"
          + " GROUP BY merchant, session");

  public static void main(String[] args) throws Exception {
    if (args.length != 4) {
      throw new IllegalArgumentException("usage: DuckDbWindows <events.ndjson> <out.ndjson> tumble|hop|session event|window");
    }
    String query = QUERIES.get(args[2] + " " + args[3]);
    if (query == null) {
      throw new IllegalArgumentException("no DuckDB query for " + args[2] + " " + args[3] + "; there are " + QUERIES.keySet());
    }
    String copy = "COPY (" + marked(args[0].replace("'", "''")) + query + ") TO '" + args[1].replace("'", "''")
        + "' (FORMAT JSON)";
    long start = System.nanoTime();
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
        Statement s = c.createStatement()) {
      s.execute("SET preserve_insertion_order = true");
      s.execute(copy);
    }
    System.out.println("{\"seconds\":" + (System.nanoTime() - start) / 1e9 + "}");
  }
}
