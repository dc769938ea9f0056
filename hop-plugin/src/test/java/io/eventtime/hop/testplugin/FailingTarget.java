package io.eventtime.hop.testplugin;

import org.apache.hop.core.exception.HopException;
import org.apache.hop.pipeline.Pipeline;
import org.apache.hop.pipeline.PipelineMeta;
import org.apache.hop.pipeline.transform.BaseTransform;
import org.apache.hop.pipeline.transform.TransformMeta;

public class FailingTarget extends BaseTransform<FailingTargetMeta, FailingTargetData> {
  public FailingTarget(TransformMeta transformMeta, FailingTargetMeta meta, FailingTargetData data, int copyNr,
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
    throw new HopException("the failing target cannot take row " + (getLinesRead()));
  }
}
