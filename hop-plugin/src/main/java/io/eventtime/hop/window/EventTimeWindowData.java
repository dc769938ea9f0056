package io.eventtime.hop.window;

import io.eventtime.core.PartitionedWindowProcessor;
import io.eventtime.core.state.StateStore;
import java.util.concurrent.ScheduledExecutorService;
import org.apache.hop.core.IRowSet;
import org.apache.hop.core.row.IRowMeta;
import org.apache.hop.core.row.IValueMeta;
import org.apache.hop.pipeline.transform.BaseTransformData;
import org.apache.hop.pipeline.transform.ITransformData;

/**
 * The running state of one Event Time Window transform: the core processor and its open windows
 * (one partition without a partition field).
 */
public class EventTimeWindowData extends BaseTransformData implements ITransformData {
  WindowSettings settings;
  PartitionedWindowProcessor processor;
  IRowMeta outputRowMeta;
  IValueMeta timeMeta;
  IValueMeta partitionMeta;
  IValueMeta[] keyMetas;
  IValueMeta[] inputMetas;

  /** Where late rows go, taken out of the main outputs; null to count and log them only. */
  IRowSet lateRowSet;
  IRowMeta lateRowMeta;
  long lateToTarget;

  /** The state carried between runs, when a state folder is set; its new state once staged. */
  StateStore store;
  StateStore.Staged staged;

  /** The processor is shared with the idle watch: both hold this lock while they use it. */
  final Object lock = new Object();
  ScheduledExecutorService idleWatch;
  long lastRowNanos;
  boolean finished;

  /** The processor, for callers that read its stats after a run. */
  public PartitionedWindowProcessor processor() {
    return processor;
  }
}
