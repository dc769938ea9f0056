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
  /** What ends the place a late row's reason is told at. */
  private static final String AFTER_PLACE = ": ";

  private ProblemRows() {}

  /** The schema of problem rows for inputs of {@code input}. */
  public static Schema schema(Schema input) {
    return Schema.builder()
        .addRowField(ROW, input)
        .addNullableField(FIELD, FieldType.STRING)
        .addStringField(REASON)
        .build();
  }

  /**
   * A late row's reason in the core's words, as the local engines give it beside the row's file
   * and line: the {@link #REASON} less the place the transform tells it at, which is
   * {@link ArrivalPositions#describe} of the row's arrival {@code position} and the files its
   * schema names, then {@code ": "}.
   */
  public static String lateReason(Row late, long position) {
    String place = ArrivalPositions.describe(position, ArrivalPositions.files(late.getRow(ROW).getSchema()))
        + AFTER_PLACE;
    String reason = late.getString(REASON);
    if (!reason.startsWith(place)) {
      throw new IllegalArgumentException("the late row's reason '" + reason + "' is not told at its place '" + place
          + "': is it a late row of EventTimeWindow, and " + position + " its arrival position?");
    }
    return reason.substring(place.length());
  }

  /**
   * A late row's reason in the core's words on the live path, where the place is the row's
   * partition (with a partition field) and arrival position, as the local engines give it beside
   * the row's partition and offset: the {@link #REASON} less that place and {@code ": "}.
   */
  public static String liveLateReason(Row late) {
    String reason = late.getString(REASON);
    int end = reason.indexOf(AFTER_PLACE);
    if (end < 0 || !reason.startsWith("partition ") && !reason.startsWith("arrival ")) {
      throw new IllegalArgumentException("the late row's reason '" + reason + "' is not told at a live row's place"
          + " (partition and arrival): is it a late row of EventTimeWindow's live path?");
    }
    return reason.substring(end + AFTER_PLACE.length());
  }

  /** A late row's {@link #REASON}: its {@code place} (file and line), then the core's {@code reason}. */
  static String lateReasonAt(String place, String reason) {
    return place + AFTER_PLACE + reason;
  }

  /**
   * A row of the input's own schema is attached as it is: {@code Row.Builder.build()} would walk
   * each of its fields again, which cost more than the rest of a late row's handling on Spark.
   * Any other row is built as {@code build()} builds it.
   */
  static Row of(Schema problemSchema, Row row, String field, String reason) {
    Row.Builder problem = Row.withSchema(problemSchema);
    return row.getSchema().equals(problemSchema.getField(ROW).getType().getRowSchema())
        ? problem.attachValues(row, field, reason)
        : problem.addValues(row, field, reason).build();
  }
}
