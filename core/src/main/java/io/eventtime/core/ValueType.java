package io.eventtime.core;

/** The types of the values the core aggregates, and how each is held in Java. */
public enum ValueType {
  INT64(Long.class),
  DOUBLE(Double.class),
  STRING(String.class),
  BOOLEAN(Boolean.class),
  TIMESTAMP(java.time.Instant.class);

  private final Class<?> javaType;

  ValueType(Class<?> javaType) {
    this.javaType = javaType;
  }

  public Class<?> javaType() {
    return javaType;
  }

  public boolean isNumeric() {
    return this == INT64 || this == DOUBLE;
  }
}
