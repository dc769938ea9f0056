package io.eventtime.hop.beam.flink;

import io.eventtime.hop.beam.LiveKafkaEquivalenceSuite;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.runners.flink.FlinkRunner;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;

/**
 * The live Kafka pipeline on an embedded Flink cluster in streaming mode, two tasks wide: the
 * rows of the local engine over the same topic.
 */
class FlinkKafkaLiveTest extends LiveKafkaEquivalenceSuite {
  @Override
  protected PipelineOptions liveOptions() {
    FlinkPipelineOptions options = PipelineOptionsFactory.create().as(FlinkPipelineOptions.class);
    options.setRunner(FlinkRunner.class);
    options.setFlinkMaster("[local]");
    options.setParallelism(2);
    options.setStreaming(true);
    options.setAttachedMode(false); // run() returns while the job runs
    return options;
  }
}
