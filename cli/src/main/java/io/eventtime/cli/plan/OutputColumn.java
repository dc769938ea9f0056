package io.eventtime.cli.plan;

import java.io.Serializable;

/**
 * One column of the result rows, in SELECT order: a group key ({@code index} into the keys),
 * the window's start or end, or an aggregate ({@code index} into the aggregates).
 */
public record OutputColumn(String name, Kind kind, int index) implements Serializable {
  public enum Kind {
    KEY,
    WINDOW_START,
    WINDOW_END,
    AGGREGATE
  }
}
