package io.eventtime.cli.output;

import com.fasterxml.jackson.core.JsonGenerator;
import io.eventtime.cli.CliException;
import io.eventtime.cli.ErrorCode;
import io.eventtime.cli.plan.Condition;
import io.eventtime.cli.plan.OutputColumn;
import io.eventtime.cli.plan.QueryPlan;
import io.eventtime.core.AggregateKind;
import io.eventtime.core.AggregateSpec;
import io.eventtime.core.Aggregates;
import io.eventtime.core.Stats;
import io.eventtime.core.TimeText;
import io.eventtime.core.ValueType;
import io.eventtime.core.WindowResult;
import io.eventtime.core.ndjson.JsonValues;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Prints the result rows as the windows close: HAVING applied, one JSON object per line with the
 * columns in SELECT order; then the stats line. Counts what it printed, so that with HAVING the
 * stats' rows_out and windows_closed are the rows and windows printed.
 */
public final class ResultWriter {
  private final JsonGenerator g;
  private final List<OutputColumn> outputs;
  private final Condition having;
  private final int keyCount;
  private final Object[] havingRow;
  /** The sums of whole-number columns: their results must be whole numbers too. */
  private final List<String> wholeSums;
  /** Which keys are of DOUBLE columns: a key holds 1.0 as 1 (a number is a number), printed 1.0 there. */
  private final boolean[] doubleKeys;
  private long rows;
  private long windows;
  private long lastStart = Long.MIN_VALUE;
  private long lastEnd = Long.MIN_VALUE;
  private String startText;
  private String endText;

  public ResultWriter(OutputStream out, QueryPlan plan) {
    this.g = JsonLines.generator(out);
    this.outputs = plan.outputs();
    this.having = plan.having();
    this.keyCount = plan.keyInputs().size();
    this.havingRow = new Object[2 + keyCount + plan.aggregates().size()];
    this.doubleKeys = new boolean[keyCount];
    for (int i = 0; i < keyCount; i++) {
      doubleKeys[i] = plan.inputs().get(plan.keyInputs().get(i)).type() == ValueType.DOUBLE;
    }
    this.wholeSums = new ArrayList<>();
    for (int i = 0; i < plan.aggregates().size(); i++) {
      AggregateSpec a = plan.aggregates().get(i);
      boolean whole = a.kind() == AggregateKind.SUM
          && plan.inputs().get(plan.aggregateInputs().get(i)).type() == ValueType.INT64;
      wholeSums.add(whole ? a.outputName() : null);
    }
  }

  public void write(WindowResult r) {
    for (int i = 0; i < wholeSums.size(); i++) {
      if (wholeSums.get(i) != null && r.values()[i] instanceof Double d) {
        throw new CliException(ErrorCode.TYPE_MISMATCH,
            Aggregates.sumOverflow(wholeSums.get(i), r.key(), r.start(), r.end(), d));
      }
    }
    if (having != null && !having.accepts(havingRow(r))) {
      return;
    }
    if (r.start() != lastStart || r.end() != lastEnd) {
      windows++;
      lastStart = r.start();
      lastEnd = r.end();
      // the rows of one window come together: its bounds are formatted once for all its keys
      startText = TimeText.format(lastStart);
      endText = TimeText.format(lastEnd);
    }
    rows++;
    try {
      g.writeStartObject();
      for (OutputColumn c : outputs) {
        g.writeFieldName(c.name());
        switch (c.kind()) {
          case KEY:
            Object key = r.key().get(c.index());
            JsonValues.write(g, doubleKeys[c.index()] && key instanceof Long l ? (Object) l.doubleValue() : key);
            break;
          case WINDOW_START:
            g.writeString(startText);
            break;
          case WINDOW_END:
            g.writeString(endText);
            break;
          default:
            JsonValues.write(g, r.values()[c.index()]);
        }
      }
      g.writeEndObject();
      JsonLines.endLine(g);
    } catch (IOException e) {
      throw failed(e);
    }
  }

  private Object[] havingRow(WindowResult r) {
    havingRow[0] = Instant.ofEpochMilli(r.start());
    havingRow[1] = Instant.ofEpochMilli(r.end());
    for (int i = 0; i < keyCount; i++) {
      havingRow[2 + i] = r.key().get(i);
    }
    System.arraycopy(r.values(), 0, havingRow, 2 + keyCount, r.values().length);
    return havingRow;
  }

  /** The run's stats with rows_out and windows_closed as printed (HAVING may have left windows out). */
  public Stats printedStats(Stats s) {
    return new Stats(s.rowsIn(), rows, s.lateDropped(), windows, s.rowsFolded(), s.rowsRejected());
  }

  /**
   * Prints the last line, the stats, once the results are written and the state, if any, is
   * stored: the stats line is the sign that the run succeeded.
   */
  public void writeStats(Stats s, boolean stateStored) {
    try {
      g.writeRaw(printedStats(s).toJson());
      JsonLines.endLine(g);
      g.flush();
    } catch (IOException e) {
      throw new CliException(ErrorCode.IO_ERROR, "cannot write the stats line to stdout (" + OutputFile.reason(e)
          + "); the result rows before it were written" + (stateStored ? " and the new state was stored" : ""), e);
    }
  }

  /** Sends the rows written so far to stdout; a failure to do so stops the run. */
  public void flush() {
    try {
      g.flush();
    } catch (IOException e) {
      throw failed(e);
    }
  }

  /** Sends what it can of the rows written so far, after the run failed for another reason. */
  public void flushAfterFailure() {
    try {
      g.flush();
    } catch (IOException e) {
      // stdout is gone too: the error that ended the run is what gets told
    }
  }

  private static CliException failed(IOException e) {
    return new CliException(ErrorCode.IO_ERROR, "cannot write the results to stdout (" + OutputFile.reason(e) + ")", e);
  }

  /** The one error line: {@code {"error":{"code":..,"message":..}}}, without its line end. */
  public static String errorLine(ErrorCode code, String message) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (JsonGenerator e = JsonLines.generator(bytes)) {
      e.writeStartObject();
      e.writeObjectFieldStart("error");
      e.writeStringField("code", code.name());
      e.writeStringField("message", message);
      e.writeEndObject();
      e.writeEndObject();
    } catch (IOException impossible) {
      throw new UncheckedIOException(impossible);
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }

  /** Prints the error line to {@code out}; false when {@code out} cannot take it. */
  public static boolean writeError(OutputStream out, ErrorCode code, String message) {
    try {
      out.write((errorLine(code, message) + "\n").getBytes(StandardCharsets.UTF_8));
      out.flush();
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
