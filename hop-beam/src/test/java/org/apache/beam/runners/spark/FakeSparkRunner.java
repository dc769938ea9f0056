package org.apache.beam.runners.spark;

import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.PipelineRunner;
import org.apache.beam.sdk.options.PipelineOptions;

/**
 * A runner in the package of Beam's Spark runners, which the translation tells by its class name
 * (Spark is not on hop-beam's test class path): it never runs anything.
 */
public final class FakeSparkRunner extends PipelineRunner<PipelineResult> {
  public static FakeSparkRunner fromOptions(PipelineOptions options) {
    return new FakeSparkRunner();
  }

  @Override
  public PipelineResult run(org.apache.beam.sdk.Pipeline pipeline) {
    throw new UnsupportedOperationException("a fake runner for a test that translates pipelines only");
  }
}
