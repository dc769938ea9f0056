package io.eventtime.hop;

import io.eventtime.core.state.StateSource;
import org.apache.hop.core.variables.IVariables;

/**
 * The settings of an input that can go back to a stored position (Event Kafka Input): what it
 * reads, stored with the state so that a state written for another source is refused.
 */
public interface StateSourceMeta {
  /** What this input reads, with variables resolved, e.g. kafka servers and topic; null when not set. */
  StateSource stateSource(IVariables variables);
}
