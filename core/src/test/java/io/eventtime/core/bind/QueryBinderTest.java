package io.eventtime.core.bind;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.eventtime.core.AggregateKind;
import io.eventtime.core.AggregateSpec;
import io.eventtime.core.ValueType;
import io.eventtime.core.WindowQuery;
import io.eventtime.core.WindowSpec;
import io.eventtime.core.bind.BindProblem.Kind;
import io.eventtime.core.bind.BindProblem.Subject;
import io.eventtime.core.bind.BoundColumn.Role;
import java.util.List;
import org.junit.jupiter.api.Test;

class QueryBinderTest {
  private static final List<InputField> INPUT = List.of(
      InputField.of("merchant", ValueType.STRING),
      new InputField("amount", ValueType.DOUBLE, "BigNumber"),
      InputField.of("qty", ValueType.INT64),
      InputField.of("event_time", ValueType.TIMESTAMP),
      new InputField("blob", null, "Binary"),
      InputField.of("ok", ValueType.BOOLEAN));
  private static final WindowQuery QUERY = WindowQuery.of(WindowSpec.tumbling(60_000));

  private static Binding bind(WindowQuery query, String timeField) {
    return QueryBinder.bind(query, timeField, "window_start", "window_end", INPUT);
  }

  @Test
  void aQueryBindsToItsColumnsInOrderWithTheResultTypesOfItsAggregates() {
    WindowQuery query = QUERY.withKeys("merchant", "ok").withAggregates(AggregateSpec.countAll("n"),
        AggregateSpec.of(AggregateKind.SUM, "qty", "units"), AggregateSpec.of(AggregateKind.SUM, "amount", "total"),
        AggregateSpec.of(AggregateKind.AVG, "qty", "mean"), AggregateSpec.of(AggregateKind.MAX, "event_time", "last_seen"),
        AggregateSpec.of(AggregateKind.COUNT_DISTINCT, "merchant", "shops"));
    BoundQuery bound = bind(query, "event_time").bound();
    assertThat(bound.timeIndex()).isEqualTo(3);
    assertThat(bound.columns()).containsExactly(
        new BoundColumn("merchant", Role.KEY, ValueType.STRING, 0),
        new BoundColumn("ok", Role.KEY, ValueType.BOOLEAN, 5),
        new BoundColumn("window_start", Role.WINDOW_START, ValueType.TIMESTAMP, -1),
        new BoundColumn("window_end", Role.WINDOW_END, ValueType.TIMESTAMP, -1),
        new BoundColumn("n", Role.AGGREGATE, ValueType.INT64, -1),
        new BoundColumn("units", Role.AGGREGATE, ValueType.INT64, 2),
        new BoundColumn("total", Role.AGGREGATE, ValueType.DOUBLE, 1),
        new BoundColumn("mean", Role.AGGREGATE, ValueType.DOUBLE, 2),
        new BoundColumn("last_seen", Role.AGGREGATE, ValueType.TIMESTAMP, 3),
        new BoundColumn("shops", Role.AGGREGATE, ValueType.INT64, 0));
    assertThat(bound.keyIndexes()).containsExactly(0, 5);
    assertThat(bound.aggregateInputIndexes()).containsExactly(-1, 2, 1, 2, 3, 0);
    assertThat(bound.aggregateTypes()).containsExactly(ValueType.INT64, ValueType.INT64, ValueType.DOUBLE,
        ValueType.DOUBLE, ValueType.TIMESTAMP, ValueType.INT64);
  }

  @Test
  void everyTypeThatHoldsATimeServesAsTheTimeField() {
    List<InputField> input = List.of(InputField.of("a", ValueType.TIMESTAMP), InputField.of("b", ValueType.INT64),
        InputField.of("c", ValueType.STRING));
    for (String field : List.of("a", "b", "c")) {
      assertThat(QueryBinder.bind(QUERY, field, "s", "e", input).isBound()).as(field).isTrue();
    }
  }

  @Test
  void aFieldIsFoundByItsExactNameFirstThenIgnoringCase() {
    List<InputField> input = List.of(InputField.of("Shop", ValueType.STRING), InputField.of("shop", ValueType.INT64),
        InputField.of("TS", ValueType.TIMESTAMP));
    BoundQuery bound = QueryBinder.bind(QUERY.withKeys("shop"), "ts", "s", "e", input).bound();
    assertThat(bound.timeIndex()).isEqualTo(2);
    assertThat(bound.columns().get(0)).isEqualTo(new BoundColumn("shop", Role.KEY, ValueType.INT64, 1));
    assertThat(QueryBinder.bind(QUERY.withKeys("SHOP"), "ts", "s", "e", input).bound().keyIndexes()).containsExactly(0);
  }

  @Test
  void everyProblemIsReportedAtOnceEachWithItsFieldAndAFix() {
    WindowQuery query = QUERY.withKeys("shop", "blob").withAggregates(
        AggregateSpec.of(AggregateKind.SUM, "merchant", "total"), AggregateSpec.of(AggregateKind.AVG, "ok", "mean"),
        AggregateSpec.of(AggregateKind.MAX, "price", "top"), AggregateSpec.of(AggregateKind.MIN, "blob", "least"),
        AggregateSpec.countAll("Window_Start"));
    Binding binding = bind(query, "ok");
    String fields = "pick one of merchant, amount, qty, event_time, blob, ok";
    assertThat(binding.problems()).containsExactly(
        new BindProblem(Subject.TIME, 0, "ok", Kind.WRONG_TYPE, "the time field 'ok' is of type BOOLEAN, which holds"
            + " no time: give a timestamp field, whole epoch numbers (INT64) or date-time strings"),
        new BindProblem(Subject.KEY, 0, "shop", Kind.MISSING_FIELD,
            "the group-by field 'shop' is not in the input: " + fields),
        new BindProblem(Subject.KEY, 1, "blob", Kind.WRONG_TYPE, "the group-by field 'blob' is of type Binary, which"
            + " cannot be a key: group by a number, string, boolean or timestamp field"),
        new BindProblem(Subject.AGGREGATE, 0, "merchant", Kind.WRONG_TYPE, "the field 'merchant' of sum(merchant) is"
            + " of type STRING, which is not a number: sum takes a numeric field; use count, min or max for that"
            + " field, or sum a numeric one"),
        new BindProblem(Subject.AGGREGATE, 1, "ok", Kind.WRONG_TYPE, "the field 'ok' of avg(ok) is of type BOOLEAN,"
            + " which is not a number: avg takes a numeric field; use count, min or max for that field, or avg"
            + " a numeric one"),
        new BindProblem(Subject.AGGREGATE, 2, "price", Kind.MISSING_FIELD,
            "the field 'price' of max(price) is not in the input: " + fields),
        new BindProblem(Subject.AGGREGATE, 3, "blob", Kind.WRONG_TYPE, "the field 'blob' of min(blob) is of type"
            + " Binary, which cannot be aggregated: aggregate a number, string, boolean or timestamp field"),
        new BindProblem(Subject.OUTPUT_NAME, 8, null, Kind.NAME_CLASH, "the output name 'Window_Start' is used twice"
            + " (as 'window_start' and 'Window_Start': names are compared ignoring case): give each output column its"
            + " own name"));
    assertThatThrownBy(binding::bound).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(binding::orElseThrow).isInstanceOf(IllegalArgumentException.class)
        .hasMessage(binding.problems().stream().map(BindProblem::message).reduce((a, b) -> a + "\n" + b).orElseThrow());
  }

  @Test
  void theDraftKeepsWhatCouldBeBoundAndLeavesTheRestUntyped() {
    WindowQuery query = QUERY.withKeys("shop").withAggregates(AggregateSpec.of(AggregateKind.SUM, "price", "total"),
        AggregateSpec.countAll("n"), AggregateSpec.of(AggregateKind.COUNT, "price", "prices"),
        AggregateSpec.of(AggregateKind.MAX, "blob", "top"));
    BoundQuery draft = bind(query, "event_time").draft();
    assertThat(draft.columns()).containsExactly(
        new BoundColumn("shop", Role.KEY, null, -1),
        new BoundColumn("window_start", Role.WINDOW_START, ValueType.TIMESTAMP, -1),
        new BoundColumn("window_end", Role.WINDOW_END, ValueType.TIMESTAMP, -1),
        new BoundColumn("total", Role.AGGREGATE, null, -1),
        new BoundColumn("n", Role.AGGREGATE, ValueType.INT64, -1),
        new BoundColumn("prices", Role.AGGREGATE, ValueType.INT64, -1),
        new BoundColumn("top", Role.AGGREGATE, null, 4));
  }

  @Test
  void aSurfaceWhoseReaderReadsWholeDoublesAddsThemToTheTimeTypes() {
    List<InputField> input = List.of(new InputField("t", ValueType.DOUBLE, "Number"), InputField.of("b", ValueType.BOOLEAN));
    java.util.Set<ValueType> withDoubles = java.util.EnumSet.of(ValueType.TIMESTAMP, ValueType.INT64, ValueType.DOUBLE,
        ValueType.STRING);
    assertThat(QueryBinder.bindTimeField("t", input, withDoubles).bound().timeIndex()).isEqualTo(0);
    assertThat(QueryBinder.bindTimeField("t", input).message()).isEqualTo("the time field 't' is of type Number, which"
        + " holds no time: give a timestamp field, whole epoch numbers (INT64) or date-time strings");
    assertThat(QueryBinder.bindTimeField("b", input, withDoubles).message()).isEqualTo("the time field 'b' is of type"
        + " BOOLEAN, which holds no time: give a timestamp field, whole epoch numbers (INT64, or DOUBLE holding whole"
        + " numbers) or date-time strings");
  }

  @Test
  void aFieldWhoseTypeCannotBeToldYetIsNotCheckedAndWhatDependsOnItIsUntyped() {
    List<InputField> input = List.of(InputField.unknown("t", "unknown"), InputField.unknown("x", "unknown"));
    WindowQuery query = QUERY.withKeys("x").withAggregates(AggregateSpec.of(AggregateKind.SUM, "x", "total"),
        AggregateSpec.of(AggregateKind.COUNT, "x", "n"), AggregateSpec.of(AggregateKind.AVG, "x", "mean"));
    assertThat(QueryBinder.bind(query, "t", "s", "e", input).bound().columns()).containsExactly(
        new BoundColumn("x", Role.KEY, null, 1),
        new BoundColumn("s", Role.WINDOW_START, ValueType.TIMESTAMP, -1),
        new BoundColumn("e", Role.WINDOW_END, ValueType.TIMESTAMP, -1),
        new BoundColumn("total", Role.AGGREGATE, null, 1),
        new BoundColumn("n", Role.AGGREGATE, ValueType.INT64, 1),
        new BoundColumn("mean", Role.AGGREGATE, ValueType.DOUBLE, 1));
  }

  @Test
  void aFieldNotInAnInputWithoutFieldsSaysSo() {
    assertThat(QueryBinder.bind(QUERY, "t", "s", "e", List.of()).message())
        .isEqualTo("the time field 't' is not in the input: the input has no fields");
  }

  @Test
  void aMissingTimeFieldTheSurfaceHasReportedIsNotLookedUp() {
    Binding binding = QueryBinder.bind(List.of(), List.of(AggregateSpec.countAll("n")), null, "s", "e", INPUT);
    assertThat(binding.isBound()).isTrue();
    assertThat(binding.bound().timeIndex()).isEqualTo(-1);
  }

  @Test
  void outputNamesClashIgnoringCaseInTheRootLocale() {
    assertThat(OutputNames.same("TITLE", "title")).isTrue();
    assertThat(OutputNames.same("total", "totals")).isFalse();
    assertThat(OutputNames.same(null, "x")).isFalse();
    assertThat(OutputNames.clashes(java.util.Arrays.asList("n", null, "m", "n", "M"))).containsExactly(
        new BindProblem(Subject.OUTPUT_NAME, 3, null, Kind.NAME_CLASH,
            "the output name 'n' is used twice: give each output column its own name"),
        new BindProblem(Subject.OUTPUT_NAME, 4, null, Kind.NAME_CLASH, "the output name 'M' is used twice (as 'm' and"
            + " 'M': names are compared ignoring case): give each output column its own name"));
  }

  @Test
  void theTurkishLocaleDoesNotChangeWhichNamesClash() {
    java.util.Locale before = java.util.Locale.getDefault();
    try {
      java.util.Locale.setDefault(java.util.Locale.forLanguageTag("tr"));
      assertThat(OutputNames.same("TITLE", "title")).isTrue();
    } finally {
      java.util.Locale.setDefault(before);
    }
  }
}
