package io.eventtime.hop.beam;

import java.util.Map;
import org.apache.hop.core.exception.HopException;
import org.apache.hop.core.parameters.NamedParameters;
import org.apache.hop.core.variables.IVariables;
import org.apache.hop.core.variables.Variables;
import org.apache.hop.pipeline.PipelineMeta;

/**
 * The variables a pipeline runs with when no Hop engine sets them up: the system properties,
 * Hop's internal variables of the pipeline file ({@code Internal.Entry.Current.Folder}...), and
 * the pipeline's parameters (the given values, or their defaults), as the local engine has them.
 */
public final class PipelineVariables {
  private PipelineVariables() {}

  public static IVariables of(PipelineMeta meta, Map<String, String> parameterValues) throws HopException {
    Variables variables = new Variables();
    variables.initializeFrom(null);
    meta.setInternalHopVariables(variables);
    NamedParameters parameters = new NamedParameters();
    parameters.copyParametersFromDefinitions(meta);
    for (Map.Entry<String, String> p : parameterValues.entrySet()) {
      if (!java.util.Arrays.asList(meta.listParameters()).contains(p.getKey())) {
        throw new HopException("the pipeline '" + meta.getName() + "' has no parameter '" + p.getKey()
            + "': its parameters are " + String.join(", ", meta.listParameters()));
      }
      parameters.setParameterValue(p.getKey(), p.getValue());
    }
    parameters.activateParameters(variables);
    return variables;
  }
}
