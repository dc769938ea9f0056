package io.eventtime.cli.plan;

import io.eventtime.core.AggregateSpec;
import io.eventtime.core.LatePolicy;
import io.eventtime.core.WindowQuery;
import java.io.Serializable;
import java.util.List;

/**
 * A SQL query bound to a source: what every runner executes. Rows are read into the
 * {@code inputs} (the only fields read from each line); {@code where} tests them; the time
 * column, the keys and each aggregate's input are slots of that row ({@code -1} for count(*)).
 * {@code having} tests a result row laid out as: the keys, the aggregates, window start, window
 * end. {@code outputs} are the result columns in SELECT order.
 */
public record QueryPlan(
    String table,
    WindowCall window,
    List<InputColumn> inputs,
    int timeInput,
    List<Integer> keyInputs,
    List<AggregateSpec> aggregates,
    List<Integer> aggregateInputs,
    Condition where,
    Condition having,
    List<OutputColumn> outputs) implements Serializable {

  public QueryPlan {
    inputs = List.copyOf(inputs);
    keyInputs = List.copyOf(keyInputs);
    aggregates = List.copyOf(aggregates);
    aggregateInputs = List.copyOf(aggregateInputs);
    outputs = List.copyOf(outputs);
  }

  public List<String> inputNames() {
    return inputs.stream().map(InputColumn::name).toList();
  }

  public List<String> keyNames() {
    return keyInputs.stream().map(i -> inputs.get(i).name()).toList();
  }

  public String timeColumn() {
    return inputs.get(timeInput).name();
  }

  /** The core's query for this plan, with the run's watermark delay and late policy. */
  public WindowQuery windowQuery(long delayMillis, LatePolicy latePolicy) {
    return new WindowQuery(window.spec(), keyNames(), aggregates, delayMillis, latePolicy);
  }
}
