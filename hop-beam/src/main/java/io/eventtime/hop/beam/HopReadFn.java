package io.eventtime.hop.beam;

import io.eventtime.hop.ErrorCodes;
import java.util.List;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.hop.pipeline.transform.TransformErrorMeta;
import org.apache.hop.pipeline.transform.TransformMeta;

/**
 * What the reads of a Hop input transform on Beam share (Event File Input's files, Event Kafka
 * Input's records): the transform's settings resolved once per worker, and each record handed on
 * as the local engine does, as a row, or, when it was rejected, as an error row to the transform's
 * error hop (when it has one), counted under the transform's name.
 */
abstract class HopReadFn<InputT> extends DoFn<InputT, Row> {
  final HopContext context;
  final String transformName;
  final RowLayout rows;
  private final RowLayout errors;
  private final TupleTag<Row> rowsTag;
  private final TupleTag<Row> errorsTag;
  private final Counter input;
  private final Counter written;
  private final Counter rejected;
  private transient TransformErrorMeta errorMeta;

  HopReadFn(HopContext context, String transformName, RowLayout rows, RowLayout errors, TupleTag<Row> rowsTag,
      TupleTag<Row> errorsTag) {
    this.context = context;
    this.transformName = transformName;
    this.rows = rows;
    this.errors = errors;
    this.rowsTag = rowsTag;
    this.errorsTag = errorsTag;
    this.input = HopMetrics.counter(transformName, HopMetrics.Kind.INPUT);
    this.written = HopMetrics.counter(transformName, HopMetrics.Kind.WRITTEN);
    this.rejected = HopMetrics.counter(transformName, HopMetrics.Kind.REJECTED);
  }

  /** The transform, with its error hop's settings taken for {@link #handOn}: call it at set-up. */
  TransformMeta transform() {
    TransformMeta transform = context.transform(transformName);
    errorMeta = errors == null ? null : transform.getTransformErrorMeta();
    return transform;
  }

  /** The resolved {@code settings}, or the failure of the set-up with the {@code problems} that made them null. */
  static <S> S resolved(S settings, List<String> problems) {
    if (settings == null) {
      throw new IllegalStateException(String.join("; ", problems));
    }
    return settings;
  }

  /** Hands one record on at arrival {@code position}: its row, or its error row when it was rejected. */
  void handOn(boolean isRejected, Object[] values, String error, String errorField, long position,
      MultiOutputReceiver out) {
    input.inc();
    if (!isRejected) {
      written.inc();
      out.get(rowsTag).output(rows.toBeam(values, position));
      return;
    }
    rejected.inc();
    if (errorMeta != null) {
      Object[] errorRow = ErrorRows.of(errorMeta, context.variables(), values, rows.size(), errors.size(), error,
          errorField, ErrorCodes.UNREADABLE);
      out.get(errorsTag).output(errors.toBeam(errorRow, position));
    }
  }
}
