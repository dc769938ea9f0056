package io.eventtime.core;

import java.io.Serializable;
import java.util.Objects;

/**
 * One aggregate of a window: what to compute, over which input field, and the name of the
 * output column. {@code count(*)} has no input field.
 */
public record AggregateSpec(AggregateKind kind, String inputField, String outputName) implements Serializable {
  public AggregateSpec {
    Objects.requireNonNull(kind, "kind");
    if (kind.needsInput() && (inputField == null || inputField.isBlank())) {
      throw new IllegalArgumentException(kind.label() + " needs an input field: name the field to "
          + kind.label() + (outputName == null ? "" : " for output '" + outputName + "'"));
    }
    if (outputName == null || outputName.isBlank()) {
      throw new IllegalArgumentException("the " + kind.label() + " aggregate needs an output name");
    }
    if (!kind.needsInput()) {
      inputField = null;
    }
  }

  public static AggregateSpec countAll(String outputName) {
    return new AggregateSpec(AggregateKind.COUNT_ALL, null, outputName);
  }

  public static AggregateSpec of(AggregateKind kind, String inputField, String outputName) {
    return new AggregateSpec(kind, inputField, outputName);
  }

  @Override
  public String toString() {
    return (kind == AggregateKind.COUNT_ALL ? "count(*)" : kind.label() + "(" + inputField + ")") + " AS " + outputName;
  }
}
