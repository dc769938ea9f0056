package io.eventtime.hop.beam;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;

/**
 * The Beam runners a Hop pipeline runs on, and their options: the master and parallelism a run
 * configuration or the command line gives, plus any other Beam option as {@code --name=value}.
 * Flink and Spark are not on the same class path (their libraries clash): each comes with its
 * own jar, see {@code docs/hop-on-beam-clusters.md}.
 */
public enum BeamRunner {
  DIRECT("DirectRunner", null),
  FLINK("FlinkRunner", "eventtime-hop-beam-flink"),
  SPARK("SparkRunner", "eventtime-hop-beam-spark");

  private final String runnerName;
  private final String jar;

  BeamRunner(String runnerName, String jar) {
    this.runnerName = runnerName;
    this.jar = jar;
  }

  public static BeamRunner parse(String text) {
    try {
      return valueOf(text.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("unknown Beam runner '" + text + "': choose direct, flink or spark", e);
    }
  }

  /**
   * The options of a run: {@code master} is Flink's {@code --flinkMaster} ({@code [local]},
   * {@code host:8081}; {@code [auto]} when blank) or Spark's {@code --sparkMaster}
   * ({@code local[2]}, {@code spark://host:7077}; {@code local[*]} when blank), ignored by the
   * Direct runner; {@code parallelism} is Flink's (blank for its default).
   */
  public PipelineOptions options(String master, String parallelism, List<String> otherArgs) {
    List<String> args = new ArrayList<>();
    args.add("--runner=" + runnerName);
    if (this == FLINK) {
      args.add("--flinkMaster=" + (blank(master) ? "[auto]" : master.trim()));
      if (!blank(parallelism)) {
        args.add("--parallelism=" + positive(parallelism));
      }
    } else if (this == SPARK) {
      args.add("--sparkMaster=" + (blank(master) ? "local[*]" : master.trim()));
    }
    args.addAll(otherArgs);
    try {
      return PipelineOptionsFactory.fromArgs(args.toArray(String[]::new)).withValidation().create();
    } catch (IllegalArgumentException e) {
      if (jar != null && !onClassPath()) {
        throw new IllegalArgumentException("the Beam " + runnerName + " is not on the class path: run with the "
            + jar + " jar (see docs/hop-on-beam-clusters.md), or choose another runner", e);
      }
      throw new IllegalArgumentException("the Beam options " + args + " are not valid: " + e.getMessage(), e);
    }
  }

  private boolean onClassPath() {
    String className = this == FLINK ? "org.apache.beam.runners.flink.FlinkRunner"
        : "org.apache.beam.runners.spark.SparkRunner";
    try {
      Class.forName(className, false, BeamRunner.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException e) {
      return false;
    }
  }

  private static String positive(String parallelism) {
    try {
      int n = Integer.parseInt(parallelism.trim());
      if (n > 0) {
        return Integer.toString(n);
      }
    } catch (NumberFormatException e) {
      // said below
    }
    throw new IllegalArgumentException("the parallelism '" + parallelism + "' is not a whole number above 0:"
        + " give the number of parallel tasks, e.g. 4, or leave it blank for Flink's default");
  }

  private static boolean blank(String s) {
    return s == null || s.isBlank();
  }
}
