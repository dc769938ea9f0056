package io.eventtime.hop.stamp;

import org.apache.hop.core.row.IRowMeta;
import org.apache.hop.core.row.IValueMeta;
import org.apache.hop.pipeline.transform.BaseTransformData;
import org.apache.hop.pipeline.transform.ITransformData;

/** The running state of one Event Time Stamp transform. */
public class EventTimeStampData extends BaseTransformData implements ITransformData {
  EventTimeStampMeta.StampSettings settings;
  IValueMeta timeMeta;
  IRowMeta outputRowMeta;
}
