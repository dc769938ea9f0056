package io.eventtime.hop.fileoutput;

import org.apache.hop.pipeline.transform.BaseTransformData;
import org.apache.hop.pipeline.transform.ITransformData;

/** The running state of one Event File Output: the open writer. */
public class EventFileOutputData extends BaseTransformData implements ITransformData {
  EventFileOutputMeta.OutputSettings settings;
  EventFileWriter writer;
}
