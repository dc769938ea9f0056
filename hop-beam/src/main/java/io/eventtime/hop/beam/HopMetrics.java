package io.eventtime.hop.beam;

import io.eventtime.beam.EventTimeMetrics;
import io.eventtime.core.Stats;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.MetricQueryResults;
import org.apache.beam.sdk.metrics.MetricResult;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.metrics.MetricsFilter;

/**
 * The per-transform counts a translated pipeline keeps, as Hop shows them in its metrics grid:
 * one Beam counter per Hop transform and kind, in the namespace {@code eventtime.hop.<kind>}
 * with the transform's name as the counter's name.
 */
public final class HopMetrics {
  static final String NAMESPACE_PREFIX = "eventtime.hop.";

  /** The kinds of counts, named as Hop names its metrics. */
  public enum Kind {
    /** Rows read from files. */
    INPUT,
    /** Rows read from the previous transforms. */
    READ,
    /** Rows sent to the next transforms (late rows sent to a late target included). */
    WRITTEN,
    /** Rows written to files. */
    OUTPUT,
    /** Rows rejected: sent to error handling, or dropped and counted when there is none. */
    REJECTED,
    /** Rows too late for their windows. */
    LATE;

    String namespace() {
      return NAMESPACE_PREFIX + name().toLowerCase(Locale.ROOT);
    }
  }

  private HopMetrics() {}

  static Counter counter(String transform, Kind kind) {
    return Metrics.counter(kind.namespace(), transform);
  }

  /**
   * The counts of a finished (or running) pipeline: per transform name, per kind. The rows an
   * Event Time Window read, and those late or rejected, are its own counters ({@link
   * EventTimeMetrics}), under the name of the step it was applied with, the transform's.
   */
  public static Map<String, Map<Kind, Long>> read(PipelineResult result, List<String> windowTransforms) {
    Map<String, Map<Kind, Long>> counts = read(result);
    for (String window : windowTransforms) {
      Stats stats = EventTimeMetrics.stats(result, window);
      Map<Kind, Long> c = counts.computeIfAbsent(window, t -> new LinkedHashMap<>());
      c.merge(Kind.READ, stats.rowsIn(), Long::sum);
      c.merge(Kind.LATE, stats.lateDropped(), Long::sum);
      c.merge(Kind.REJECTED, stats.rowsRejected(), Long::sum);
    }
    return counts;
  }

  /** The kind of count a counter's namespace names ({@link Kind#namespace}), or null for another's counter. */
  static Kind kindOf(String namespace) {
    if (!namespace.startsWith(NAMESPACE_PREFIX)) {
      return null;
    }
    try {
      return Kind.valueOf(namespace.substring(NAMESPACE_PREFIX.length()).toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException notOurs) {
      return null;
    }
  }

  /** The counts of the translation's own steps. */
  static Map<String, Map<Kind, Long>> read(PipelineResult result) {
    Map<String, Map<Kind, Long>> counts = new LinkedHashMap<>();
    MetricQueryResults q = result.metrics().queryMetrics(MetricsFilter.builder().build());
    for (MetricResult<Long> c : q.getCounters()) {
      Kind kind = kindOf(c.getName().getNamespace());
      if (kind == null) {
        continue;
      }
      Long value;
      try {
        value = c.getCommitted();
      } catch (UnsupportedOperationException notCommitted) {
        value = c.getAttempted();
      }
      counts.computeIfAbsent(c.getName().getName(), t -> new LinkedHashMap<>())
          .merge(kind, value == null ? 0L : value, Long::sum);
    }
    return counts;
  }
}
