package io.eventtime.cli.plan;

import io.eventtime.core.ValueType;
import java.io.Serializable;

/**
 * A field of the source rows that the query reads, with its inferred type; {@code type} is null
 * when nothing is known of it (no rows to infer from, or only nulls).
 */
public record InputColumn(String name, ValueType type) implements Serializable {}
