package io.eventtime.hop.beam.flink;

import io.eventtime.hop.beam.BundledJarSuite;
import java.util.List;

/** The Flink bundled jar, with an embedded Flink cluster standing in for a real one. */
class FlinkBundledJarIT extends BundledJarSuite {
  @Override
  protected List<String> runnerArgs() {
    return List.of("--runner", "flink", "--master", "[local]", "--parallelism", "2");
  }

  @Override
  protected List<String> guideMentions() {
    return List.of("--runner flink", "--master", "--parallelism", "[local]", "java -jar");
  }
}
