package io.eventtime.hop.stamp;

import io.eventtime.core.EventTimeException;
import io.eventtime.hop.ErrorCodes;
import io.eventtime.hop.HopValues;
import io.eventtime.hop.Settings;
import org.apache.hop.core.exception.HopException;
import org.apache.hop.core.exception.HopTransformException;
import org.apache.hop.core.exception.HopValueException;
import org.apache.hop.core.row.IRowMeta;
import org.apache.hop.core.row.RowDataUtil;
import org.apache.hop.i18n.BaseMessages;
import org.apache.hop.pipeline.Pipeline;
import org.apache.hop.pipeline.PipelineMeta;
import org.apache.hop.pipeline.transform.BaseTransform;
import org.apache.hop.pipeline.transform.TransformMeta;

/**
 * Reads each row's event time with the core's parser and writes it as a Timestamp; a row whose
 * time is missing or unreadable goes to error handling with the field and the reason.
 */
public class EventTimeStamp extends BaseTransform<EventTimeStampMeta, EventTimeStampData> {
  private static final Class<?> PKG = EventTimeStampMeta.class;

  public EventTimeStamp(TransformMeta transformMeta, EventTimeStampMeta meta, EventTimeStampData data,
      int copyNr, PipelineMeta pipelineMeta, Pipeline pipeline) {
    super(transformMeta, meta, data, copyNr, pipelineMeta, pipeline);
  }

  @Override
  public boolean init() {
    if (!super.init()) {
      return false;
    }
    // the fields too where the design tells them, before any row is written anywhere
    IRowMeta layout = Settings.previousLayout(this);
    return Settings.resolvedAtInit(this, problems -> meta.resolve(this, layout, problems)) != null;
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
      data.settings = Settings.resolvedOrRefused(getTransformName(),
          problems -> meta.resolve(this, getInputRowMeta(), problems));
      data.timeMeta = getInputRowMeta().getValueMeta(data.settings.timeIndex());
      data.outputRowMeta = getInputRowMeta().clone();
      meta.getFields(data.outputRowMeta, getTransformName(), null, null, this, metadataProvider);
    }
    long eventTime;
    try {
      eventTime = data.settings.reader().read(HopValues.nativeValue(data.timeMeta, row[data.settings.timeIndex()]));
    } catch (EventTimeException | HopValueException e) {
      reject(row, e.getMessage());
      return true;
    }
    int at = data.settings.outputIndex();
    Object[] out = at >= 0 ? row : RowDataUtil.resizeArray(row, data.outputRowMeta.size());
    out[at >= 0 ? at : getInputRowMeta().size()] = HopValues.timestamp(eventTime);
    putRow(data.outputRowMeta, out);
    return true;
  }

  private void reject(Object[] row, String reason) throws HopTransformException {
    String field = data.settings.timeField();
    if (getTransformMeta().isDoingErrorHandling()) {
      putError(getInputRowMeta(), row, 1, BaseMessages.getString(PKG, "EventTimeStamp.Rejected.Description", field,
          reason), field, ErrorCodes.REJECTED);
    } else {
      incrementLinesRejected();
      logBasic(BaseMessages.getString(PKG, "EventTimeStamp.Log.Rejected", getLinesRead(), field, reason));
    }
  }
}
