package io.eventtime.benchmarks.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SparkSqlWindowsTest {
  private static SparkSession spark;

  @TempDir Path dir;

  @BeforeAll
  static void start() {
    spark = SparkSqlWindows.session();
  }

  @AfterAll
  static void stop() {
    spark.close();
  }

  @Test
  void writesOneRowPerMerchantAndMinuteCountingLateRowsToo() throws IOException {
    Path events = dir.resolve("events.ndjson");
    Files.writeString(events, String.join("\n",
        "{\"merchant\":\"m1\",\"amount\":10,\"event_time\":\"2026-07-18 10:00:03\"}",
        "{\"merchant\":\"m2\",\"amount\":7,\"event_time\":\"2026-07-18 10:00:10\"}",
        "{\"merchant\":\"m1\",\"amount\":5,\"event_time\":\"2026-07-18 10:00:59\"}",
        "{\"merchant\":\"m1\",\"amount\":1,\"event_time\":\"2026-07-18 10:01:00\"}",
        // ten minutes behind the rows before: late for the command, counted by batch Spark SQL
        "{\"merchant\":\"m1\",\"amount\":100,\"event_time\":\"2026-07-18 09:51:00\"}",
        "{\"merchant\":\"m1\",\"amount\":2,\"event_time\":\"2026-07-18 10:01:30\"}") + "\n");
    Path out = dir.resolve("out");

    SparkSqlWindows.run(spark, events.toString(), out.toString());

    assertEquals(List.of(
        "{\"merchant\":\"m1\",\"w\":\"2026-07-18 09:51:00\",\"n\":1,\"total\":100}",
        "{\"merchant\":\"m1\",\"w\":\"2026-07-18 10:00:00\",\"n\":2,\"total\":15}",
        "{\"merchant\":\"m1\",\"w\":\"2026-07-18 10:01:00\",\"n\":2,\"total\":3}",
        "{\"merchant\":\"m2\",\"w\":\"2026-07-18 10:00:00\",\"n\":1,\"total\":7}"),
        sortedLines(out));
  }

  @Test
  void failsOnALineThatDoesNotFitTheSchema() throws IOException {
    Path events = dir.resolve("events.ndjson");
    Files.writeString(events, "{\"merchant\":\"m1\",\"amount\":10,\"event_time\":\"2026-07-18 10:00:03\"}\n"
        + "{\"merchant\":\"m1\",\"amount\":\"ten\",\"event_time\":\"2026-07-18 10:00:04\"}\n");

    Exception e = assertThrows(Exception.class,
        () -> SparkSqlWindows.run(spark, events.toString(), dir.resolve("out").toString()));
    StringWriter trace = new StringWriter();
    e.printStackTrace(new PrintWriter(trace));
    assertTrue(trace.toString().contains("Malformed records are detected in record parsing: [m1,null,"), trace::toString);
  }

  private static List<String> sortedLines(Path out) throws IOException {
    List<String> lines = new ArrayList<>();
    try (Stream<Path> files = Files.list(out)) {
      for (Path part : files.filter(f -> f.getFileName().toString().startsWith("part-")).toList()) {
        lines.addAll(Files.readAllLines(part));
      }
    }
    Collections.sort(lines);
    return lines;
  }
}
