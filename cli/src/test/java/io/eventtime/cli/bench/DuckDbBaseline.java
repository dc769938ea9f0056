package io.eventtime.cli.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;

/**
 * The benchmark's baseline: DuckDB computing the same answer as
 * {@code eventtime --late-policy event --watermark-delay '5 MINUTE'} with a 1 minute TUMBLE per
 * merchant, count(*) and sum(amount), over the same file with its own JSON reader, in the seed
 * recipe's shape: the watermark before each row by a window function over arrival order, the
 * rows behind it left out, then the buckets. Prints the number of windows, of rows on time and a
 * checksum of the sums, which the benchmark compares with eventtime's output.
 *
 * <pre>java -cp ... io.eventtime.cli.bench.DuckDbBaseline events.ndjson</pre>
 */
public final class DuckDbBaseline {
  private DuckDbBaseline() {}

  public static void main(String[] args) throws Exception {
    String file = args[0].replace("'", "''");
    String sql = "WITH events AS ("
        + "  SELECT row_number() OVER () AS arrival, merchant, amount, event_time FROM read_json('" + file + "',"
        + "    format = 'newline_delimited', columns = {merchant: 'VARCHAR', amount: 'BIGINT', event_time: 'TIMESTAMP'})),"
        + " marked AS ("
        + "  SELECT *, max(event_time) OVER (ORDER BY arrival ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)"
        + "    - INTERVAL 5 MINUTE AS watermark FROM events),"
        + " on_time AS (SELECT * FROM marked WHERE watermark IS NULL OR event_time >= watermark),"
        + " windows AS ("
        + "  SELECT merchant, time_bucket(INTERVAL 1 MINUTE, event_time) AS window_start, count(*) AS n,"
        + "    sum(amount) AS total FROM on_time GROUP BY ALL)"
        + " SELECT count(*), sum(n), sum(total), sum(hash(merchant, window_start, n, total)) FROM windows";
    long start = System.nanoTime();
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
        Statement s = c.createStatement()) {
      s.execute("SET preserve_insertion_order = true");
      try (ResultSet r = s.executeQuery(sql)) {
        r.next();
        System.out.println("{\"windows\":" + r.getLong(1) + ",\"rows_on_time\":" + r.getLong(2) + ",\"sum_total\":"
            + r.getString(3) + ",\"seconds\":" + (System.nanoTime() - start) / 1e9 + "}");
      }
    }
  }
}
