package io.eventtime.hop.fileinput;

import io.eventtime.core.follow.FollowedFiles;
import org.apache.hop.core.row.IRowMeta;
import org.apache.hop.pipeline.transform.BaseTransformData;
import org.apache.hop.pipeline.transform.ITransformData;

/** The running state of one Event File Input: the reader over the files. */
public class EventFileInputData extends BaseTransformData implements ITransformData {
  InputSettings settings;
  IRowMeta outputRowMeta;
  EventFileReader reader;
  /** In follow mode: the files followed, which may go on from a stored position before the first row. */
  FollowedFiles followed;
}
