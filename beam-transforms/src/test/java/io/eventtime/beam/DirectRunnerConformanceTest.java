package io.eventtime.beam;

import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;

/** The conformance suite on the DirectRunner, with its immutability and encodability checks on. */
class DirectRunnerConformanceTest extends ConformanceSuite {
  @Override
  protected PipelineOptions options() {
    return PipelineOptionsFactory.fromArgs("--runner=DirectRunner", "--targetParallelism=2").create();
  }
}
