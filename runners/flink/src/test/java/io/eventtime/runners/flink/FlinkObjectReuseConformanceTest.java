package io.eventtime.runners.flink;

import io.eventtime.beam.ConformanceSuite;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;

/** The conformance suite on an embedded Flink with object reuse and without copies between chained steps. */
class FlinkObjectReuseConformanceTest extends ConformanceSuite {
  @Override
  protected PipelineOptions options() {
    return PipelineOptionsFactory.fromArgs("--runner=FlinkRunner", "--flinkMaster=[local]", "--parallelism=2",
        "--objectReuse=true", "--fasterCopy=true").create();
  }
}
