package org.apache.beam.runners.spark;

import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.PipelineRunner;
import org.apache.beam.sdk.options.PipelineOptions;

/**
 * A runner in the package of Beam's Spark runners, which EventTimeWindow tells by its class name
 * (Spark is not on beam-transforms' class path): it never runs anything.
 */
public final class FakeSparkRunner extends PipelineRunner<PipelineResult> {
  public static FakeSparkRunner fromOptions(PipelineOptions options) {
    return new FakeSparkRunner();
  }

  @Override
  public PipelineResult run(org.apache.beam.sdk.Pipeline pipeline) {
    throw new UnsupportedOperationException("a fake runner for a test that builds pipelines only");
  }
}
