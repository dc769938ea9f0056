package io.eventtime.hop.beam.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.hop.beam.BeamRunner;
import java.util.List;
import org.apache.beam.runners.spark.SparkPipelineOptions;
import org.junit.jupiter.api.Test;

/** The Spark engine caches as bytes unless the run configuration's other arguments say otherwise. */
class SparkOptionsTest {
  @Test
  void theEngineCachesAsBytesUnlessTheRunConfigurationSaysOtherwise() {
    assertThat(BeamRunner.SPARK.options(null, null, List.of()).as(SparkPipelineOptions.class).getStorageLevel())
        .isEqualTo("MEMORY_ONLY_SER");
    assertThat(BeamRunner.SPARK.options(null, null, List.of("--storageLevel=MEMORY_AND_DISK"))
        .as(SparkPipelineOptions.class).getStorageLevel()).isEqualTo("MEMORY_AND_DISK");
  }
}
