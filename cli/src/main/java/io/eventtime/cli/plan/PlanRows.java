package io.eventtime.cli.plan;

import io.eventtime.core.RecentKeys;
import io.eventtime.core.ndjson.FieldReader;
import io.eventtime.core.ndjson.MalformedLineException;
import io.eventtime.core.ndjson.TextEncoding;
import io.eventtime.core.ndjson.Utf8Lines;

/**
 * Reads one NDJSON line the way every runner does: only the fields the plan uses, converted to
 * their column types, the time read, then WHERE. A line ends up as a row for the windows, as
 * rejected (with the field and the reason), or filtered out by WHERE. Not thread-safe: one per
 * stream or worker.
 */
public final class PlanRows {
  /** Why a Kafka record without a value (a tombstone) is rejected. */
  public static final String NO_VALUE = "the record has no value";

  public enum Outcome {
    ROW,
    REJECTED,
    FILTERED
  }

  private final QueryPlan plan;
  private final FieldReader reader;
  private final RowConverter converter;
  private final Object[] row;
  private String rejectedField;
  private String rejectedReason;
  private boolean rejectedJson;

  /** What a line is called in the reason it is not UTF-8: {@code line}, or {@code value} for a Kafka record. */
  private final String unit;

  public PlanRows(QueryPlan plan) {
    this(plan, "line");
  }

  public PlanRows(QueryPlan plan, String unit) {
    this(plan, unit, new RecentKeys());
  }

  /** One of the readers of a stream parsed on several threads: their keys come from {@code recentKeys}, shared. */
  public PlanRows(QueryPlan plan, String unit, RecentKeys recentKeys) {
    this.unit = unit;
    this.plan = plan;
    this.reader = new FieldReader(plan.inputNames());
    this.converter = new RowConverter(plan, recentKeys);
    this.row = new Object[plan.inputs().size()];
  }

  public Outcome read(byte[] buf, int off, int len) {
    try {
      reader.read(buf, off, len, row);
    } catch (MalformedLineException e) {
      return malformed(buf, off, len, e);
    }
    return converted();
  }

  /**
   * Reads the line at {@code buf[off, off+len)} as {@link #read(byte[], int, int)} does, when the
   * lines of a batch, {@code buf[.., end)}, are read one after another: one JSON parser goes over
   * them ({@link FieldReader#readNext}). {@link #endLines} after the batch's last line.
   */
  public Outcome read(byte[] buf, int off, int len, int end) {
    try {
      reader.readNext(buf, off, len, end, row);
    } catch (MalformedLineException e) {
      return malformed(buf, off, len, e);
    }
    return converted();
  }

  /** After the last line of a batch read with {@link #read(byte[], int, int, int)}: releases its parser. */
  public void endLines() {
    reader.endLines();
  }

  private Outcome malformed(byte[] buf, int off, int len, MalformedLineException e) {
    if (e.field() == null) {
      // a Kafka value is read on its own: another encoding or a compression shows in its first bytes, as
      // the other Kafka readers name it (a file's are looked at once, at its start)
      String otherEncoding = unit.equals("line") ? null : TextEncoding.otherEncoding(buf, off, len, unit);
      if (otherEncoding != null) {
        return reject(null, otherEncoding, false);
      }
      try {
        Utf8Lines.decode(buf, off, len, unit);
      } catch (Utf8Lines.NotUtf8 notUtf8) {
        // the core's reason, as every surface gives it: it names the bytes and where they are
        return reject(null, notUtf8.getMessage(), false);
      }
    }
    // a line with a bad field (named) is still well-formed JSON, logged as the row it is
    return reject(e.field(), e.getMessage(), e.field() != null);
  }

  private Outcome converted() {
    RowConverter.Rejection rejection = converter.convert(row);
    if (rejection != null) {
      return reject(rejection.field(), rejection.reason(), true);
    }
    if (plan.where() != null && !plan.where().accepts(row)) {
      return Outcome.FILTERED;
    }
    return Outcome.ROW;
  }

  private Outcome reject(String field, String reason, boolean isJson) {
    rejectedField = field;
    rejectedReason = reason;
    rejectedJson = isJson;
    return Outcome.REJECTED;
  }

  /** The converted values of the input columns of the last {@link Outcome#ROW}. */
  public Object[] row() {
    return row;
  }

  public long eventTime() {
    return converter.eventTime();
  }

  public RowConverter converter() {
    return converter;
  }

  public String rejectedField() {
    return rejectedField;
  }

  public String rejectedReason() {
    return rejectedReason;
  }

  /** Whether the rejected line is JSON (false for a malformed line). */
  public boolean rejectedJson() {
    return rejectedJson;
  }
}
