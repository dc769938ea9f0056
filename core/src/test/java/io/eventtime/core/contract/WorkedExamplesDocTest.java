package io.eventtime.core.contract;

import static io.eventtime.core.contract.WorkedExamples.A;
import static io.eventtime.core.contract.WorkedExamples.B;
import static io.eventtime.core.contract.WorkedExamples.C;
import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.core.TimeText;
import io.eventtime.core.contract.WorkedExamples.Case;
import io.eventtime.core.contract.WorkedExamples.Window;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The page of the contract says what the shared fixture says: each worked example's input and
 * windows, written the way docs/semantics.md writes them, are found in its "Worked examples
 * (exact)" section (its lines joined, spaces collapsed).
 */
class WorkedExamplesDocTest {
  private static String section;
  private static List<String> lines;

  @BeforeAll
  static void readThePage() throws IOException {
    lines = Files.readAllLines(Path.of("../docs/semantics.md"));
    String page = String.join("\n", lines);
    String text = page.substring(page.indexOf("## Worked examples (exact)"));
    int next = text.indexOf("\n## ", 1);
    section = (next < 0 ? text : text.substring(0, next)).replaceAll("\\s+", " ");
  }

  /** A time of day as the page writes A and B's: 00:05, and "(the day before)" for the last day of February. */
  private static String minute(String time) {
    return time.substring(11, 16) + (time.startsWith("2026-02-28") ? " (the day before)" : "");
  }

  private static String minutes(long millis) {
    return millis / 60_000 + " min";
  }

  private static String joined(List<Window> windows, String separator, Function<Window, String> each) {
    return windows.stream().map(each).collect(Collectors.joining(separator));
  }

  @Test
  void exampleA() {
    assertThat(section).contains("Arrivals (event times, all on 2026-03-01): "
        + A.times().stream().map(WorkedExamplesDocTest::minute).collect(Collectors.joining(", ")) + ".");
    assertThat(A.late()).singleElement().satisfies(late -> assertThat(section).contains(
        "(" + minute(late.time()) + ") is late: the watermark before it is ", " = " + minute(late.watermark()) + "."));
    Case tumbling = A.tumbling();
    assertThat(section).contains("Tumbling " + minutes(tumbling.sizeMillis()) + ": "
        + joined(tumbling.windows(), ", ", w -> minute(w.start()) + " -> " + w.count()) + ".");
    Case hopping = A.hopping();
    assertThat(section).contains("Hopping " + minutes(hopping.sizeMillis()) + " every "
        + minutes(hopping.slideMillis()) + ": " + joined(hopping.windows(), ", ", w -> minute(w.start()) + " -> "
        + w.count()) + ".");
    Case session = A.session();
    // the page gives a session's last event: its end less the gap
    assertThat(section).contains("Session gap " + minutes(session.gapMillis()) + ": "
        + joined(session.windows(), "; ", w -> "start " + minute(w.start()) + ", last event "
        + minute(TimeText.format(w.endMillis() - session.gapMillis())) + ", " + w.count() + " rows") + ".");
  }

  @Test
  void exampleB() {
    WorkedExamples.Run run1 = B.run1();
    WorkedExamples.Run run2 = B.run2();
    assertThat(section).contains("Run 1 arrivals: " + String.join(", ", run1.minutes()) + ".");
    assertThat(section).contains("It emits window " + joined(run1.windows(), ", ", w -> minute(w.start())
        + " with " + w.count() + " rows") + "; the stored watermark is " + minute(run1.watermark())
        + "; the open window " + joined(run1.open(), ", ", w -> minute(w.start())) + " holds ");
    assertThat(section).contains("Run 2 arrivals: " + String.join(", ", run2.minutes()) + ". "
        + run2.late().stream().map(l -> minute(l.time())).collect(Collectors.joining(" and "))
        + " are late (behind " + minute(run2.late().get(0).watermark()) + ").");
    assertThat(section).contains("The watermark moves to " + minute(run2.watermark()) + "; run 2 emits window "
        + joined(run2.windows(), ", ", w -> minute(w.start()) + " with " + w.count() + " rows"));
    assertThat(section).contains("the stored state holds window " + joined(run2.open(), ", ", w -> minute(w.start()))
        + " with ", "and watermark " + minute(run2.watermark()) + ".");
    assertThat(run1.open()).singleElement().extracting(Window::count).isEqualTo(2L);
    assertThat(run2.open()).singleElement().extracting(Window::count).isEqualTo(2L);
  }

  @Test
  void exampleC() {
    int file = lines.indexOf("### C. Per-key windows, delay 0, policy `window` (file `events.ndjson`)");
    assertThat(file).isNotNegative();
    int open = lines.subList(file, lines.size()).indexOf("```") + file;
    assertThat(lines.subList(open + 1, open + 1 + C.lines().size())).isEqualTo(C.lines());
    assertThat(lines.get(open + 1 + C.lines().size())).isEqualTo("```");

    Case tumbling = C.tumbling();
    assertThat(section).contains("TUMBLE " + minutes(tumbling.sizeMillis()) + " by " + C.keyField()
        + ", count and sum(amount): " + joined(tumbling.windows(), "; ", w -> w.key() + " " + w.startTime() + " "
        + w.values().stream().map(String::valueOf).collect(Collectors.joining(" "))) + ".");
    assertThat(section).contains("Stats: rows_in " + tumbling.stats().rowsIn() + ", rows_out "
        + tumbling.stats().rowsOut() + ", late_dropped " + tumbling.stats().lateDropped() + ", windows_closed "
        + tumbling.stats().windowsClosed() + ", rows_folded " + tumbling.stats().rowsFolded() + ".");
    Case hopping = C.hopping();
    assertThat(section).contains("HOP slide " + hopping.slideMillis() / 1000 + " s, size "
        + minutes(hopping.sizeMillis()) + ", count: " + joined(hopping.windows(), "; ", w -> w.key() + " "
        + w.startTime() + " " + w.count()) + " (five rows in, nine out).");
    assertThat(hopping.windows()).hasSize(9);
    assertThat(C.lines()).hasSize(5);
    Case session = C.session();
    assertThat(section).contains("SESSION gap " + minutes(session.gapMillis()) + ", count: "
        + joined(session.windows(), "; ", w -> w.key() + " " + w.startTime() + " " + w.count()) + ".");
  }
}
