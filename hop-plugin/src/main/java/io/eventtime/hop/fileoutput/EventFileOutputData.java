package io.eventtime.hop.fileoutput;

import io.eventtime.hop.SharedState;
import org.apache.hop.pipeline.transform.BaseTransformData;
import org.apache.hop.pipeline.transform.ITransformData;

/** The running state of one Event File Output: the open writer. */
public class EventFileOutputData extends BaseTransformData implements ITransformData {
  EventFileOutputMeta.OutputSettings settings;
  EventFileWriter writer;

  /**
   * With a stateful Event Time Window directly upstream: the window, the file's local path (null
   * when it is not a local file), the rows written, and whether the output has ended. The writes,
   * the count and a commit's length are taken under {@link #ledger}.
   */
  SharedState committer;
  String path;
  long written;
  boolean ended;
  final Object ledger = new Object();
}
