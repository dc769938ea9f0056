package io.eventtime.samples;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.core.Key;
import io.eventtime.core.TimeText;
import io.eventtime.core.WindowProcessor;
import io.eventtime.testing.kafka.KafkaBroker;
import io.eventtime.testing.kafka.SampleFeed;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.jupiter.api.Test;

/**
 * The live sample against a real broker: the sample feed's first orders, produced while the job
 * runs, print exactly the windows their last watermark closes and the late rows, each once (what
 * core's {@link WindowProcessor} gives over the same orders without the end of input); the
 * windows still open are not printed.
 */
class LiveMerchantMinutesTest {
  private static final int ORDERS = 60;
  /** How long the lines may take to come; a bound on waiting, not an assertion on speed. */
  private static final long WAIT_MILLIS = 60_000;
  /** After the expected lines came, how long a second print or an open window would have to show. */
  private static final long SETTLE_MILLIS = 3_000;

  @Test
  void printsEachWindowAsItClosesAndTheLateRows() throws Exception {
    List<String> expected = expected();
    assertThat(expected).anyMatch(l -> l.startsWith("late ")).anyMatch(l -> l.startsWith("{"));
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    PrintStream stdout = System.out;
    try (KafkaBroker broker = KafkaBroker.start()) {
      broker.createTopic(SampleFeed.TOPIC, 1);
      System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
      PipelineResult job = LiveMerchantMinutes.start(PipelineOptionsFactory
          .fromArgs("--bootstrapServers=" + broker.bootstrapServers(), "--topic=" + SampleFeed.TOPIC)
          .as(LiveMerchantMinutes.Options.class));
      try {
        for (int offset = 0; offset < ORDERS; offset++) {
          broker.produce(SampleFeed.TOPIC, 0, SampleFeed.value(offset));
          Thread.sleep(20);
        }
        long deadline = System.currentTimeMillis() + WAIT_MILLIS;
        while (!lines(printed).containsAll(expected)) {
          if (System.currentTimeMillis() > deadline) {
            throw new AssertionError("within " + WAIT_MILLIS / 1000 + " s the sample printed " + lines(printed)
                + "; expected " + expected);
          }
          Thread.sleep(200);
        }
        Thread.sleep(SETTLE_MILLIS);
      } finally {
        job.cancel();
      }
    } finally {
      System.setOut(stdout);
    }
    assertThat(lines(printed)).containsExactlyInAnyOrderElementsOf(expected);
  }

  private static List<String> lines(ByteArrayOutputStream printed) {
    return printed.toString(StandardCharsets.UTF_8).lines().toList();
  }

  /** Core's answer over the same orders in offset order, without the end of input, in the sample's lines. */
  private static List<String> expected() {
    List<String> lines = new ArrayList<>();
    WindowProcessor p = new WindowProcessor(LiveMerchantMinutes.query(), w -> lines.add(String.format(
        "{\"merchant\":\"%s\",\"window_start\":\"%s\",\"window_end\":\"%s\",\"n\":%s,\"total\":%s}",
        w.key().get(0), TimeText.format(w.start()), TimeText.format(w.end()), w.values()[0], w.values()[1])));
    for (int offset = 0; offset < ORDERS; offset++) {
      long ts = SampleFeed.eventTime(offset).toEpochMilli();
      if (!p.process(Key.of(SampleFeed.merchant(offset)), ts, new Object[] {null, SampleFeed.amount(offset)})) {
        lines.add("late arrival " + offset + ": " + p.lateReason(ts));
      }
    }
    return lines;
  }
}
