package io.eventtime.cli.sql;

import io.eventtime.core.ValueType;
import io.eventtime.core.ndjson.SchemaInference;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The columns of a source as inferred from its first rows, and how SQL identifiers name them:
 * a quoted identifier exactly, an unquoted one exactly or else case-insensitively when that
 * finds one column. {@code sampled} says where the columns were seen, for messages.
 */
public final class Schema {
  private final SchemaInference inference;
  private final Map<String, ValueType> types;
  private final long rows;
  private final String sampled;

  public Schema(SchemaInference inference, long rows, String sampled) {
    this.inference = inference;
    this.types = inference.schema();
    this.rows = rows;
    this.sampled = sampled;
  }

  /** Whether no row was seen: nothing can be checked against the data. */
  public boolean isEmpty() {
    return rows == 0;
  }

  public List<String> columns() {
    return new ArrayList<>(types.keySet());
  }

  public String sampled() {
    return sampled;
  }

  /** The field an identifier names, if the rows have it. */
  public Optional<String> resolve(String identifier, boolean quoted) {
    if (types.containsKey(identifier)) {
      return Optional.of(identifier);
    }
    if (quoted) {
      return Optional.empty();
    }
    List<String> matches = new ArrayList<>();
    for (String c : types.keySet()) {
      if (c.toLowerCase(Locale.ROOT).equals(identifier.toLowerCase(Locale.ROOT))) {
        matches.add(c);
      }
    }
    return matches.size() == 1 ? Optional.of(matches.get(0)) : Optional.empty();
  }

  /**
   * The type of a field; null when only nulls were seen. A field whose non-null values mix
   * types is VARCHAR, but see {@link #observed}.
   */
  public ValueType type(String field) {
    return inference.observedTypes(field).isEmpty() ? null : types.get(field);
  }

  /** The types the non-null values of a field were seen in. */
  public Set<ValueType> observed(String field) {
    return inference.observedTypes(field);
  }
}
