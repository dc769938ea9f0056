package io.eventtime.beam;

import io.eventtime.core.Stats;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Distribution;
import org.apache.beam.sdk.metrics.DistributionResult;
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
  /**
   * The live path's gauge of the windows its key buckets hold open (a window held in parts by
   * several partitions counts once per part, as do sessions waiting to be joined). A counter that
   * goes up and down, so that its sum over the workers is the total, exact at every fold: Beam's
   * gauges keep one value per step, not a sum over keys. After a stop with a state it is the
   * number of windows handed to the state; after a drain 0.
   */
  public static final String OPEN_WINDOWS = "open_windows";
  /** The live path's gauge of the rows waiting to be put in position order (a counter that goes up and down). */
  public static final String BUFFERED_ROWS = "buffered_rows";
  /** Distribution: the windows one key bucket holds open after each fold (its maximum is the largest). */
  public static final String BUCKET_OPEN_WINDOWS = "bucket_open_windows";
  /**
   * Distribution: the size in bytes of one key bucket's held state, measured each time its open
   * windows reach a new high (its maximum is the largest state a bucket held).
   */
  public static final String BUCKET_STATE_BYTES = "bucket_state_bytes";
  /** Distribution: the rows one partition has waiting to be put in order, after each row and release. */
  public static final String PARTITION_BUFFERED_ROWS = "partition_buffered_rows";
  /**
   * Distribution, one value per window row emitted while the stream runs: the wall time at its
   * emission less the Beam timestamp of the release that closed it (just after the arrival stamp
   * of the row that closed it), in milliseconds.
   */
  public static final String WINDOW_CLOSE_LATENCY_MS = "window_close_latency_ms";

  private EventTimeMetrics() {}

  static Counter counter(String name) {
    return Metrics.counter(NAMESPACE, name);
  }

  static Distribution distribution(String name) {
    return Metrics.distribution(NAMESPACE, name);
  }

  /** How many bytes {@code coder} writes for {@code value}: a held state's size. */
  static <T> long encodedSize(Coder<T> coder, T value) {
    long[] n = {0};
    OutputStream counting = new OutputStream() {
      @Override
      public void write(int b) {
        n[0]++;
      }

      @Override
      public void write(byte[] b, int off, int len) {
        n[0] += len;
      }
    };
    try {
      coder.encode(value, counting);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return n[0];
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

  /**
   * The value of the counter {@code name} of this namespace, summed over the transforms applied
   * under {@code step} (all when null): a stat, or a gauge such as {@value #OPEN_WINDOWS}.
   */
  public static long read(PipelineResult result, String step, String name) {
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

  /**
   * The largest value the distribution {@code name} of this namespace took under {@code step}
   * (all when null), such as {@value #BUCKET_OPEN_WINDOWS}; null when it took none.
   */
  public static Long max(PipelineResult result, String step, String name) {
    MetricsFilter.Builder filter = MetricsFilter.builder().addNameFilter(MetricNameFilter.named(NAMESPACE, name));
    if (step != null) {
      filter.addStep(step);
    }
    Long max = null;
    for (MetricResult<DistributionResult> d : result.metrics().queryMetrics(filter.build()).getDistributions()) {
      DistributionResult v;
      try {
        v = d.getCommitted();
      } catch (UnsupportedOperationException notCommitted) {
        v = d.getAttempted();
      }
      if (v != null && v.getCount() > 0) {
        max = max == null ? v.getMax() : Math.max(max, v.getMax());
      }
    }
    return max;
  }
}
