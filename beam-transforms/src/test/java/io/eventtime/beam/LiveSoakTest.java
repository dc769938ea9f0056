package io.eventtime.beam;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.core.Stats;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.Partition;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionList;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TimestampedValue;
import org.junit.jupiter.api.Test;

/**
 * The soak of issue 11 on the DirectRunner: thousands of random one-partition streams with late
 * and unreadable rows, live (TestStream: random bundles, out of order between watermark advances,
 * then the drain) equal to the replay, each stream to core's processor over its own rows. The
 * streams ride {@link SoakStreams}' families, one {@link EventTimeWindow} per family, the families'
 * rows interleaved at random in one TestStream, up to {@value #STREAMS_PER_PIPELINE} streams to a
 * pipeline. {@value #STREAMS_PROPERTY} sets how many streams (default {@value #DEFAULT_STREAMS};
 * {@code scripts/live-soak.sh direct N} runs N).
 */
class LiveSoakTest {
  static final String STREAMS_PROPERTY = "eventtime.live.soak.streams";
  static final int DEFAULT_STREAMS = 24;
  private static final int STREAMS_PER_PIPELINE = 1200;
  /**
   * Watermark advances per pipeline, 20 and one more for every 10 streams: an advance costs the
   * DirectRunner a round over every family's key buckets, whatever the number of rows.
   */
  private static int advances(int streams) {
    return 20 + streams / 10;
  }
  private static final Schema SCHEMA = Schema.builder().addFields(SoakStreams.VALUES.getFields())
      .addInt64Field(EventTimeWindow.DEFAULT_ARRIVAL_FIELD).build();
  private static final Map<String, Queue<String>> GATHERED = new ConcurrentHashMap<>();

  @Test
  void thousandsOfRandomLiveStreamsGiveTheReplaysRows() {
    int streams = Integer.getInteger(STREAMS_PROPERTY, DEFAULT_STREAMS);
    Random random = new Random(20261203);
    long late = 0;
    long rejected = 0;
    for (int first = 0; first < streams; first += STREAMS_PER_PIPELINE) {
      Stats total = run(SoakStreams.generate(Math.min(STREAMS_PER_PIPELINE, streams - first), random), random);
      late += total.lateDropped();
      rejected += total.rowsRejected();
    }
    assertThat(late).as("the streams have late rows").isPositive();
    assertThat(rejected).as("the streams have rejected rows").isPositive();
  }

  /** Runs the families in one pipeline, asserts each stream and each family's stats, and returns the stats summed. */
  private static Stats run(List<SoakStreams.Family> families, Random random) {
    String run = UUID.randomUUID().toString();
    GATHERED.put(run, new ConcurrentLinkedQueue<>());
    Map<Long, List<String>> expected = new TreeMap<>();
    List<Stats> familyStats = new ArrayList<>();
    List<List<Row>> rows = new ArrayList<>();
    for (SoakStreams.Family f : families) {
      familyStats.add(SoakStreams.checkIndependence(f, 1, true));
      List<SoakStreams.Answer> answers = SoakStreams.expected(f, 1, true);
      for (int s = 0; s < answers.size(); s++) {
        expected.put(f.streams().get(s).get(0).stream(), texts(answers.get(s)));
      }
      List<Row> familyRows = new ArrayList<>();
      long position = 1;
      for (SoakStreams.Value v : f.values()) {
        familyRows.add(v.row(SCHEMA, position++));
      }
      rows.add(familyRows);
    }
    List<TimestampedValue<Row>> arrivals = LiveStreams.stamped(interleave(rows, random), random, 8);
    Pipeline p = LiveWindowExamplesTest.pipeline();
    PCollection<Row> live = p.apply("Live", LiveStreams.shuffled(SCHEMA, arrivals, random,
        Math.max(20, arrivals.size() / advances(expected.size())), 40));
    PCollectionList<Row> byFamily = live.apply("ByFamily", Partition.of(SoakStreams.FAMILIES,
        (Row r, int n) -> (int) (r.getInt64(SoakStreams.STREAM_FIELD) % n)));
    for (SoakStreams.Family f : families) {
      EventTimeWindowResult r = byFamily.get(f.id()).apply(name(f), f.transform());
      r.windows().apply(name(f) + "-Windows", ParDo.of(new GatherFn(run, GatherFn.WINDOW)));
      r.late().apply(name(f) + "-Late", ParDo.of(new GatherFn(run, GatherFn.LATE)));
      r.rejected().apply(name(f) + "-Rejected", ParDo.of(new GatherFn(run, GatherFn.REJECTED)));
    }
    PipelineResult result = p.run();
    result.waitUntilFinish();

    Map<Long, List<String>> came = new TreeMap<>();
    for (String line : GATHERED.remove(run)) {
      long stream = Long.parseLong(line.substring(0, line.indexOf(' ')));
      came.computeIfAbsent(stream, s -> new ArrayList<>()).add(line.substring(line.indexOf(' ') + 1));
    }
    came.values().forEach(l -> l.sort(null));
    List<Long> differ = expected.keySet().stream()
        .filter(s -> !expected.get(s).equals(came.getOrDefault(s, List.of()))).toList();
    assertThat(differ).as("streams whose live rows differ from the replay's; the first: expected %s, came %s",
        differ.isEmpty() ? null : expected.get(differ.get(0)),
        differ.isEmpty() ? null : came.get(differ.get(0))).isEmpty();
    assertThat(came.keySet()).as("streams with outputs").isSubsetOf(expected.keySet());
    long late = 0;
    long rejected = 0;
    for (int i = 0; i < families.size(); i++) {
      assertThat(EventTimeMetrics.stats(result, name(families.get(i)))).as(name(families.get(i)))
          .isEqualTo(familyStats.get(i));
      late += familyStats.get(i).lateDropped();
      rejected += familyStats.get(i).rowsRejected();
    }
    return new Stats(0, 0, late, 0, 0, rejected);
  }

  private static String name(SoakStreams.Family f) {
    return String.format("Family-%02d", f.id());
  }

  /** A stream's answer as the lines {@link GatherFn} writes, sorted. */
  private static List<String> texts(SoakStreams.Answer a) {
    List<String> lines = new ArrayList<>();
    a.windows().forEach(w -> lines.add("window " + w));
    a.late().forEach((position, reason) -> lines.add("late " + position + "|" + reason));
    a.rejected().forEach(position -> lines.add("rejected " + position));
    lines.sort(null);
    return lines;
  }

  /** The families' rows merged at random, each family's in its order. */
  private static List<Row> interleave(List<List<Row>> families, Random random) {
    List<Row> merged = new ArrayList<>();
    int[] next = new int[families.size()];
    int left = families.stream().mapToInt(List::size).sum();
    while (left > 0) {
      int f = random.nextInt(families.size());
      if (next[f] < families.get(f).size()) {
        merged.add(families.get(f).get(next[f]++));
        left--;
      }
    }
    return merged;
  }

  /** Keeps each output as a line {@code <stream> <kind> <text>} for the run. */
  private static final class GatherFn extends DoFn<Row, Void> {
    static final String WINDOW = "window";
    static final String LATE = "late";
    static final String REJECTED = "rejected";
    private final String run;
    private final String kind;

    GatherFn(String run, String kind) {
      this.run = run;
      this.kind = kind;
    }

    @ProcessElement
    public void process(@Element Row r) {
      String line;
      long stream;
      if (kind.equals(WINDOW)) {
        stream = r.getInt64(SoakStreams.STREAM_FIELD);
        line = ConformanceSuite.formatRow(r);
      } else {
        Row input = r.getRow(ProblemRows.ROW);
        stream = input.getInt64(SoakStreams.STREAM_FIELD);
        long position = input.getInt64(EventTimeWindow.DEFAULT_ARRIVAL_FIELD);
        line = kind.equals(LATE) ? position + "|" + r.getString(ProblemRows.REASON) : String.valueOf(position);
      }
      GATHERED.get(run).add(stream + " " + kind + " " + line);
    }
  }
}
