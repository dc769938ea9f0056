package io.eventtime.runners.flink;

import io.eventtime.cli.RunnerAgreement;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The eventtime command with {@code --runner flink} prints exactly what its local runner prints:
 * the seed page's examples and a random stream with late and rejected rows.
 */
class CliFlinkRunnerAgreesTest {
  @TempDir
  Path dir;

  @Test
  void seedPageAndRandomStream() throws Exception {
    RunnerAgreement.checkAll("flink", dir);
  }
}
