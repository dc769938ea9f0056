package io.eventtime.cli.output;

import com.fasterxml.jackson.core.JsonGenerator;
import io.eventtime.cli.CliException;
import io.eventtime.cli.ErrorCode;
import io.eventtime.cli.plan.Condition;
import io.eventtime.cli.plan.OutputColumn;
import io.eventtime.cli.plan.QueryPlan;
import io.eventtime.core.AggregateKind;
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
 * stats' rows_out and windows_closed are the rows and windows printed. The rows are put together
 * in a buffer of its own: the column names once as bytes, whole numbers and plain ASCII strings
 * (the usual keys and window bounds) straight as bytes, every other value by Jackson and
 * {@link JsonValues}, so each value is written as a Jackson generator writes it.
 */
public final class ResultWriter {
  private static final byte[] NULL = {'n', 'u', 'l', 'l'};

  private final OutputStream out;
  private final OutputStream statsOut;
  private final String rowsTarget;
  /** Sent on whenever it is full: 8,000 bytes, as Jackson's generator before it sent them, so rows stream out. */
  private byte[] buf = new byte[8000];
  private int used;
  /** Values that are not plain are written by Jackson, here, then copied. */
  private final ByteArrayOutputStream scratch = new ByteArrayOutputStream();
  private final JsonGenerator g;
  /** Per output column, what comes before its value: {@code {"name":} or {@code ,"name":}. */
  private final byte[][] prefixes;
  /** Per output column, its kind and its index among the keys or the aggregates: read on every row. */
  private final OutputColumn.Kind[] kinds;
  private final int[] indexes;
  private final Condition having;
  private final int keyCount;
  private final Object[] havingRow;
  /** The sums of whole-number columns, by aggregate index, and their names: their results must be whole numbers too. */
  private final int[] wholeSums;
  private final String[] wholeSumNames;
  /** Which keys are of DOUBLE columns: a key holds 1.0 as 1 (a number is a number), printed 1.0 there. */
  private final boolean[] doubleKeys;
  private long rows;
  private long windows;
  private long lastStart = Long.MIN_VALUE;
  private long lastEnd = Long.MIN_VALUE;
  /** The window bounds of the rows being written, as their JSON strings: a window's rows come together. */
  private byte[] startJson;
  private byte[] endJson;

  public ResultWriter(OutputStream out, QueryPlan plan) {
    this(out, out, "stdout", plan);
  }

  /**
   * Rows to {@code rows} (named {@code rowsTarget} in messages, e.g. {@code --output file://w.ndjson}),
   * the stats line to {@code stats}: with {@code --output}, the file takes the window rows only.
   */
  public ResultWriter(OutputStream rows, OutputStream stats, String rowsTarget, QueryPlan plan) {
    this.out = rows;
    this.statsOut = stats;
    this.rowsTarget = rowsTarget;
    this.g = JsonLines.generator(scratch);
    List<OutputColumn> outputs = plan.outputs();
    this.prefixes = new byte[outputs.size()][];
    this.kinds = new OutputColumn.Kind[outputs.size()];
    this.indexes = new int[outputs.size()];
    for (int i = 0; i < outputs.size(); i++) {
      prefixes[i] = prefix(outputs.get(i).name(), i == 0);
      kinds[i] = outputs.get(i).kind();
      indexes[i] = outputs.get(i).index();
    }
    this.having = plan.having();
    this.keyCount = plan.keyInputs().size();
    this.havingRow = new Object[2 + keyCount + plan.aggregates().size()];
    this.doubleKeys = new boolean[keyCount];
    for (int i = 0; i < keyCount; i++) {
      doubleKeys[i] = plan.inputs().get(plan.keyInputs().get(i)).type() == ValueType.DOUBLE;
    }
    List<Integer> whole = new ArrayList<>();
    for (int i = 0; i < plan.aggregates().size(); i++) {
      if (plan.aggregates().get(i).kind() == AggregateKind.SUM
          && plan.inputs().get(plan.aggregateInputs().get(i)).type() == ValueType.INT64) {
        whole.add(i);
      }
    }
    this.wholeSums = whole.stream().mapToInt(Integer::intValue).toArray();
    this.wholeSumNames = whole.stream().map(i -> plan.aggregates().get(i).outputName()).toArray(String[]::new);
  }

  public void write(WindowResult r) {
    Object[] values = r.values();
    for (int i = 0; i < wholeSums.length; i++) {
      if (values[wholeSums[i]] instanceof Double d) {
        throw new CliException(ErrorCode.TYPE_MISMATCH,
            Aggregates.sumOverflow(wholeSumNames[i], r.key(), r.start(), r.end(), d));
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
      startJson = json(TimeText.format(lastStart));
      endJson = json(TimeText.format(lastEnd));
    }
    rows++;
    try {
      for (int i = 0; i < prefixes.length; i++) {
        put(prefixes[i]);
        switch (kinds[i]) {
          case KEY:
            Object key = r.key().get(indexes[i]);
            value(doubleKeys[indexes[i]] && key instanceof Long l ? (Object) l.doubleValue() : key);
            break;
          case WINDOW_START:
            put(startJson);
            break;
          case WINDOW_END:
            put(endJson);
            break;
          default:
            value(values[indexes[i]]);
        }
      }
      if (prefixes.length == 0) {
        put((byte) '{');
      }
      put((byte) '}');
      put((byte) '\n');
    } catch (IOException e) {
      throw failed(e);
    }
  }

  /** {@code {"name":} (the first column) or {@code ,"name":}, the name as Jackson writes it. */
  private byte[] prefix(String name, boolean first) {
    try {
      g.writeStartObject();
      g.writeFieldName(name);
      g.flush();
      byte[] written = scratch.toByteArray(); // {"name"
      g.writeNull();
      g.writeEndObject();
      g.flush();
      scratch.reset();
      byte[] p = new byte[written.length + 1];
      System.arraycopy(written, first ? 0 : 1, p, first ? 0 : 1, written.length - (first ? 0 : 1));
      if (!first) {
        p[0] = ',';
      }
      p[p.length - 1] = ':';
      return p;
    } catch (IOException impossible) {
      throw new UncheckedIOException(impossible);
    }
  }

  /** Writes a value as {@link JsonValues#write} does. */
  private void value(Object v) throws IOException {
    if (v instanceof String s && plain(s)) {
      int n = s.length();
      room(n + 2);
      buf[used++] = '"';
      s.getBytes(0, n, buf, used); // plain ASCII: one byte a character
      used += n;
      buf[used++] = '"';
    } else if (v instanceof Long l) {
      digits(l);
    } else if (v == null) {
      put(NULL);
    } else {
      put(byJackson(v));
    }
  }

  /** The string {@code s} as {@link #value} writes it. */
  private byte[] json(String s) {
    try {
      return plain(s) ? ('"' + s + '"').getBytes(StandardCharsets.US_ASCII) : byJackson(s);
    } catch (IOException impossible) {
      throw new UncheckedIOException(impossible); // the generator writes to memory
    }
  }

  /** {@code v} as {@link JsonValues#write} writes it. */
  private byte[] byJackson(Object v) throws IOException {
    JsonValues.write(g, v);
    g.flush();
    byte[] b = scratch.toByteArray();
    scratch.reset();
    return b;
  }

  /** Whether Jackson writes {@code s} as its characters, one byte each: printable ASCII, no quote, no backslash. */
  private static boolean plain(String s) {
    for (int i = 0, n = s.length(); i < n; i++) {
      char c = s.charAt(i);
      if (c < 0x20 || c > 0x7E || c == '"' || c == '\\') {
        return false;
      }
    }
    return true;
  }

  private void digits(long v) throws IOException {
    if (v == Long.MIN_VALUE) {
      put("-9223372036854775808".getBytes(StandardCharsets.US_ASCII));
      return;
    }
    room(20);
    if (v < 0) {
      buf[used++] = '-';
      v = -v;
    }
    if (v < 10) { // most counts
      buf[used++] = (byte) ('0' + v);
      return;
    }
    int n = 2;
    for (long bound = 100; n < 19 && v >= bound; bound *= 10) {
      n++;
    }
    // from the last digit back, two a division
    int i = used + n;
    for (; v >= 10; v /= 100) {
      int two = (int) (v % 100);
      buf[--i] = (byte) ('0' + two % 10);
      buf[--i] = (byte) ('0' + two / 10);
    }
    if (i > used) {
      buf[--i] = (byte) ('0' + v);
    }
    used += n;
  }

  private void put(byte b) throws IOException {
    room(1);
    buf[used++] = b;
  }

  private void put(byte[] b) throws IOException {
    room(b.length);
    System.arraycopy(b, 0, buf, used, b.length);
    used += b.length;
  }

  /** Makes room for {@code n} more bytes: sends the buffer on when it is full, grows it for a long value. */
  private void room(int n) throws IOException {
    if (used + n <= buf.length) {
      return;
    }
    drain();
    if (n > buf.length) {
      buf = new byte[n];
    }
  }

  private void drain() throws IOException {
    out.write(buf, 0, used);
    used = 0;
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
      if (statsOut != out) {
        flush();
        statsOut.write((printedStats(s).toJson() + "\n").getBytes(StandardCharsets.UTF_8));
        statsOut.flush();
        return;
      }
      put(printedStats(s).toJson().getBytes(StandardCharsets.UTF_8));
      put((byte) '\n');
      drain();
      out.flush();
    } catch (IOException e) {
      throw new CliException(ErrorCode.IO_ERROR, "cannot write the stats line to stdout (" + OutputFile.reason(e)
          + "); the result rows before it were written" + (stateStored ? " and the new state was stored" : ""), e);
    }
  }

  /** Sends the rows written so far to stdout (or the --output file); a failure to do so stops the run. */
  public void flush() {
    try {
      drain();
      out.flush();
    } catch (IOException e) {
      throw failed(e);
    }
  }

  /** Sends what it can of the rows written so far, after the run failed for another reason. */
  public void flushAfterFailure() {
    try {
      drain();
      out.flush();
    } catch (IOException e) {
      // stdout is gone too: the error that ended the run is what gets told
    }
  }

  private CliException failed(IOException e) {
    return new CliException(ErrorCode.IO_ERROR, "cannot write the results to " + rowsTarget + " ("
        + OutputFile.reason(e) + ")", e);
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
