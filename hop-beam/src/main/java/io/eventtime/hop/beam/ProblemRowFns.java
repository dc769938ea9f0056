package io.eventtime.hop.beam;

import io.eventtime.beam.ProblemRows;
import io.eventtime.core.EventTimeException;
import io.eventtime.hop.ErrorCodes;
import io.eventtime.hop.EventTimeReader;
import io.eventtime.hop.stamp.EventTimeStampMeta;
import io.eventtime.hop.window.EventTimeWindowMeta;
import io.eventtime.hop.window.WindowSettings;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.values.Row;
import org.apache.hop.core.row.RowDataUtil;
import org.apache.hop.pipeline.transform.ITransformMeta;
import org.apache.hop.pipeline.transform.TransformErrorMeta;
import org.apache.hop.pipeline.transform.TransformMeta;

/**
 * The late and rejected rows of the Beam transforms ({@link ProblemRows}: the row, the field,
 * the reason) turned into the rows the Hop transforms send to their late target and error hop,
 * with the reasons worded as the local engine words them.
 */
final class ProblemRowFns {
  private ProblemRowFns() {}

  /** The time field of a Hop transform and how it reads it: the same reader as on the local engine. */
  record TimeRead(String field, int index, EventTimeReader reader) {
    Object valueIn(Object[] row) {
      return row[index];
    }
  }

  static TimeRead timeRead(HopContext context, String transformName, RowLayout input) {
    ITransformMeta meta = context.transform(transformName).getTransform();
    List<String> problems = new ArrayList<>();
    if (meta instanceof EventTimeWindowMeta w) {
      WindowSettings s = w.resolve(context.variables(), input.rowMeta(), problems);
      if (s != null) {
        return new TimeRead(s.timeField(), s.timeIndex(), s.timeReader());
      }
    } else if (meta instanceof EventTimeStampMeta st) {
      EventTimeStampMeta.StampSettings s = st.resolve(context.variables(), input.rowMeta(), problems);
      if (s != null) {
        return new TimeRead(s.timeField(), s.timeIndex(), s.reader());
      }
    }
    throw new IllegalStateException("transform '" + transformName + "': " + String.join("; ", problems));
  }

  /** The input values of a problem row (a wider row, with a column added for the Beam transform, is cut). */
  static Object[] inputValues(Row problem, RowLayout input) {
    Row row = problem.getRow(ProblemRows.ROW);
    Object[] values = new Object[input.size()];
    for (int i = 0; i < values.length; i++) {
      values[i] = row.getValue(i);
    }
    Row inputRow = Row.withSchema(input.schema()).attachValues(withArrival(values, RowLayout.arrival(row)));
    return input.toHop(inputRow);
  }

  private static List<Object> withArrival(Object[] values, long arrival) {
    List<Object> all = new ArrayList<>(values.length + 1);
    for (Object v : values) {
      all.add(v);
    }
    all.add(arrival);
    return all;
  }

  /**
   * Late rows to the late target, with the reason, in the late layout. On a live stream of
   * several partitions the window tells each reason after the row's partition
   * ({@code partition 2, arrival 17: ...}); the local engine's reason, like a file's, has neither.
   */
  static final class LateRowsFn extends DoFn<Row, Row> {
    private final RowLayout input;
    private final RowLayout late;
    private final String partitionField;
    private final Counter written;

    /** {@code partitionField}: the field of each row's partition on a live stream of several, else null. */
    LateRowsFn(String transformName, RowLayout input, RowLayout late, String partitionField) {
      this.input = input;
      this.late = late;
      this.partitionField = partitionField;
      this.written = HopMetrics.counter(transformName, HopMetrics.Kind.WRITTEN);
    }

    @ProcessElement
    public void process(@Element Row problem, OutputReceiver<Row> out) {
      Row row = problem.getRow(ProblemRows.ROW);
      long arrival = RowLayout.arrival(row);
      Object[] values = RowDataUtil.resizeArray(inputValues(problem, input), late.size());
      // the reason as the local engine gives it: the core's words, without the row's place in front
      values[input.size()] = ProblemRows.lateReason(withoutPartition(problem, row), arrival);
      written.inc();
      out.output(late.toBeam(values, arrival));
    }

    private Row withoutPartition(Row problem, Row row) {
      if (partitionField == null) {
        return problem;
      }
      String partition = "partition " + row.getValue(partitionField) + ", ";
      String reason = problem.getString(ProblemRows.REASON);
      if (!reason.startsWith(partition)) {
        throw new IllegalStateException("the late row's reason '" + reason + "' does not start with its partition '"
            + partition + "'");
      }
      return Row.fromRow(problem).withFieldValue(ProblemRows.REASON, reason.substring(partition.length())).build();
    }
  }

  /**
   * Rejected rows: counted if asked, and when the transform has error handling, sent to its error hop
   * with the error fields it names, the description as the local engine gives it.
   */
  static final class RejectedRowsFn extends DoFn<Row, Row> {
    private final HopContext context;
    private final String transformName;
    private final RowLayout input;
    private final RowLayout errors;
    private final Counter rejected;
    private final boolean count;
    private transient TimeRead time;
    private transient TransformErrorMeta errorMeta;

    /**
     * {@code errors}: the layout of the error rows, or null when the transform has no error
     * handling; {@code count}: whether to count the rows, when the Beam transform does not.
     */
    RejectedRowsFn(HopContext context, String transformName, RowLayout input, RowLayout errors, boolean count) {
      this.context = context;
      this.transformName = transformName;
      this.input = input;
      this.errors = errors;
      this.rejected = HopMetrics.counter(transformName, HopMetrics.Kind.REJECTED);
      this.count = count;
    }

    @Setup
    public void setup() {
      TransformMeta transform = context.transform(transformName);
      time = timeRead(context, transformName, input);
      errorMeta = transform.getTransformErrorMeta();
    }

    @ProcessElement
    public void process(@Element Row problem, OutputReceiver<Row> out) {
      if (count) {
        rejected.inc();
      }
      if (errors == null) {
        return;
      }
      Object[] values = inputValues(problem, input);
      String reason;
      try {
        time.reader().read(time.valueIn(values));
        reason = problem.getString(ProblemRows.REASON);
      } catch (EventTimeException e) {
        reason = e.getMessage();
      }
      Object[] error = ErrorRows.of(errorMeta, context.variables(), values, input.size(), errors.size(),
          "field '" + time.field() + "': " + reason, time.field(), ErrorCodes.REJECTED);
      out.output(errors.toBeam(error, RowLayout.arrival(problem.getRow(ProblemRows.ROW))));
    }
  }
}
