package io.eventtime.cli.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.eventtime.cli.plan.PlanRows;
import io.eventtime.cli.plan.QueryPlan;
import io.eventtime.cli.source.LineFeed;
import io.eventtime.cli.sql.Schema;
import io.eventtime.cli.sql.SqlPlanner;
import io.eventtime.core.ndjson.MalformedLineException;
import io.eventtime.core.ndjson.NdjsonLines;
import io.eventtime.core.ndjson.SchemaInference;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

/**
 * The batches of {@link ParsedLines} come back in the order the lines were read, each line once,
 * parsed, whichever thread parsed it (a parse thread, or the caller while it waits), and a
 * failure of the source comes out after the whole batches read before it.
 */
class ParsedLinesTest {
  private static final int LINES = 25_000; // about a dozen batches
  private static final QueryPlan PLAN = plan();

  private static QueryPlan plan() {
    SchemaInference inference = new SchemaInference();
    try {
      inference.observe(NdjsonLines.parse(line(1)));
    } catch (MalformedLineException e) {
      throw new AssertionError(e);
    }
    return SqlPlanner.bind(SqlPlanner.parse("SELECT k, TUMBLE(t, INTERVAL 1 MINUTE) AS w, sum(v) AS s FROM events"
        + " GROUP BY k, TUMBLE(t, INTERVAL 1 MINUTE)"), "events", new Schema(inference, 1, "one row"));
  }

  /** Line n: a row of key k(n % 7) and value n, every 1,000th line's time not a time (rejected). */
  private static String line(long n) {
    String time = n % 1000 == 0 ? "soon" : String.format("2026-07-18 10:%02d:%02d", n / 60 % 60, n % 60);
    return "{\"t\":\"" + time + "\",\"k\":\"k" + n % 7 + "\",\"v\":" + n + "}";
  }

  /** The lines 1..count, as a file's; then {@code failure}, if any, instead of the end. */
  private static LineFeed feed(long count, RuntimeException failure) {
    return new LineFeed() {
      private long number;
      private byte[] bytes;

      @Override
      public boolean next() {
        if (number == count) {
          if (failure != null) {
            throw failure;
          }
          return false;
        }
        bytes = line(++number).getBytes(StandardCharsets.UTF_8);
        return true;
      }

      @Override
      public String source() {
        return "events.ndjson";
      }

      @Override
      public long lineNumber() {
        return number;
      }

      @Override
      public byte[] buffer() {
        return bytes;
      }

      @Override
      public int offset() {
        return 0;
      }

      @Override
      public int length() {
        return bytes.length;
      }
    };
  }

  /** Reads every batch, slowly now and then so that the parse threads get ahead or fall behind. */
  private static List<Long> readAll(ParsedLines parsed, List<Long> rejected) throws InterruptedException {
    List<Long> numbers = new ArrayList<>();
    ParsedLines.Batch batch;
    int batches = 0;
    while ((batch = parsed.next()) != null) {
      for (int i = 0; i < batch.size; i++) {
        numbers.add(batch.numbers[i]);
        if (batch.outcomes[i] == PlanRows.Outcome.REJECTED) {
          rejected.add(batch.numbers[i]);
        } else {
          assertThat(batch.outcomes[i]).isEqualTo(PlanRows.Outcome.ROW);
          assertThat(batch.inputs[i * batch.width]).as("line %d", batch.numbers[i]).isEqualTo(batch.numbers[i]);
        }
      }
      if (++batches % 3 == 0) {
        Thread.sleep(5);
      }
    }
    return numbers;
  }

  @RepeatedTest(5)
  void everyLineOnceInOrderParsed() throws Exception {
    List<Long> rejected = new ArrayList<>();
    List<Long> numbers;
    try (ParsedLines parsed = ParsedLines.start(PLAN, feed(LINES, null))) {
      numbers = readAll(parsed, rejected);
    }
    assertThat(numbers).hasSize(LINES);
    for (int i = 0; i < LINES; i++) {
      assertThat(numbers.get(i)).isEqualTo(i + 1L);
    }
    List<Long> expected = new ArrayList<>();
    for (long n = 1000; n <= LINES; n += 1000) {
      expected.add(n);
    }
    assertThat(rejected).isEqualTo(expected);
  }

  @Test
  void aFailureOfTheSourceComesAfterTheLinesReadBeforeIt() throws Exception {
    IllegalStateException failure = new IllegalStateException("the disk went away");
    List<Long> numbers = new ArrayList<>();
    try (ParsedLines parsed = ParsedLines.start(PLAN, feed(LINES, failure))) {
      assertThatThrownBy(() -> {
        ParsedLines.Batch batch;
        while ((batch = parsed.next()) != null) {
          for (int i = 0; i < batch.size; i++) {
            numbers.add(batch.numbers[i]);
          }
        }
      }).isSameAs(failure);
    }
    // every whole batch read before the failure (a batch holds at most 2,048 lines), in order
    assertThat(numbers.size()).isGreaterThan(LINES - 2048);
    for (int i = 0; i < numbers.size(); i++) {
      assertThat(numbers.get(i)).isEqualTo(i + 1L);
    }
  }
}
