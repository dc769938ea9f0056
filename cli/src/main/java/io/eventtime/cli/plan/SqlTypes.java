package io.eventtime.cli.plan;

import io.eventtime.core.ValueType;

/** The SQL names of the core's value types, as the command's messages show them. */
public final class SqlTypes {
  private SqlTypes() {}

  public static String name(ValueType type) {
    if (type == null) {
      return "unknown (only nulls seen)";
    }
    switch (type) {
      case INT64:
        return "BIGINT";
      case DOUBLE:
        return "DOUBLE";
      case STRING:
        return "VARCHAR";
      case BOOLEAN:
        return "BOOLEAN";
      default:
        return "TIMESTAMP";
    }
  }
}
