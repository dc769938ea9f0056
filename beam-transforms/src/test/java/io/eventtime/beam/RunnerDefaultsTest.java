package io.eventtime.beam;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class RunnerDefaultsTest {

  @Test
  void sparkRunsInThisJvmWithTwoThreads() {
    assertThat(RunnerDefaults.SPARK_MASTER).isEqualTo("local[2]");
  }

  @Test
  void embeddedFlinkGetsTwoParallelTasksAndAClusterKeepsItsOwn() {
    assertThat(RunnerDefaults.flinkParallelism("[local]")).isEqualTo(OptionalInt.of(2));
    assertThat(RunnerDefaults.flinkParallelism(" [local] ")).isEqualTo(OptionalInt.of(2));
    assertThat(RunnerDefaults.flinkParallelism("[auto]")).isEqualTo(OptionalInt.empty());
    assertThat(RunnerDefaults.flinkParallelism("jobmanager:8081")).isEqualTo(OptionalInt.empty());
    assertThat(RunnerDefaults.flinkParallelism(null)).isEqualTo(OptionalInt.empty());
  }
}
