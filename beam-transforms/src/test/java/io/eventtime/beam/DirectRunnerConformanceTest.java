package io.eventtime.beam;

import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;

/**
 * The conformance suite on the DirectRunner, with its immutability and encodability checks on.
 * Those checks make it the slowest runner by far, so its random streams are 1,000 rows in the
 * suite (Flink and Spark run 3,000); {@code -Deventtime.conformance.rows=3000} runs the full size.
 */
class DirectRunnerConformanceTest extends ConformanceSuite {
  @Override
  protected PipelineOptions options() {
    return PipelineOptionsFactory.fromArgs("--runner=DirectRunner", "--targetParallelism=2").create();
  }

  @Override
  protected int randomRows() {
    return Integer.getInteger("eventtime.conformance.rows", 1000);
  }
}
