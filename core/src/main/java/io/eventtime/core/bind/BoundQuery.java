package io.eventtime.core.bind;

import io.eventtime.core.ValueType;
import java.io.Serializable;
import java.util.List;

/**
 * A query bound to the fields of its input: where the time field is, and the columns of a
 * window row in order: the keys, the window start and end, then the aggregates.
 */
public record BoundQuery(int timeIndex, List<BoundColumn> columns) implements Serializable {
  public BoundQuery {
    columns = List.copyOf(columns);
  }

  /** The columns of one role, in order. */
  public List<BoundColumn> columns(BoundColumn.Role role) {
    return columns.stream().filter(c -> c.role() == role).toList();
  }

  /** Where each key sits in an input row. */
  public int[] keyIndexes() {
    return columns(BoundColumn.Role.KEY).stream().mapToInt(BoundColumn::inputIndex).toArray();
  }

  /** Where each aggregate's input sits in an input row; -1 for {@code count(*)}. */
  public int[] aggregateInputIndexes() {
    return columns(BoundColumn.Role.AGGREGATE).stream().mapToInt(BoundColumn::inputIndex).toArray();
  }

  /** The result type of each aggregate, in order. */
  public List<ValueType> aggregateTypes() {
    return columns(BoundColumn.Role.AGGREGATE).stream().map(BoundColumn::type).toList();
  }
}
