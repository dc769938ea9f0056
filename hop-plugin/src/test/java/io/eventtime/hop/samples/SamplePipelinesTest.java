package io.eventtime.hop.samples;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.hop.HopTestEnvironment;
import io.eventtime.hop.LocalRun;
import io.eventtime.hop.Samples;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pipelines of samples/hop/, loaded from their .hpl files and run on the local engine
 * (Event File Input, Event Time Window, Event File Output): the files they write, to the line.
 */
class SamplePipelinesTest {
  @TempDir
  Path out;

  @BeforeAll
  static void hop() {
    HopTestEnvironment.init();
  }

  private List<String> run(String sample, String... files) throws Exception {
    LocalRun.Result r = LocalRun.of(Samples.pipeline(sample + ".hpl")).parameter("OUTPUT_FOLDER", out.toString()).run();
    assertThat(r.errors()).as("errors of " + sample).isZero();
    return Files.readAllLines(out.resolve(files.length == 0 ? sample + ".ndjson" : files[0]));
  }

  @Test
  void exampleA_tumbling() throws Exception {
    assertThat(run("example-a-tumbling")).containsExactly(
        "{\"window_start\":\"2026-03-01 00:00:00\",\"window_end\":\"2026-03-01 00:10:00\",\"events\":3}",
        "{\"window_start\":\"2026-03-01 00:10:00\",\"window_end\":\"2026-03-01 00:20:00\",\"events\":2}",
        "{\"window_start\":\"2026-03-01 00:30:00\",\"window_end\":\"2026-03-01 00:40:00\",\"events\":2}");
    assertThat(Files.readAllLines(out.resolve("example-a-tumbling-late.ndjson"))).containsExactly(
        "{\"event_time\":\"2026-03-01 00:05:00\",\"late_reason\":\"event time 2026-03-01 00:05:00 is behind the"
            + " watermark 2026-03-01 00:07:00 (late policy event)\"}");
  }

  @Test
  void exampleA_hopping() throws Exception {
    assertThat(run("example-a-hopping")).containsExactly(
        "{\"window_start\":\"2026-02-28 23:55:00\",\"window_end\":\"2026-03-01 00:05:00\",\"events\":2}",
        "{\"window_start\":\"2026-03-01 00:00:00\",\"window_end\":\"2026-03-01 00:10:00\",\"events\":3}",
        "{\"window_start\":\"2026-03-01 00:05:00\",\"window_end\":\"2026-03-01 00:15:00\",\"events\":3}",
        "{\"window_start\":\"2026-03-01 00:10:00\",\"window_end\":\"2026-03-01 00:20:00\",\"events\":2}",
        "{\"window_start\":\"2026-03-01 00:25:00\",\"window_end\":\"2026-03-01 00:35:00\",\"events\":2}",
        "{\"window_start\":\"2026-03-01 00:30:00\",\"window_end\":\"2026-03-01 00:40:00\",\"events\":2}");
    assertThat(Files.readAllLines(out.resolve("example-a-hopping-late.ndjson"))).hasSize(1);
  }

  @Test
  void exampleA_session() throws Exception {
    assertThat(run("example-a-session")).containsExactly(
        "{\"window_start\":\"2026-03-01 00:01:00\",\"window_end\":\"2026-03-01 00:17:00\",\"events\":5}",
        "{\"window_start\":\"2026-03-01 00:30:00\",\"window_end\":\"2026-03-01 00:39:00\",\"events\":2}");
    assertThat(Files.readAllLines(out.resolve("example-a-session-late.ndjson"))).hasSize(1);
  }

  @Test
  void exampleC_tumbling() throws Exception {
    assertThat(run("example-c-tumbling")).containsExactly(
        "{\"merchant\":\"acme\",\"window_start\":\"2026-07-18 10:00:00\",\"window_end\":\"2026-07-18 10:01:00\",\"events\":1,\"total\":250}",
        "{\"merchant\":\"globex\",\"window_start\":\"2026-07-18 10:00:00\",\"window_end\":\"2026-07-18 10:01:00\",\"events\":1,\"total\":42}",
        "{\"merchant\":\"acme\",\"window_start\":\"2026-07-18 10:01:00\",\"window_end\":\"2026-07-18 10:02:00\",\"events\":2,\"total\":1090}",
        "{\"merchant\":\"globex\",\"window_start\":\"2026-07-18 10:02:00\",\"window_end\":\"2026-07-18 10:03:00\",\"events\":1,\"total\":7}");
  }

  @Test
  void exampleC_hopping() throws Exception {
    assertThat(run("example-c-hopping")).containsExactly(
        "{\"merchant\":\"acme\",\"window_start\":\"2026-07-18 09:59:30\",\"window_end\":\"2026-07-18 10:00:30\",\"events\":1}",
        "{\"merchant\":\"globex\",\"window_start\":\"2026-07-18 09:59:30\",\"window_end\":\"2026-07-18 10:00:30\",\"events\":1}",
        "{\"merchant\":\"acme\",\"window_start\":\"2026-07-18 10:00:00\",\"window_end\":\"2026-07-18 10:01:00\",\"events\":1}",
        "{\"merchant\":\"globex\",\"window_start\":\"2026-07-18 10:00:00\",\"window_end\":\"2026-07-18 10:01:00\",\"events\":1}",
        "{\"merchant\":\"acme\",\"window_start\":\"2026-07-18 10:00:30\",\"window_end\":\"2026-07-18 10:01:30\",\"events\":1}",
        "{\"merchant\":\"acme\",\"window_start\":\"2026-07-18 10:01:00\",\"window_end\":\"2026-07-18 10:02:00\",\"events\":2}",
        "{\"merchant\":\"acme\",\"window_start\":\"2026-07-18 10:01:30\",\"window_end\":\"2026-07-18 10:02:30\",\"events\":1}",
        "{\"merchant\":\"globex\",\"window_start\":\"2026-07-18 10:01:30\",\"window_end\":\"2026-07-18 10:02:30\",\"events\":1}",
        "{\"merchant\":\"globex\",\"window_start\":\"2026-07-18 10:02:00\",\"window_end\":\"2026-07-18 10:03:00\",\"events\":1}");
  }

  @Test
  void exampleC_session() throws Exception {
    assertThat(run("example-c-session")).containsExactly(
        "{\"merchant\":\"acme\",\"window_start\":\"2026-07-18 10:00:03\",\"window_end\":\"2026-07-18 10:01:03\",\"events\":1}",
        "{\"merchant\":\"globex\",\"window_start\":\"2026-07-18 10:00:07\",\"window_end\":\"2026-07-18 10:01:07\",\"events\":1}",
        "{\"merchant\":\"acme\",\"window_start\":\"2026-07-18 10:01:12\",\"window_end\":\"2026-07-18 10:02:48\",\"events\":2}",
        "{\"merchant\":\"globex\",\"window_start\":\"2026-07-18 10:02:20\",\"window_end\":\"2026-07-18 10:03:20\",\"events\":1}");
  }

  @Test
  void sessionsWithLateAndRejectedRows() throws Exception {
    assertThat(run("sessions-late-and-rejected", "sessions.ndjson")).containsExactly(
        "{\"user\":\"bob\",\"window_start\":\"2026-03-01 10:01:00\",\"window_end\":\"2026-03-01 10:06:00\",\"events\":1,\"first_line\":2}",
        "{\"user\":\"ann\",\"window_start\":\"2026-03-01 10:00:00\",\"window_end\":\"2026-03-01 10:08:00\",\"events\":2,\"first_line\":1}",
        "{\"user\":\"ann\",\"window_start\":\"2026-03-01 10:18:00\",\"window_end\":\"2026-03-01 10:23:00\",\"events\":1,\"first_line\":7}",
        "{\"user\":\"bob\",\"window_start\":\"2026-03-01 10:20:00\",\"window_end\":\"2026-03-01 10:27:00\",\"events\":2,\"first_line\":5}");
    assertThat(Files.readAllLines(out.resolve("sessions-late.ndjson"))).containsExactly(
        "{\"user\":\"ann\",\"event_time\":\"2026-03-01 10:02:00\",\"line\":6,\"late_reason\":\"every window of event time"
            + " 2026-03-01 10:02:00 had closed at watermark 2026-03-01 10:20:00 (late policy window)\"}");
    assertThat(Files.readAllLines(out.resolve("sessions-rejected.ndjson"))).containsExactly(
        "{\"user\":\"ann\",\"event_time\":\"not a time\",\"line\":4,\"error_count\":1,\"error_description\":\"field"
            + " 'event_time': 'not a time' is not a time in ISO-8601 form (e.g. 2026-07-18 10:00:03 or"
            + " 2026-07-18T10:00:03Z)\",\"error_field\":\"event_time\",\"error_code\":\"EVENTTIME-REJECTED\"}",
        "{\"user\":\"bob\",\"event_time\":null,\"line\":8,\"error_count\":1,\"error_description\":\"field"
            + " 'event_time': the time is null\",\"error_field\":\"event_time\",\"error_code\":\"EVENTTIME-REJECTED\"}");
  }
}
