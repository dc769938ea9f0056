package io.eventtime.core.bind;

import io.eventtime.core.AggregateKind;
import io.eventtime.core.AggregateSpec;
import io.eventtime.core.ValueType;
import io.eventtime.core.WindowQuery;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Binds a window query to the fields of its input, once for every surface (the Beam transform,
 * the Hop transforms, the SQL planner). Each surface maps its own field types to the core's
 * {@link ValueType} and shows the problems in its own way; the rules and their words are here:
 * <ul>
 *   <li>every field the query names (time, keys, aggregate inputs) is in the input; a field is
 *       found by its exact name, else by its name ignoring case ({@link OutputNames});</li>
 *   <li>the time field is a timestamp, whole epoch numbers (INT64) or date-time strings;</li>
 *   <li>a key, and an aggregate's input, is of a type the core holds;</li>
 *   <li>the aggregate takes its input's type, and its result type is
 *       {@link AggregateKind#resultType}'s (a sum of strings is refused there);</li>
 *   <li>no two output columns share a name, compared ignoring case ({@link OutputNames}).</li>
 * </ul>
 * Every problem is reported, not only the first. Rules of the query alone (a slide larger than
 * the size, an aggregate without a field) are the core records' own and checked when the query is
 * made.
 */
public final class QueryBinder {
  /** The core types a time field may have. */
  public static final Set<ValueType> TIME_TYPES =
      Collections.unmodifiableSet(EnumSet.of(ValueType.TIMESTAMP, ValueType.INT64, ValueType.STRING));

  private QueryBinder() {}

  /**
   * Binds {@code query} to {@code input}, the fields of an input row in order; the window rows
   * name their bounds {@code windowStart} and {@code windowEnd}.
   */
  public static Binding bind(WindowQuery query, String timeField, String windowStart, String windowEnd,
      List<InputField> input) {
    return bind(query.keyFields(), query.aggregates(), timeField, windowStart, windowEnd, input);
  }

  /**
   * Binds the parts of a query, for a surface that checks them before it has a whole
   * {@link WindowQuery} (a Hop dialog whose window size is still missing). A null
   * {@code timeField} is not looked up: the surface has said it is missing.
   */
  public static Binding bind(List<String> keyFields, List<AggregateSpec> aggregates, String timeField,
      String windowStart, String windowEnd, List<InputField> input) {
    List<BindProblem> problems = new ArrayList<>();
    int timeIndex = timeField == null ? -1 : time(timeField, input, TIME_TYPES, problems);
    List<BoundColumn> columns = new ArrayList<>();
    for (int i = 0; i < keyFields.size(); i++) {
      String key = keyFields.get(i);
      int index = find(input, key);
      ValueType type = null;
      if (index < 0) {
        problems.add(missing(BindProblem.Subject.KEY, i, key, "the group-by field '" + key + "'", input));
      } else if (input.get(index).known() && input.get(index).type() == null) {
        problems.add(new BindProblem(BindProblem.Subject.KEY, i, key, BindProblem.Kind.WRONG_TYPE,
            "the group-by field '" + key + "' is of type " + input.get(index).typeName()
                + ", which cannot be a key: group by a number, string, boolean or timestamp field"));
      } else {
        type = input.get(index).type();
      }
      columns.add(new BoundColumn(key, BoundColumn.Role.KEY, type, index));
    }
    columns.add(new BoundColumn(windowStart, BoundColumn.Role.WINDOW_START, ValueType.TIMESTAMP, -1));
    columns.add(new BoundColumn(windowEnd, BoundColumn.Role.WINDOW_END, ValueType.TIMESTAMP, -1));
    for (int i = 0; i < aggregates.size(); i++) {
      columns.add(aggregate(aggregates.get(i), i, input, problems));
    }
    problems.addAll(OutputNames.clashes(columns.stream().map(BoundColumn::name).toList()));
    return new Binding(new BoundQuery(timeIndex, columns), problems);
  }

  /**
   * Binds the time field alone, for a surface that reads event times without windowing them
   * (Beam's {@code EventTimestamps}); the draft has no columns.
   */
  public static Binding bindTimeField(String timeField, List<InputField> input) {
    return bindTimeField(timeField, input, TIME_TYPES);
  }

  /**
   * Binds the time field alone, for a surface whose time reader reads more types than the
   * core's parser: Hop's reads whole Number and BigNumber values as epoch numbers, so it adds
   * DOUBLE to {@link #TIME_TYPES}.
   */
  public static Binding bindTimeField(String timeField, List<InputField> input, Set<ValueType> timeTypes) {
    List<BindProblem> problems = new ArrayList<>();
    return new Binding(new BoundQuery(time(timeField, input, timeTypes, problems), List.of()), problems);
  }

  private static int time(String timeField, List<InputField> input, Set<ValueType> timeTypes,
      List<BindProblem> problems) {
    int index = find(input, timeField);
    if (index < 0) {
      problems.add(missing(BindProblem.Subject.TIME, 0, timeField, "the time field '" + timeField + "'", input));
    } else if (input.get(index).known() && !timeTypes.contains(input.get(index).type())) {
      String numbers = timeTypes.contains(ValueType.DOUBLE) ? "INT64, or DOUBLE holding whole numbers" : "INT64";
      problems.add(new BindProblem(BindProblem.Subject.TIME, 0, timeField, BindProblem.Kind.WRONG_TYPE,
          "the time field '" + timeField + "' is of type " + input.get(index).typeName()
              + ", which holds no time: give a timestamp field, whole epoch numbers (" + numbers
              + ") or date-time strings"));
    }
    return index;
  }

  private static BoundColumn aggregate(AggregateSpec a, int i, List<InputField> input, List<BindProblem> problems) {
    AggregateKind kind = a.kind();
    if (!kind.needsInput()) {
      return new BoundColumn(a.outputName(), BoundColumn.Role.AGGREGATE, kind.resultType(null), -1);
    }
    String call = kind.label() + "(" + a.inputField() + ")";
    String what = "the field '" + a.inputField() + "' of " + call;
    int index = find(input, a.inputField());
    ValueType result = resultWithoutInput(kind);
    if (index < 0) {
      problems.add(missing(BindProblem.Subject.AGGREGATE, i, a.inputField(), what, input));
    } else if (!input.get(index).known()) {
      result = resultWithoutInput(kind);
    } else if (input.get(index).type() == null) {
      problems.add(new BindProblem(BindProblem.Subject.AGGREGATE, i, a.inputField(), BindProblem.Kind.WRONG_TYPE,
          what + " is of type " + input.get(index).typeName()
              + ", which cannot be aggregated: aggregate a number, string, boolean or timestamp field"));
    } else {
      try {
        result = kind.resultType(input.get(index).type());
      } catch (IllegalArgumentException notANumber) {
        result = null;
        problems.add(new BindProblem(BindProblem.Subject.AGGREGATE, i, a.inputField(), BindProblem.Kind.WRONG_TYPE,
            what + " is of type " + input.get(index).typeName() + ", which is not a number: " + kind.label()
                + " takes a numeric field; use count, min or max for that field, or " + kind.label()
                + " a numeric one"));
      }
    }
    return new BoundColumn(a.outputName(), BoundColumn.Role.AGGREGATE, result, index);
  }

  /**
   * The result type of an aggregate whose input cannot be bound, for the draft: the type it has
   * whatever input it takes (a count's INT64, an average's DOUBLE); null when that depends on the input.
   */
  private static ValueType resultWithoutInput(AggregateKind kind) {
    Set<ValueType> results = EnumSet.noneOf(ValueType.class);
    for (ValueType input : ValueType.values()) {
      try {
        results.add(kind.resultType(input));
      } catch (IllegalArgumentException notTaken) {
        // an input this aggregate does not take gives no result type
      }
    }
    return results.size() == 1 ? results.iterator().next() : null;
  }

  private static BindProblem missing(BindProblem.Subject subject, int i, String field, String what,
      List<InputField> input) {
    String fields = input.isEmpty() ? "the input has no fields"
        : "pick one of " + input.stream().map(InputField::name).collect(Collectors.joining(", "));
    return new BindProblem(subject, i, field, BindProblem.Kind.MISSING_FIELD, what + " is not in the input: " + fields);
  }

  /** The index of the field named {@code name}: the exact name first, else the first equal ignoring case; -1 if none. */
  private static int find(List<InputField> input, String name) {
    for (int i = 0; i < input.size(); i++) {
      if (input.get(i).name().equals(name)) {
        return i;
      }
    }
    for (int i = 0; i < input.size(); i++) {
      if (OutputNames.same(input.get(i).name(), name)) {
        return i;
      }
    }
    return -1;
  }
}
