package io.eventtime.core.bind;

import io.eventtime.core.ValueType;
import java.util.Objects;

/**
 * One field of the rows a query reads: its name, its core type (null when the core has no type
 * for it, such as binary) and the name of its type as the surface spells it (Hop's "BigNumber",
 * Beam's "BYTES", SQL's "VARCHAR"), which the problems quote so that a user reads their own type.
 * A field whose type cannot be told yet (SQL's column seen only as null) is not {@code known}:
 * its type is not checked, and what depends on it is untyped.
 */
public record InputField(String name, ValueType type, String typeName, boolean known) {
  public InputField {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(typeName, "typeName");
  }

  public InputField(String name, ValueType type, String typeName) {
    this(name, type, typeName, true);
  }

  /** A field whose type is spelled as the core spells it. */
  public static InputField of(String name, ValueType type) {
    return new InputField(name, type, String.valueOf(type));
  }

  /** A field whose type cannot be told yet. */
  public static InputField unknown(String name, String typeName) {
    return new InputField(name, null, typeName, false);
  }
}
