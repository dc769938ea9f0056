package io.eventtime.hop.beam.spark;

import io.eventtime.hop.beam.BeamRunner;
import io.eventtime.hop.beam.SampleEquivalenceSuite;
import java.util.List;
import org.apache.beam.sdk.options.PipelineOptions;

/** The samples on Spark in-process, {@code local[2]}. */
class SparkSamplesTest extends SampleEquivalenceSuite {
  @Override
  protected PipelineOptions options() {
    return BeamRunner.SPARK.options("local[2]", null, List.of());
  }
}
