package io.eventtime.beam;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.testing.kafka.KafkaBroker;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.transforms.ParDo;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The soak of issue 11 on embedded Flink streaming: thousands of random one-partition streams
 * with late and unreadable rows, produced to Kafka while the job runs, equal to the replay, each
 * stream to core's processor over its own rows. The streams ride {@link SoakStreams}' families: a
 * one-partition topic and an {@link EventTimeWindow} per family, its streams one after the other
 * in the topic, the families' rows produced interleaved at random. A live stream never ends, so
 * each family's last stream is expected without the end of input (the windows its last watermark
 * closes); every earlier stream whole, its windows closed by the next one. {@value
 * #STREAMS_PROPERTY} sets how many streams (default {@value #DEFAULT_STREAMS}; {@code
 * scripts/live-soak.sh flink N} runs N).
 */
class FlinkLiveSoakTest {
  static final String STREAMS_PROPERTY = "eventtime.flink.live.soak.streams";
  static final int DEFAULT_STREAMS = 24;
  /** Values produced to one topic at a time, then a pause: the rows trickle in while the job runs. */
  private static final int PRODUCE_BATCH = 20;
  private static final long PRODUCE_PAUSE_MILLIS = 5;
  /** After the expected rows came, how long a second emission would have to show. */
  private static final long SETTLE_MILLIS = 3_000;
  /** A bound on waiting for the outputs, which grows with the streams; not an assertion on speed. */
  private static final long WAIT_MILLIS_PER_STREAM = 1_000;
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
  void thousandsOfRandomStreamsProducedWhileTheJobRuns_giveTheReplaysRows() throws Exception {
    int streams = Integer.getInteger(STREAMS_PROPERTY, DEFAULT_STREAMS);
    List<SoakStreams.Family> families = SoakStreams.generate(streams, new Random(20261203));
    Random random = new Random(20261204);
    List<Map<String, Map<String, String>>> expected = new ArrayList<>();
    long late = 0;
    long rejected = 0;
    Pipeline p = Pipeline.create(FlinkLiveJobs.options(dir.resolve("checkpoints")));
    for (SoakStreams.Family f : families) {
      SoakStreams.checkIndependence(f, 0, false);
      Map<String, Map<String, String>> files = files(SoakStreams.expected(f, 0, false));
      expected.add(files);
      late += files.get("late").size();
      rejected += files.get("rejected").size();
      String topic = topic(f);
      broker.createTopic(topic, 1);
      KafkaRows.Result in = p.apply(topic + "-Read", KafkaRows.read().withBootstrapServers(broker.bootstrapServers())
          .withTopic(topic).withStartPosition(KafkaRows.EARLIEST).withSchema(SoakStreams.VALUES));
      EventTimeWindowResult r = in.rows().apply(topic, f.transform());
      Path out = dir.resolve(topic);
      int keys = f.query().keyFields().size();
      r.windows().apply(topic + "-Windows", ParDo.of(new RowFiles(out.resolve("windows"), RowFiles.Kind.WINDOW, keys)));
      r.late().apply(topic + "-Late", ParDo.of(new RowFiles(out.resolve("late"), RowFiles.Kind.LATE, keys)));
      r.rejected().apply(topic + "-Rejected", ParDo.of(new RowFiles(out.resolve("rejected"), RowFiles.Kind.REJECTED, keys)));
      in.rejected().apply(topic + "-ReadRejected", ParDo.of(new RowFiles(out.resolve("read-rejected"),
          RowFiles.Kind.READ_REJECTED, keys)));
    }
    assertThat(late).as("the streams have late rows").isPositive();
    assertThat(rejected).as("the streams have rows without a usable time").isPositive();

    PipelineResult job = p.run();
    try {
      produceInterleaved(families, random);
      long deadline = System.currentTimeMillis() + FlinkLiveJobs.WAIT_MILLIS + WAIT_MILLIS_PER_STREAM * streams;
      for (int i = 0; i < families.size(); i++) {
        Path out = dir.resolve(topic(families.get(i)));
        Map<String, Map<String, String>> want = expected.get(i);
        while (!allCounted(out, want)) {
          if (System.currentTimeMillis() > deadline || job.getState().isTerminal()) {
            throw new AssertionError(topic(families.get(i)) + "'s outputs did not all come, with the job "
                + job.getState() + ": " + counts(out) + " of " + sizes(want));
          }
          Thread.sleep(500);
        }
      }
      Thread.sleep(SETTLE_MILLIS);
      for (int i = 0; i < families.size(); i++) {
        SoakStreams.Family f = families.get(i);
        Path out = dir.resolve(topic(f));
        Map<String, Map<String, String>> came = RowFiles.read(out, FOLDERS);
        for (String folder : FOLDERS) {
          assertThat(came.get(folder)).as("%s %s (query %s)", topic(f), folder, f.query())
              .isEqualTo(expected.get(i).get(folder));
        }
        assertThat(RowFiles.conflicts(out, FOLDERS)).as("%s: a row emitted twice, differing", topic(f)).isEmpty();
        assertThat(RowFiles.read(out, List.of("read-rejected")).get("read-rejected")).isEmpty();
      }
    } finally {
      FlinkLiveJobs.stop(job);
    }
  }

  private static String topic(SoakStreams.Family f) {
    return String.format("Soak-%02d", f.id());
  }

  /** The streams' answers as the files RowFiles writes: identity to content, by folder. */
  private static Map<String, Map<String, String>> files(List<SoakStreams.Answer> answers) {
    Map<String, String> windows = new HashMap<>();
    Map<String, String> late = new HashMap<>();
    Map<String, String> rejected = new HashMap<>();
    for (SoakStreams.Answer a : answers) {
      for (String w : a.windows()) {
        String[] fields = w.split("\\|", -1);
        windows.put(String.join("|", fields[0], fields[1], fields[2], fields[3]), w);
      }
      a.late().forEach((offset, reason) -> late.put(RowFiles.identity(0, offset), RowFiles.identity(0, offset) + "|" + reason));
      a.rejected().forEach(offset -> rejected.put(RowFiles.identity(0, offset), RowFiles.identity(0, offset)));
    }
    return Map.of("windows", windows, "late", late, "rejected", rejected);
  }

  /** Whether each folder has as many files as expected (the comparison of the texts comes after). */
  private static boolean allCounted(Path out, Map<String, Map<String, String>> want) {
    Map<String, Long> counts = counts(out);
    return FOLDERS.stream().allMatch(f -> counts.get(f) >= want.get(f).size());
  }

  private static Map<String, Long> counts(Path out) {
    Map<String, Long> counts = new HashMap<>();
    for (String folder : FOLDERS) {
      Path d = out.resolve(folder);
      long n = 0;
      if (Files.isDirectory(d)) {
        try (Stream<Path> list = Files.list(d)) {
          n = list.filter(f -> f.toString().endsWith(".row")).count();
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
      counts.put(folder, n);
    }
    return counts;
  }

  private static Map<String, Integer> sizes(Map<String, Map<String, String>> want) {
    Map<String, Integer> sizes = new HashMap<>();
    want.forEach((folder, files) -> sizes.put(folder, files.size()));
    return sizes;
  }

  /** Each family's values in order, in batches to its topic, the families merged at random. */
  private static void produceInterleaved(List<SoakStreams.Family> families, Random random) throws InterruptedException {
    List<List<String>> values = new ArrayList<>();
    for (SoakStreams.Family f : families) {
      values.add(f.values().stream().map(SoakStreams.Value::json).toList());
    }
    int[] next = new int[families.size()];
    int left = values.stream().mapToInt(List::size).sum();
    while (left > 0) {
      int f = random.nextInt(families.size());
      List<String> v = values.get(f);
      if (next[f] < v.size()) {
        int end = Math.min(v.size(), next[f] + 1 + random.nextInt(PRODUCE_BATCH));
        broker.produce(topic(families.get(f)), 0, v.subList(next[f], end).toArray(String[]::new));
        left -= end - next[f];
        next[f] = end;
        Thread.sleep(PRODUCE_PAUSE_MILLIS);
      }
    }
  }
}
