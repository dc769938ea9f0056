package io.eventtime.cli.beam;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.beam.runners.spark.SparkPipelineOptions;
import org.junit.jupiter.api.Test;

/** The command's Spark runs cache as bytes ({@code RunnerDefaults.SPARK_STORAGE_LEVEL}), on its own master or a given one. */
class CliSparkOptionsTest {
  @Test
  void sparkRunsCacheAsBytes() {
    assertThat(BeamRunner.options("spark", null).as(SparkPipelineOptions.class).getStorageLevel())
        .isEqualTo("MEMORY_ONLY_SER");
    SparkPipelineOptions cluster = BeamRunner.options("spark", "spark://spark-master:7077").as(SparkPipelineOptions.class);
    assertThat(cluster.getStorageLevel()).isEqualTo("MEMORY_ONLY_SER");
    assertThat(cluster.getSparkMaster()).isEqualTo("spark://spark-master:7077");
  }
}
