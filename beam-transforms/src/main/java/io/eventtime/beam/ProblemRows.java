package io.eventtime.beam;

import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.schemas.Schema.FieldType;
import org.apache.beam.sdk.values.Row;

/**
 * The rows of the late and rejected outputs: the input row as it came, the field that was at
 * fault (null where none was) and the reason in words.
 */
public final class ProblemRows {
  public static final String ROW = "row";
  public static final String FIELD = "field";
  public static final String REASON = "reason";

  private ProblemRows() {}

  /** The schema of problem rows for inputs of {@code input}. */
  public static Schema schema(Schema input) {
    return Schema.builder()
        .addRowField(ROW, input)
        .addNullableField(FIELD, FieldType.STRING)
        .addStringField(REASON)
        .build();
  }

  static Row of(Schema problemSchema, Row row, String field, String reason) {
    return Row.withSchema(problemSchema).addValues(row, field, reason).build();
  }
}
