package io.eventtime.samples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The README's main job prints the contract's example C tumbling rows and stats. */
class MerchantMinutesTest {
  @Test
  void printsTheWindowsInCloseOrderAndTheStats() throws Exception {
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    MerchantMinutes.run(Path.of("data/events.ndjson").toAbsolutePath().toString(), new String[0],
        new PrintStream(buffer, true, StandardCharsets.UTF_8));
    assertThat(buffer.toString(StandardCharsets.UTF_8).lines()).containsExactly(
        "{\"merchant\":\"acme\",\"window_start\":\"2026-07-18 10:00:00\",\"window_end\":\"2026-07-18 10:01:00\",\"n\":1,\"total\":250}",
        "{\"merchant\":\"globex\",\"window_start\":\"2026-07-18 10:00:00\",\"window_end\":\"2026-07-18 10:01:00\",\"n\":1,\"total\":42}",
        "{\"merchant\":\"acme\",\"window_start\":\"2026-07-18 10:01:00\",\"window_end\":\"2026-07-18 10:02:00\",\"n\":2,\"total\":1090}",
        "{\"merchant\":\"globex\",\"window_start\":\"2026-07-18 10:02:00\",\"window_end\":\"2026-07-18 10:03:00\",\"n\":1,\"total\":7}",
        "{\"stats\":{\"rows_in\":5,\"rows_out\":4,\"late_dropped\":0,\"windows_closed\":3,\"rows_folded\":5,\"rows_rejected\":0}}");
  }
}
