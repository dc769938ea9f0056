package io.eventtime.runners.spark;

import io.eventtime.cli.RunnerAgreement;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The eventtime command with {@code --runner spark} prints exactly what its local runner prints:
 * the seed page's examples and a random stream with late and rejected rows.
 */
class CliSparkRunnerAgreesTest {
  @TempDir
  Path dir;

  @Test
  void seedPageAndRandomStream() throws Exception {
    RunnerAgreement.checkAll("spark", dir);
  }
}
