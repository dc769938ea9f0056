package io.eventtime.runners.spark;

import io.eventtime.beam.ConformanceSuite;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The conformance suite on Spark as many clusters configure it: Kryo as Spark's serializer
 * ({@code spark.serializer}, read by the Spark context Beam makes from the {@code spark.*} system
 * properties), and collections cached as bytes, so that what Spark stores goes through Kryo.
 */
class SparkKryoConformanceTest extends ConformanceSuite {
  private static final String SERIALIZER = "spark.serializer";

  @BeforeAll
  static void kryo() {
    System.setProperty(SERIALIZER, "org.apache.spark.serializer.KryoSerializer");
  }

  @AfterAll
  static void javaSerializerAgain() {
    System.clearProperty(SERIALIZER);
  }

  @Override
  protected PipelineOptions options() {
    return PipelineOptionsFactory.fromArgs("--runner=SparkRunner", "--sparkMaster=local[2]",
        "--storageLevel=MEMORY_ONLY_SER").create();
  }
}
