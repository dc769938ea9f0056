package io.eventtime.hop.beam.engine;

import io.eventtime.hop.beam.BeamRunner;
import java.util.ArrayList;
import java.util.List;
import org.apache.hop.core.variables.IVariables;

/** What a run configuration of the eventtime Beam engines gives the run: the runner and its options. */
public interface BeamRunSettings {
  BeamRunner runner();

  /** Flink's or Spark's master; null for the Direct runner. */
  String master();

  /** Flink's parallelism; null otherwise. */
  String parallelism();

  /** Other Beam options, {@code --name=value} separated by spaces. */
  String beamOptions();

  /** The other Beam options, variables resolved, one per element. */
  static List<String> split(IVariables variables, String options) {
    List<String> args = new ArrayList<>();
    if (options != null) {
      for (String a : variables.resolve(options).trim().split("\\s+")) {
        if (!a.isEmpty()) {
          args.add(a);
        }
      }
    }
    return args;
  }
}
