package io.eventtime.hop.beam;

import java.util.List;
import org.apache.beam.sdk.options.PipelineOptions;

/** The samples on Beam's Direct runner. */
class DirectSamplesTest extends SampleEquivalenceSuite {
  @Override
  protected PipelineOptions options() {
    return BeamRunner.DIRECT.options(null, null, List.of());
  }
}
