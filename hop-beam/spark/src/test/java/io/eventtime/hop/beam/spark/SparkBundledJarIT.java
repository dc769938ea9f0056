package io.eventtime.hop.beam.spark;

import io.eventtime.hop.beam.BundledJarSuite;
import java.util.List;

/** The Spark bundled jar, with Spark local[2] standing in for a cluster. */
class SparkBundledJarIT extends BundledJarSuite {
  @Override
  protected List<String> runnerArgs() {
    return List.of("--runner", "spark", "--master", "local[2]");
  }

  @Override
  protected List<String> guideMentions() {
    return List.of("--runner spark", "--master", "local[2]", "spark://", "java -jar");
  }
}
