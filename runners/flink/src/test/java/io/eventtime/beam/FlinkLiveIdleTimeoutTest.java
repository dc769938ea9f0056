package io.eventtime.beam;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.core.AggregateSpec;
import io.eventtime.core.EventTimeParser;
import io.eventtime.core.LatePolicy;
import io.eventtime.core.TimeText;
import io.eventtime.core.WindowQuery;
import io.eventtime.core.WindowSpec;
import io.eventtime.testing.kafka.KafkaBroker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.transforms.ParDo;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Example L5 of docs/semantics.md ("An idle partition") on embedded Flink streaming: a topic of
 * two partitions read by KafkaRows into {@link EventTimeWindow} with the idle timeout, beside the
 * same rows in a second topic read without it, in one job. The wall clock here is the real one, so
 * the idle watermark is today less the delay (not L5's 00:39) and the timeout is
 * {@value #TIMEOUT_SECONDS} s (not 30 s); what L5 says holds: once P1 has been quiet for the
 * timeout, windows 00:00 (2 rows) and 00:10 (1 row) leave while P0 holds 00:20 open, and P1's later
 * 00:15 is late, its reason naming the idle timeout. P0 is kept from going idle meanwhile by rows of
 * 00:02 (late in P0 by its own watermark 00:24, with or without the timeout); once those stop, P0
 * goes idle too and 00:20 leaves. Without the timeout only P1's 00:15 moves the stream's watermark
 * (to 00:14): window 00:00 leaves, and nothing else.
 */
class FlinkLiveIdleTimeoutTest {
  private static final int TIMEOUT_SECONDS = 5;
  /** How often P0 gets a row while P1 is to go idle: well inside the timeout, so that P0 does not. */
  private static final long KEEP_ALIVE_MILLIS = 250;
  private static final long SETTLE_MILLIS = 3_000;
  private static final Schema SCHEMA = Schema.builder().addStringField("event_time").build();
  private static final WindowQuery L5 = WindowQuery.of(WindowSpec.tumbling(600_000)).withDelay(60_000)
      .withLatePolicy(LatePolicy.WINDOW).withAggregates(AggregateSpec.countAll("n"));
  private static final EventTimeParser PARSER = EventTimeParser.defaults();
  private static final List<String> FOLDERS = List.of("windows", "late", "rejected");

  private static KafkaBroker broker;

  @BeforeAll
  static void startBroker() {
    broker = KafkaBroker.start();
  }

  @AfterAll
  static void closeBroker() {
    broker.close();
  }

  @TempDir
  Path dir;

  @Test
  void exampleL5_aQuietPartitionGoesIdleOnFlink() throws Exception {
    for (String topic : List.of("Idle", "NoTimeout")) {
      broker.createTopic(topic, 2);
      broker.produce(topic, 1, value("00:05"));
      broker.produce(topic, 0, value("00:01"), value("00:12"), value("00:25"));
    }
    Pipeline p = Pipeline.create(FlinkLiveJobs.options(dir.resolve("checkpoints")));
    addStream(p, "Idle", true);
    addStream(p, "NoTimeout", false);
    PipelineResult job = p.run();
    try {
      Path idle = dir.resolve("Idle");
      List<String> keptAlive = new ArrayList<>();
      long deadline = System.currentTimeMillis() + FlinkLiveJobs.WAIT_MILLIS;
      Map<String, String> windows;
      while ((windows = RowFiles.read(idle, FOLDERS).get("windows")).size() < 2) {
        if (System.currentTimeMillis() > deadline || job.getState().isTerminal()) {
          throw new AssertionError("P1 did not go idle: with the job " + job.getState() + ", windows " + windows);
        }
        keepP0Alive(keptAlive);
      }
      assertThat(windows).as("P1 idle, P0 not: 00:20 stays open").isEqualTo(Map.of(
          window("00:00"), window("00:00") + "|2", window("00:10"), window("00:10") + "|1"));
      for (String topic : List.of("Idle", "NoTimeout")) {
        broker.produce(topic, 1, value("00:15"));
      }
      FlinkLiveJobs.await("P1's 00:15, late in Idle", () -> RowFiles.read(idle, FOLDERS).get("late")
          .containsKey(RowFiles.identity(1, 1)), job);
      // P0 gets no more rows: it goes idle too, and 00:20 leaves
      FlinkLiveJobs.await("window 00:20 once P0 too is idle", () -> RowFiles.read(idle, FOLDERS).get("windows")
          .containsKey(window("00:20")), job);
      Path noTimeout = dir.resolve("NoTimeout");
      FlinkLiveJobs.await("window 00:00 without the timeout", () -> RowFiles.read(noTimeout, FOLDERS).get("windows")
          .containsKey(window("00:00")), job);
      Thread.sleep(SETTLE_MILLIS);

      Map<String, Map<String, String>> came = RowFiles.read(idle, FOLDERS);
      assertThat(came.get("windows")).isEqualTo(Map.of(window("00:00"), window("00:00") + "|2",
          window("00:10"), window("00:10") + "|1", window("00:20"), window("00:20") + "|1"));
      assertThat(came.get("rejected")).isEmpty();
      Map<String, String> late = new java.util.HashMap<>(came.get("late"));
      String reason = late.remove(RowFiles.identity(1, 1));
      Matcher m = Pattern.compile(Pattern.quote(RowFiles.identity(1, 1) + "|partition 1, arrival 1: every window of event time "
          + at("00:15") + " had closed at watermark ") + "(.+)" + Pattern.quote(" (late policy window); that watermark is the"
          + " wall clock ") + "(.+)" + Pattern.quote(" less the delay, set by the idle timeout after partition 1 had no row for "
          + TIMEOUT_SECONDS + " s")).matcher(reason);
      assertThat(m.matches()).as(reason).isTrue();
      long watermark = PARSER.parse(m.group(1));
      long wallClock = PARSER.parse(m.group(2));
      assertThat(wallClock - watermark).as("the wall clock less the delay").isEqualTo(L5.delayMillis());
      assertThat(wallClock).as("today's wall clock").isGreaterThan(System.currentTimeMillis() - FlinkLiveJobs.WAIT_MILLIS * 2);
      assertThat(late).as("P0's rows of 00:02, late by P0's own watermark").isEqualTo(p0Late(keptAlive.size()));

      Map<String, Map<String, String>> without = RowFiles.read(noTimeout, FOLDERS);
      assertThat(without.get("windows")).as("without the timeout")
          .isEqualTo(Map.of(window("00:00"), window("00:00") + "|2"));
      assertThat(without.get("late")).isEqualTo(p0Late(keptAlive.size()));
      assertThat(RowFiles.conflicts(idle, FOLDERS)).isEmpty();
      assertThat(RowFiles.conflicts(noTimeout, FOLDERS)).isEmpty();
    } finally {
      FlinkLiveJobs.stop(job);
    }
  }

  /** One row of 00:02 to P0 of both topics, then a pause. */
  private static void keepP0Alive(List<String> keptAlive) throws InterruptedException {
    for (String topic : List.of("Idle", "NoTimeout")) {
      broker.produce(topic, 0, value("00:02"));
    }
    keptAlive.add("00:02");
    Thread.sleep(KEEP_ALIVE_MILLIS);
  }

  /** P0's {@code n} rows of 00:02 at offsets 3 and on, as RowFiles files them. */
  private static Map<String, String> p0Late(int n) {
    Map<String, String> late = new java.util.HashMap<>();
    for (int offset = 3; offset < 3 + n; offset++) {
      String id = RowFiles.identity(0, offset);
      late.put(id, id + "|partition 0, arrival " + offset + ": every window of event time " + at("00:02")
          + " had closed at watermark " + at("00:24") + " (late policy window)");
    }
    return late;
  }

  private void addStream(Pipeline p, String topic, boolean withTimeout) {
    KafkaRows.Result in = p.apply(topic + "-Read", KafkaRows.read().withBootstrapServers(broker.bootstrapServers())
        .withTopic(topic).withStartPosition(KafkaRows.EARLIEST).withSchema(SCHEMA));
    EventTimeWindow w = EventTimeWindow.of(L5).withTimeField("event_time")
        .withPartitionField(KafkaRows.PARTITION_FIELD).withPartitions(in.partitions());
    if (withTimeout) {
      w = w.withIdleTimeout(Duration.ofSeconds(TIMEOUT_SECONDS));
    }
    EventTimeWindowResult r = in.rows().apply(topic, w);
    Path out = dir.resolve(topic);
    r.windows().apply(topic + "-Windows", ParDo.of(new RowFiles(out.resolve("windows"), RowFiles.Kind.WINDOW, 0)));
    r.late().apply(topic + "-Late", ParDo.of(new RowFiles(out.resolve("late"), RowFiles.Kind.LATE, 0)));
    r.rejected().apply(topic + "-Rejected", ParDo.of(new RowFiles(out.resolve("rejected"), RowFiles.Kind.REJECTED, 0)));
  }

  private static String value(String hhmm) {
    return "{\"event_time\":\"" + at(hhmm) + "\"}";
  }

  /** Window {@code hhmm}'s identity as RowFiles names it: start and end. */
  private static String window(String hhmm) {
    long start = PARSER.parse(at(hhmm));
    return at(hhmm) + "|" + TimeText.format(start + 600_000);
  }

  private static String at(String hhmm) {
    return TimeText.format(java.time.Instant.parse("2026-03-01T" + hhmm + ":00Z").toEpochMilli());
  }
}
