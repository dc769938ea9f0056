package io.eventtime.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Direct runner prints what the local runner prints (the Flink and Spark modules check theirs). */
class DirectRunnerAgreesTest {
  @TempDir
  Path dir;

  @Test
  void seedPageAndRandomStream() throws Exception {
    RunnerAgreement.checkAll("direct", dir);
  }

  /** The random stream has late rows under both policies and rejected rows: the agreement is not trivial. */
  @Test
  void theRandomStreamHasLateAndRejectedRows() {
    Path stream = RunnerAgreement.randomStream(dir, 20260718L, 3000);
    for (RunnerAgreement.Query q : RunnerAgreement.RANDOM_STREAM_QUERIES) {
      List<String> out = Cli.run(concat(q, stream)).out();
      String stats = out.get(out.size() - 1);
      assertThat(stats).as(q.name()).doesNotContain("\"late_dropped\":0,").doesNotContain("\"rows_rejected\":0}");
    }
  }

  private static String[] concat(RunnerAgreement.Query q, Path stream) {
    List<String> args = new java.util.ArrayList<>(List.of("--from", stream.toString()));
    args.addAll(q.flags());
    args.add(q.sql());
    return args.toArray(String[]::new);
  }
}
