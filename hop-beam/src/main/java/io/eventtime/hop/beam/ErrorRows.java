package io.eventtime.hop.beam;

import org.apache.hop.core.row.RowDataUtil;
import org.apache.hop.core.variables.IVariables;
import org.apache.hop.pipeline.transform.TransformErrorMeta;

/**
 * Builds the rows a transform sends to its error hop the way Hop's local engine does: the row,
 * then the error fields its error handling names (count, description, field, code; the codes are
 * {@link io.eventtime.hop.ErrorCodes}).
 */
final class ErrorRows {
  private ErrorRows() {}

  static Object[] of(TransformErrorMeta errorMeta, IVariables variables, Object[] row, int rowSize, int errorRowSize,
      String description, String field, String code) {
    Object[] out = RowDataUtil.allocateRowData(errorRowSize);
    System.arraycopy(row, 0, out, 0, Math.min(rowSize, row.length));
    errorMeta.addErrorRowData(variables, out, rowSize, 1, description, field == null ? "" : field, code);
    return out;
  }
}
