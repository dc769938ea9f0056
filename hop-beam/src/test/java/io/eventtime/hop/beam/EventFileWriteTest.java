package io.eventtime.hop.beam;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.coders.RowCoder;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TimestampedValue;
import org.joda.time.Instant;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Event File Output on a live stream: rows ranked with no gap (an Event Time Window's) that come
 * in another order are written in rank order; other rows in the order they come.
 */
class EventFileWriteTest {
  private static final Instant T0 = Instant.parse("2026-07-18T10:00:00Z");

  @TempDir
  Path dir;

  @BeforeAll
  static void hop() {
    HopBeamTesting.initHop();
  }

  @Test
  void rankedRowsThatComeOutOfOrderAreWrittenInRankOrder() throws Exception {
    assertThat(writeLive(true)).containsExactly("{\"merchant\":\"a\"}", "{\"merchant\":\"b\"}",
        "{\"merchant\":\"c\"}", "{\"merchant\":\"d\"}");
  }

  @Test
  void rowsNotRankedAreWrittenAsTheyCome() throws Exception {
    assertThat(writeLive(false)).containsExactly("{\"merchant\":\"c\"}", "{\"merchant\":\"b\"}",
        "{\"merchant\":\"a\"}", "{\"merchant\":\"d\"}");
  }

  /** Rows ranked 2, 1, 0, 3 (merchants c, b, a, d), each in a bundle of its own, through a live write. */
  private List<String> writeLive(boolean ranked) throws Exception {
    Path file = dir.resolve("windows.ndjson");
    TestPipelines hop = new TestPipelines("live write");
    hop.add("Write", TestPipelines.output(file));
    HopContext context = hop.context();
    RowLayout layout = TestPipelines.stringLayout("merchant");
    TestStream.Builder<Row> stream = TestStream.create(RowCoder.of(layout.schema()));
    String[] merchants = {"c", "b", "a", "d"};
    long[] ranks = {2, 1, 0, 3};
    for (int i = 0; i < merchants.length; i++) {
      stream = stream.addElements(TimestampedValue.of(
              layout.toBeam(new Object[] {merchants[i]}, ranks[i]), T0.plus(i)))
          .advanceWatermarkTo(T0.plus(i + 1));
    }
    Pipeline beam = Pipeline.create(PipelineOptionsFactory.fromArgs("--runner=DirectRunner", "--streaming").create());
    beam.apply(stream.advanceWatermarkToInfinity())
        .apply(new EventFileWrite(context, "Write", layout, ranked));
    beam.run().waitUntilFinish();
    return Files.readAllLines(file);
  }
}
