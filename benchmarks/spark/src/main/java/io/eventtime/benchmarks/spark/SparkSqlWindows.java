package io.eventtime.benchmarks.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.sum;
import static org.apache.spark.sql.functions.window;

import java.lang.management.ManagementFactory;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * Issue 13 goal 1's second peer: Spark SQL in batch, {@code local[2]}, computing the seed recipe's
 * windows (tumbling 1 minute per merchant, {@code count(*)} and {@code sum(amount)}) over the
 * benchmark's NDJSON file and writing every result row as JSON lines, as the eventtime command and
 * {@code DuckDbWindows} do.
 *
 * <p>The file is read with a given schema (no inference pass over the file); a line that does not
 * fit it fails the run ({@code FAILFAST}: Spark's {@code MALFORMED_RECORD_IN_PARSING} error shows the
 * fields it could read of that line, e.g. {@code [m1,null,1784368804000000]} for an amount
 * {@code "ten"}), so no row is dropped silently. Batch Spark SQL has no watermark: <b>every row counts</b>, late or not, so its rows
 * differ from the command's and DuckDB's on the windows that received rows behind the watermark.
 *
 * <p>The output is a directory of part files ({@code part-*.json}), not coalesced to one: the
 * aggregation after the shuffle keeps both cores (adaptive execution picks the partition count).
 * Each line is {@code {"merchant":"m1","w":"2026-07-18 10:00:00","n":12,"total":3456}}, {@code w}
 * the window's start in UTC. Prints {@code {"seconds":...,"cpu_seconds":...}} on stdout: the wall
 * time from the session's start to the last file written, and the JVM's CPU time (all threads,
 * from the JVM's start).
 *
 * <pre>java --add-opens=java.base/sun.nio.ch=ALL-UNNAMED ... -cp ... \
 *     io.eventtime.benchmarks.spark.SparkSqlWindows events.ndjson out-dir</pre>
 */
public final class SparkSqlWindows {
  private SparkSqlWindows() {}

  /** The generated lines' fields; the file's times have no zone and are read as UTC. */
  static final StructType SCHEMA = new StructType()
      .add("merchant", DataTypes.StringType)
      .add("amount", DataTypes.LongType)
      .add("event_time", DataTypes.TimestampType);

  static final String TIME_FORMAT = "yyyy-MM-dd HH:mm:ss";

  /** Runs the query over {@code events} and writes its rows under {@code outDir}, replacing it. */
  static void run(SparkSession spark, String events, String outDir) {
    spark.read()
        .schema(SCHEMA)
        .option("mode", "FAILFAST")
        .option("timestampFormat", TIME_FORMAT)
        .json(events)
        .groupBy(window(col("event_time"), "1 minute"), col("merchant"))
        .agg(count(lit(1)).as("n"), sum("amount").as("total"))
        .select(col("merchant"), col("window.start").as("w"), col("n"), col("total"))
        .write()
        .mode(SaveMode.Overwrite)
        .option("timestampFormat", TIME_FORMAT)
        .json(outDir);
  }

  /** A {@code local[2]} session with UTC times and Spark's UI off (nothing serves it here). */
  static SparkSession session() {
    return SparkSession.builder()
        .master("local[2]")
        .appName("SparkSqlWindows")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.ui.enabled", "false")
        .getOrCreate();
  }

  public static void main(String[] args) {
    if (args.length != 2) {
      throw new IllegalArgumentException("usage: SparkSqlWindows <events.ndjson> <out-dir>");
    }
    com.sun.management.OperatingSystemMXBean os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    long start = System.nanoTime();
    try (SparkSession spark = session()) {
      spark.sparkContext().setLogLevel("WARN");
      run(spark, args[0], args[1]);
    }
    System.out.println("{\"seconds\":" + (System.nanoTime() - start) / 1e9
        + ",\"cpu_seconds\":" + os.getProcessCpuTime() / 1e9 + "}");
  }
}
