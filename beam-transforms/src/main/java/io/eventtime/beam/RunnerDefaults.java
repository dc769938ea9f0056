package io.eventtime.beam;

import java.util.OptionalInt;

/**
 * What a run on Flink or Spark gets when its settings leave something out, the same for the
 * {@code eventtime} command and Hop pipelines on Beam: Spark in the JVM with 2 threads, caching as
 * bytes, and an embedded Flink with 2 parallel tasks per step. A cluster keeps its own parallelism.
 */
public final class RunnerDefaults {
  /** Spark's master when none is given: in this JVM, 2 threads. */
  public static final String SPARK_MASTER = "local[2]";
  /**
   * How Spark runs cache a collection that several steps read, unless told otherwise: as bytes. Beam's
   * Spark runner caches the outputs of every step with more than one, by default as Java objects,
   * which Spark sizes by walking each object graph: two thirds of an {@code EventTimeWindow} run's
   * CPU in a profile (docs/benchmarks.md, issue 13 goal 2).
   */
  public static final String SPARK_STORAGE_LEVEL = "MEMORY_ONLY_SER";
  /** Flink's master for a cluster embedded in this JVM. */
  public static final String EMBEDDED_FLINK = "[local]";
  /** The parallelism of an embedded Flink when none is given. */
  public static final int EMBEDDED_FLINK_PARALLELISM = 2;

  private RunnerDefaults() {}

  /**
   * The parallelism to ask of Flink at {@code flinkMaster} when the run names none: 2 for an
   * embedded Flink, none for a cluster or {@code [auto]}, so that the cluster's default (or
   * {@code flink run -p}) applies instead of being overridden.
   */
  public static OptionalInt flinkParallelism(String flinkMaster) {
    return EMBEDDED_FLINK.equals(flinkMaster == null ? null : flinkMaster.trim())
        ? OptionalInt.of(EMBEDDED_FLINK_PARALLELISM)
        : OptionalInt.empty();
  }
}
