package io.eventtime.core.state;

import static io.eventtime.core.contract.WorkedExamples.B;
import static io.eventtime.core.contract.WorkedExamples.C;

import io.eventtime.core.AggregateKind;
import io.eventtime.core.AggregateSpec;
import io.eventtime.core.EventTimeParser;
import io.eventtime.core.Key;
import io.eventtime.core.LatePolicy;
import io.eventtime.core.OpenState;
import io.eventtime.core.TimeText;
import io.eventtime.core.WindowProcessor;
import io.eventtime.core.WindowQuery;
import io.eventtime.core.WindowResult;
import io.eventtime.core.WindowSpec;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;

/** Queries and streams the state tests share. */
final class StateFixtures {
  static final long MIN = 60_000L;

  private StateFixtures() {}

  /** An event time on 2026-03-01, the day of the contract's examples A and B. */
  static long at(String hhmm) {
    return LocalDateTime.parse("2026-03-01T" + hhmm).toInstant(ZoneOffset.UTC).toEpochMilli();
  }

  /** Example B's query (the shared fixture's): tumbling 10 min, delay 5 min, policy event, count(*). */
  static WindowQuery exampleB() {
    return WindowQuery.of(WindowSpec.tumbling(B.sizeMillis())).withDelay(B.delayMillis())
        .withLatePolicy(LatePolicy.parse(B.policy())).withAggregates(AggregateSpec.countAll("events"));
  }

  /** The query of the example in docs/state.md: example C's events by merchant, with a 1 minute delay. */
  static WindowQuery docsQuery() {
    return WindowQuery.of(WindowSpec.tumbling(MIN)).withKeys("merchant").withDelay(MIN).withAggregates(
        AggregateSpec.countAll("orders"),
        AggregateSpec.of(AggregateKind.SUM, "amount", "total"),
        AggregateSpec.of(AggregateKind.AVG, "amount", "mean"),
        AggregateSpec.of(AggregateKind.MAX, "amount", "largest"),
        AggregateSpec.of(AggregateKind.FIRST, "amount", "first_amount"),
        AggregateSpec.of(AggregateKind.LAST, "amount", "last_amount"),
        AggregateSpec.of(AggregateKind.COUNT_DISTINCT, "amount", "distinct_amounts"));
  }

  /** The state the docs example shows: example C's five events run through {@link #docsQuery}. */
  static OpenState docsState(List<String> emitted) {
    WindowProcessor p = new WindowProcessor(docsQuery(), r -> emitted.add(show(r)));
    EventTimeParser parser = EventTimeParser.defaults();
    for (Object[] row : C.rows()) {
      Object amount = row[1];
      p.process(Key.of(row[0]), parser.parse(row[2]), new Object[] {null, amount, amount, amount, amount, amount, amount});
    }
    return p.hold();
  }

  /** A window as one line: key, start, end, values. */
  static String show(WindowResult r) {
    return r.key() + " " + TimeText.format(r.start()) + " " + TimeText.format(r.end()) + " "
        + Arrays.toString(r.values());
  }
}
