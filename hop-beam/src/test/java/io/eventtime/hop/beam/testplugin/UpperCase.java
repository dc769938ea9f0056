package io.eventtime.hop.beam.testplugin;

import java.util.Locale;
import org.apache.hop.core.exception.HopException;
import org.apache.hop.pipeline.Pipeline;
import org.apache.hop.pipeline.PipelineMeta;
import org.apache.hop.pipeline.transform.BaseTransform;
import org.apache.hop.pipeline.transform.TransformMeta;

public class UpperCase extends BaseTransform<UpperCaseMeta, UpperCaseData> {
  public UpperCase(TransformMeta transformMeta, UpperCaseMeta meta, UpperCaseData data, int copyNr,
      PipelineMeta pipelineMeta, Pipeline pipeline) {
    super(transformMeta, meta, data, copyNr, pipelineMeta, pipeline);
  }

  @Override
  public boolean processRow() throws HopException {
    Object[] row = getRow();
    if (row == null) {
      setOutputDone();
      return false;
    }
    if (first) {
      first = false;
      data.index = getInputRowMeta().indexOfValue(resolve(meta.getField()));
      if (data.index < 0) {
        throw new HopException("no field '" + meta.getField() + "' in the input");
      }
    }
    Object value = getInputRowMeta().getValueMeta(data.index).convertToNormalStorageType(row[data.index]);
    if (value != null && value.equals(meta.getDropValue())) {
      return true;
    }
    for (int i = 0; i < meta.getCopiesPerRow(); i++) {
      Object[] out = row.clone();
      out[data.index] = value == null ? null : value.toString().toUpperCase(Locale.ROOT);
      if (value != null && value.equals(meta.getHoldValue())) {
        data.held.add(out);
      } else {
        putRow(getInputRowMeta(), out);
      }
    }
    return true;
  }

  @Override
  public void finishBundle() throws HopException {
    for (Object[] row : data.held) {
      putRow(getInputRowMeta(), row);
    }
    data.held.clear();
    super.finishBundle();
  }
}
