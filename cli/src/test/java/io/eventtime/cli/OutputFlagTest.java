package io.eventtime.cli;

import static io.eventtime.core.contract.WorkedExamples.B;
import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.core.contract.WorkedExamples.Window;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** --output over files: the window rows to a file, the stats line on stdout; appended under a state. */
class OutputFlagTest {
  private static final String SQL = "SELECT TUMBLE(ts, INTERVAL 10 MINUTE) AS window_start, count(*) AS events"
      + " FROM events GROUP BY TUMBLE(ts, INTERVAL 10 MINUTE)";

  @TempDir
  Path dir;

  private Path arrivals(String name, List<String> times) {
    return Cli.write(dir, name, times.stream().map(t -> "{\"ts\":\"" + t + "\"}").toArray(String[]::new));
  }

  private static List<String> rows(List<Window> windows) {
    return windows.stream().map(w -> "{\"window_start\":\"" + w.start() + "\",\"events\":" + w.count() + "}").toList();
  }

  private Cli run(Path input, Path output, String... more) {
    List<String> args = new ArrayList<>(List.of("--from", input.toString(), "--table", "events", "--watermark-delay",
        B.delay(), "--late-policy", B.policy(), "--output", output.toString()));
    args.addAll(List.of(more));
    args.add(SQL);
    return Cli.run(args.toArray(String[]::new));
  }

  @Test
  void exampleB_withState_appendsEachRunsWindowsToTheFile_andPrintsOnlyTheStats() throws IOException {
    Path output = dir.resolve("windows.ndjson");
    Path state = dir.resolve("state");
    Cli run1 = run(arrivals("run1.ndjson", B.run1().times()), output, "--state", state.toString());
    assertThat(run1.out()).hasSize(1).allMatch(l -> l.startsWith("{\"stats\":"));
    assertThat(Files.readAllLines(output)).isEqualTo(rows(B.run1().windows()));

    Cli run2 = run(arrivals("run2.ndjson", B.run2().times()), output, "--state", state.toString());
    assertThat(run2.out()).hasSize(1).allMatch(l -> l.startsWith("{\"stats\":"));
    List<String> both = new ArrayList<>(rows(B.run1().windows()));
    both.addAll(rows(B.run2().windows()));
    assertThat(Files.readAllLines(output)).isEqualTo(both);
  }

  @Test
  void withoutState_theFileHoldsThisRunsRowsOnly_asStdoutWould() throws IOException {
    Path input = arrivals("run1.ndjson", B.run1().times());
    Path output = Cli.write(dir, "windows.ndjson", "an older line");
    Cli toFile = run(input, output);
    Cli toStdout = Cli.run("--from", input.toString(), "--table", "events", "--watermark-delay", B.delay(),
        "--late-policy", B.policy(), SQL);
    assertThat(Files.readAllLines(output)).isEqualTo(toStdout.rows());
    assertThat(toFile.out()).containsExactly(toStdout.last());
  }

  @Test
  void refusesAnOutputThatIsTheInputOrAnotherOutput() {
    Path input = arrivals("run1.ndjson", B.run1().times());
    Cli same = run(input, input);
    assertThat(same.status()).isEqualTo(2);
    assertThat(same.last()).contains("--output " + input + " is the input");
    Path late = dir.resolve("late.ndjson");
    Cli clash = run(input, late, "--late-output", late.toString());
    assertThat(clash.last()).contains("--output " + late + " and --late-output " + late + " name one file");
    assertThat(Cli.run("--runner", "direct", "--from", input.toString(), "--output", late.toString(), SQL).last())
        .contains("--output goes with the local runner for now");
  }
}
