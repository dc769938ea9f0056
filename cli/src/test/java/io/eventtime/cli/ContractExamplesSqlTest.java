package io.eventtime.cli;

import static io.eventtime.core.contract.WorkedExamples.A;
import static io.eventtime.core.contract.WorkedExamples.C;
import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.core.Stats;
import io.eventtime.core.TimeText;
import io.eventtime.core.contract.WorkedExamples.Case;
import io.eventtime.core.contract.WorkedExamples.Late;
import io.eventtime.core.contract.WorkedExamples.Window;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The worked examples A and C of the contract (semantics.md), through SQL, to the row; the
 * examples are the shared fixture {@code WorkedExamples}.
 */
class ContractExamplesSqlTest {
  @TempDir
  Path dir;

  private String exampleA() {
    String[] lines = new String[A.times().size()];
    for (int i = 0; i < lines.length; i++) {
      lines[i] = "{\"arrival\":" + (i + 1) + ",\"ts\":\"" + A.times().get(i) + "\"}";
    }
    return "file://" + Cli.write(dir, "events.ndjson", lines);
  }

  private Cli runA(String sql, String... more) {
    String[] args = new String[7 + more.length];
    args[0] = "--from";
    args[1] = exampleA();
    args[2] = "--watermark-delay";
    args[3] = A.delay();
    args[4] = "--late-policy";
    args[5] = A.policy();
    System.arraycopy(more, 0, args, 6, more.length);
    args[args.length - 1] = sql;
    Cli run = Cli.run(args);
    assertThat(run.status()).as(run.out() + run.err()).isZero();
    return run;
  }

  /** A line per window of {@code c} as {@code line} writes it, and the stats line last when {@code stats}. */
  private static List<String> printed(Case c, boolean stats, Function<Window, String> line) {
    List<String> lines = new ArrayList<>(c.windows().stream().map(line).toList());
    if (stats) {
      Stats s = c.stats();
      lines.add(Cli.stats(s.rowsIn(), s.rowsOut(), s.lateDropped(), s.windowsClosed(), s.rowsFolded(),
          s.rowsRejected()));
    }
    return lines;
  }

  private static String startAndEvents(Window w) {
    return "{\"window_start\":\"" + w.start() + "\",\"events\":" + w.count() + "}";
  }

  @Test
  void exampleA_tumbling() {
    Cli run = runA("SELECT TUMBLE(ts, INTERVAL 10 MINUTE) AS window_start, count(*) AS events FROM events"
        + " GROUP BY TUMBLE(ts, INTERVAL 10 MINUTE)");
    assertThat(run.out()).isEqualTo(printed(A.tumbling(), true, ContractExamplesSqlTest::startAndEvents));
  }

  @Test
  void exampleA_hopping() {
    Cli run = runA("SELECT HOP(ts, INTERVAL '5' MINUTE, INTERVAL '10' MINUTE) AS window_start, count(*) AS events"
        + " FROM events GROUP BY HOP(ts, INTERVAL '5' MINUTE, INTERVAL '10' MINUTE)");
    assertThat(run.out()).isEqualTo(printed(A.hopping(), true, ContractExamplesSqlTest::startAndEvents));
  }

  /** The seed's session table: window_end there is the last event time, which max(ts) gives. */
  @Test
  void exampleA_session() {
    Cli run = runA("SELECT SESSION(ts, INTERVAL '5 MINUTES') AS window_start, max(ts) AS window_end,"
        + " count(*) AS events FROM events GROUP BY SESSION(ts, INTERVAL '5 MINUTES')");
    long gap = A.session().gapMillis();
    assertThat(run.out()).isEqualTo(printed(A.session(), true, w -> "{\"window_start\":\"" + w.start()
        + "\",\"window_end\":\"" + TimeText.format(w.endMillis() - gap) + "\",\"events\":" + w.count() + "}"));
  }

  @Test
  void exampleA_sessionEndIsTheLastEventPlusTheGap() {
    Cli run = runA("SELECT SESSION(ts, INTERVAL 5 MINUTE), SESSION_END(ts, INTERVAL 5 MINUTE), count(*) AS events"
        + " FROM events GROUP BY SESSION(ts, INTERVAL 5 MINUTE)");
    assertThat(run.rows()).isEqualTo(printed(A.session(), false, w -> "{\"window_start\":\"" + w.start()
        + "\",\"window_end\":\"" + w.end() + "\",\"events\":" + w.count() + "}"));
  }

  @Test
  void exampleA_theLateRowGoesToTheLateOutputWithItsLineAndReason() throws IOException {
    Path late = dir.resolve("late.ndjson");
    runA("SELECT TUMBLE(ts, INTERVAL 10 MINUTE), count(*) AS events FROM events GROUP BY TUMBLE(ts, INTERVAL 10 MINUTE)",
        "--late-output", "file://" + late);
    assertThat(A.late()).hasSize(1);
    Late row = A.late().get(0);
    assertThat(Files.readAllLines(late)).containsExactly(
        "{\"source\":\"" + dir.resolve("events.ndjson") + "\",\"line\":" + row.arrival() + ",\"event_time\":\""
            + row.time() + "\",\"reason\":\"event time " + row.time() + " is behind the watermark " + row.watermark()
            + " (late policy " + A.policy() + ")\",\"row\":{\"arrival\":" + row.arrival() + ",\"ts\":\"" + row.time()
            + "\"}}");
  }

  private String exampleC() {
    return "file://" + Cli.write(dir, "events.ndjson", SeedPage.EVENTS);
  }

  @Test
  void exampleC_tumblingCountAndSum() {
    Cli run = Cli.run("--from", exampleC(), "SELECT merchant, TUMBLE(event_time, INTERVAL 1 MINUTE) AS window_start,"
        + " count(*) AS n, sum(amount) AS total FROM events GROUP BY merchant, TUMBLE(event_time, INTERVAL 1 MINUTE)");
    assertThat(run.out()).isEqualTo(SeedPage.lines(C.tumbling(), "window_start", "n", "total"));
  }

  /** The windows' lines of a case of C, without the stats line. */
  private static List<String> rows(Case c) {
    List<String> lines = SeedPage.lines(c, "window_start", "n");
    return lines.subList(0, lines.size() - 1);
  }

  @Test
  void exampleC_hopping() {
    Cli run = Cli.run("--from", exampleC(), "SELECT merchant, HOP(event_time, INTERVAL 30 SECONDS, INTERVAL 1 MINUTE),"
        + " count(*) AS n FROM events GROUP BY merchant, HOP(event_time, INTERVAL 30 SECONDS, INTERVAL 1 MINUTE)");
    assertThat(run.rows()).isEqualTo(rows(C.hopping()));
  }

  @Test
  void exampleC_session() {
    Cli run = Cli.run("--from", exampleC(), "SELECT merchant, SESSION(event_time, INTERVAL 1 MINUTE), count(*) AS n"
        + " FROM events GROUP BY merchant, SESSION(event_time, INTERVAL 1 MINUTE)");
    assertThat(run.rows()).isEqualTo(rows(C.session()));
  }
}
