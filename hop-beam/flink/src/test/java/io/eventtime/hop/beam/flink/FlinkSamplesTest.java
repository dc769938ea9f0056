package io.eventtime.hop.beam.flink;

import io.eventtime.hop.beam.BeamRunner;
import io.eventtime.hop.beam.SampleEquivalenceSuite;
import java.util.List;
import org.apache.beam.sdk.options.PipelineOptions;

/** The samples on an embedded Flink cluster, two tasks wide. */
class FlinkSamplesTest extends SampleEquivalenceSuite {
  @Override
  protected PipelineOptions options() {
    return BeamRunner.FLINK.options("[local]", "2", List.of());
  }
}
