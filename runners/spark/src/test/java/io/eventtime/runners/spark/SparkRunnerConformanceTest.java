package io.eventtime.runners.spark;

import io.eventtime.beam.ConformanceSuite;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;

/** The conformance suite on Spark in-process, {@code local[2]}. */
class SparkRunnerConformanceTest extends ConformanceSuite {
  @Override
  protected PipelineOptions options() {
    return PipelineOptionsFactory.fromArgs("--runner=SparkRunner", "--sparkMaster=local[2]").create();
  }
}
