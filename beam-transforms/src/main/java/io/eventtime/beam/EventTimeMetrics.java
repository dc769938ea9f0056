package io.eventtime.beam;

import io.eventtime.core.Stats;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.MetricNameFilter;
import org.apache.beam.sdk.metrics.MetricQueryResults;
import org.apache.beam.sdk.metrics.MetricResult;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.metrics.MetricsFilter;

/**
 * The run's stats as Beam counters, all in the {@value #NAMESPACE} namespace and named as the
 * contract names them, and their reading back into a {@link Stats} once a pipeline has run.
 */
public final class EventTimeMetrics {
  public static final String NAMESPACE = "eventtime";
  public static final String ROWS_IN = "rows_in";
  public static final String ROWS_OUT = "rows_out";
  public static final String LATE_DROPPED = "late_dropped";
  public static final String WINDOWS_CLOSED = "windows_closed";
  public static final String ROWS_FOLDED = "rows_folded";
  public static final String ROWS_REJECTED = "rows_rejected";

  private EventTimeMetrics() {}

  static Counter counter(String name) {
    return Metrics.counter(NAMESPACE, name);
  }

  /** The stats of a finished pipeline, summed over every eventtime transform in it. */
  public static Stats stats(PipelineResult result) {
    return stats(result, null);
  }

  /**
   * The stats of the transforms applied under the name {@code step} (for example the name an
   * {@link EventTimeWindow} was applied with), or of all when it is null.
   */
  public static Stats stats(PipelineResult result, String step) {
    return new Stats(read(result, step, ROWS_IN), read(result, step, ROWS_OUT), read(result, step, LATE_DROPPED),
        read(result, step, WINDOWS_CLOSED), read(result, step, ROWS_FOLDED), read(result, step, ROWS_REJECTED));
  }

  private static long read(PipelineResult result, String step, String name) {
    MetricsFilter.Builder filter = MetricsFilter.builder().addNameFilter(MetricNameFilter.named(NAMESPACE, name));
    if (step != null) {
      filter.addStep(step);
    }
    MetricQueryResults q = result.metrics().queryMetrics(filter.build());
    long sum = 0;
    for (MetricResult<Long> c : q.getCounters()) {
      Long v;
      try {
        v = c.getCommitted();
      } catch (UnsupportedOperationException notCommitted) {
        v = c.getAttempted();
      }
      sum += v == null ? 0 : v;
    }
    return sum;
  }
}
