package io.eventtime.core.bind;

import io.eventtime.core.ValueType;

/**
 * One column of a window row: its name, what it holds, its core type and the index of the
 * input field it reads ({@code -1} for the window bounds and {@code count(*)}). The type is null
 * only in a {@link Binding#draft() draft}, where the field it depends on could not be bound.
 */
public record BoundColumn(String name, Role role, ValueType type, int inputIndex) {
  /** What a column of a window row holds. */
  public enum Role {
    KEY,
    WINDOW_START,
    WINDOW_END,
    AGGREGATE
  }
}
