package io.eventtime.core;

import java.io.Serializable;
import java.util.List;
import java.util.Objects;

/**
 * Everything that decides which windows a stream yields: the window spec, the group-by fields,
 * the aggregates, the watermark delay and the late policy. Two runs that share state must
 * share the query.
 */
public record WindowQuery(WindowSpec spec, List<String> keyFields, List<AggregateSpec> aggregates,
    long delayMillis, LatePolicy latePolicy) implements Serializable {

  public WindowQuery {
    Objects.requireNonNull(spec, "a window spec is required");
    keyFields = List.copyOf(keyFields);
    aggregates = List.copyOf(aggregates);
    Objects.requireNonNull(latePolicy, "a late policy is required");
    if (delayMillis < 0) {
      throw new IllegalArgumentException("the watermark delay must not be negative, got " + delayMillis
          + " ms: give 0 or a positive duration such as 5 MINUTE");
    }
    TimeRange.requireDuration("watermark delay", delayMillis);
  }

  /** A query with no keys, no aggregates, no delay and the default {@code window} policy. */
  public static WindowQuery of(WindowSpec spec) {
    return new WindowQuery(spec, List.of(), List.of(), 0, LatePolicy.WINDOW);
  }

  public WindowQuery withSpec(WindowSpec s) {
    return new WindowQuery(s, keyFields, aggregates, delayMillis, latePolicy);
  }

  public WindowQuery withKeys(String... fields) {
    return new WindowQuery(spec, List.of(fields), aggregates, delayMillis, latePolicy);
  }

  public WindowQuery withAggregates(AggregateSpec... aggs) {
    return new WindowQuery(spec, keyFields, List.of(aggs), delayMillis, latePolicy);
  }

  public WindowQuery withDelay(long millis) {
    return new WindowQuery(spec, keyFields, aggregates, millis, latePolicy);
  }

  public WindowQuery withLatePolicy(LatePolicy policy) {
    return new WindowQuery(spec, keyFields, aggregates, delayMillis, policy);
  }
}
