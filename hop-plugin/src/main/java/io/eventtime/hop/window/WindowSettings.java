package io.eventtime.hop.window;

import io.eventtime.core.AggregateKind;
import io.eventtime.core.AggregateSpec;
import io.eventtime.core.DurationText;
import io.eventtime.core.LatePolicy;
import io.eventtime.core.WindowQuery;
import io.eventtime.core.WindowSpec;
import io.eventtime.core.bind.BindProblem;
import io.eventtime.core.bind.Binding;
import io.eventtime.core.bind.BoundColumn;
import io.eventtime.core.bind.BoundQuery;
import io.eventtime.core.bind.QueryBinder;
import io.eventtime.hop.EventTimeReader;
import io.eventtime.hop.HopValues;
import io.eventtime.hop.Settings;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.hop.core.row.IRowMeta;
import org.apache.hop.core.row.IValueMeta;
import org.apache.hop.core.row.RowMeta;
import org.apache.hop.core.row.value.ValueMetaNumber;
import org.apache.hop.core.row.value.ValueMetaString;
import org.apache.hop.core.row.value.ValueMetaTimestamp;
import org.apache.hop.core.variables.IVariables;

/**
 * The settings of an Event Time Window transform with variables resolved and checked against
 * the input fields (bound by the core's {@link QueryBinder}, whose problems read as the core words
 * them, after the setting's label): the core's {@link WindowQuery}, how to read the time field, where each value
 * sits in an input row, and the layout of the window rows. The local engine runs from it, and a
 * translation to another engine can build its windows from {@link #query()} and
 * {@link #timeReader()}.
 */
public final class WindowSettings {
  /** The aggregates the dialog offers; a count with no field counts rows. */
  public static final String[] AGGREGATES = {"count", "count distinct", "sum", "min", "max", "avg", "first", "last"};

  public static final String[] KINDS = {"tumbling", "hopping", "session"};

  private final WindowQuery query;
  private final EventTimeReader timeReader;
  private final String timeField;
  private final int timeIndex;
  private final int[] keyIndexes;
  private final int[] inputIndexes;
  private final IRowMeta outputRowMeta;
  private final String lateReasonField;
  private final long idleTimeoutMillis;
  private final String stateFolder;
  private final Partitioning partitioning;

  /**
   * Where a row's partition is and how many partitions the stream has (0 to {@code count - 1}),
   * and, with a state folder, where its offset in the partition is (null and -1 without one);
   * or, without a partition field, one partition: the rows in arrival order.
   */
  public record Partitioning(String field, int index, int count, String offsetField, int offsetIndex) {
    static final Partitioning NONE = new Partitioning(null, -1, 1, null, -1);

    public boolean isPartitioned() {
      return field != null;
    }
  }

  private WindowSettings(WindowQuery query, EventTimeReader timeReader, String timeField, int timeIndex,
      int[] keyIndexes, int[] inputIndexes, IRowMeta outputRowMeta, String lateReasonField, long idleTimeoutMillis,
      String stateFolder, Partitioning partitioning) {
    this.query = query;
    this.timeReader = timeReader;
    this.timeField = timeField;
    this.timeIndex = timeIndex;
    this.keyIndexes = keyIndexes;
    this.inputIndexes = inputIndexes;
    this.outputRowMeta = outputRowMeta;
    this.lateReasonField = lateReasonField;
    this.idleTimeoutMillis = idleTimeoutMillis;
    this.stateFolder = stateFolder;
    this.partitioning = partitioning;
  }

  /**
   * Resolves and checks every setting; each problem is added to {@code problems} with how to
   * fix it, and null is returned when there is any. With a null {@code input} (the designer
   * knows no input yet) the fields are not looked up.
   */
  public static WindowSettings resolve(EventTimeWindowMeta meta, IVariables variables, IRowMeta input,
      List<String> problems) {
    int before = problems.size();
    WindowSettings settings = build(meta, variables, input, problems);
    return problems.size() > before ? null : settings;
  }

  /**
   * The layout of the window rows for the designer, as far as the settings allow even when some
   * are wrong (a field whose type cannot be told is a String).
   */
  public static IRowMeta outputLayout(EventTimeWindowMeta meta, IVariables variables, IRowMeta input) {
    return build(meta, variables, input == null || input.isEmpty() ? null : input, new ArrayList<>()).outputRowMeta;
  }

  private static WindowSettings build(EventTimeWindowMeta meta, IVariables variables, IRowMeta input,
      List<String> problems) {
    int before = problems.size();

    String timeField = Settings.resolve(variables, meta.getTimeField());
    // without an input, fieldIndex only reports a missing name or an undefined variable
    Settings.fieldIndex("Time field", timeField, null, problems);
    int timeIndex = -1;
    if (problems.size() == before && input != null) {
      Binding time = QueryBinder.bindTimeField(timeField, HopValues.inputFields(input), HopValues.TIME_TYPES);
      time.problems().forEach(p -> problems.add("Time field: " + p.message()));
      timeIndex = time.draft().timeIndex();
    }
    EventTimeReader reader = EventTimeReader.of(Settings.resolve(variables, meta.getTimeFormat()),
        Settings.resolve(variables, meta.getEpochUnit()), Settings.resolve(variables, meta.getTimeZone()), problems);

    WindowSpec spec = windowSpec(meta, variables, problems);
    String delayText = Settings.resolve(variables, meta.getWatermarkDelay());
    Long delay = delayText == null ? Long.valueOf(0) : Settings.duration("Watermark delay", delayText, problems);
    LatePolicy policy = LatePolicy.WINDOW;
    String policyText = Settings.resolve(variables, meta.getLatePolicy());
    if (policyText != null && !Settings.undefinedVariable("Late policy", policyText, problems)) {
      try {
        policy = LatePolicy.parse(policyText);
      } catch (IllegalArgumentException e) {
        problems.add("Late policy: " + e.getMessage());
      }
    }

    List<String> keyFields = new ArrayList<>();
    for (int i = 0; i < meta.getGroupFields().size(); i++) {
      String name = Settings.resolve(variables, meta.getGroupFields().get(i).getName());
      if (name == null) {
        problems.add("Group by: line " + (i + 1) + " has no field name: fill it in or remove the line");
      } else if (!Settings.undefinedVariable("Group by", name, problems)) {
        keyFields.add(name);
      }
    }

    String start = Settings.resolve(variables, meta.getWindowStartField());
    String end = Settings.resolve(variables, meta.getWindowEndField());
    if (start == null) {
      problems.add("Window start field: missing: name the output field of each window's start, e.g. window_start");
    }
    if (end == null) {
      problems.add("Window end field: missing: name the output field of each window's end, e.g. window_end");
    }

    List<AggregateSpec> aggregates = new ArrayList<>();
    List<Integer> aggregateLines = new ArrayList<>();
    for (int i = 0; i < meta.getAggregates().size(); i++) {
      AggregateSpec spec1 = aggregate(i + 1, meta.getAggregates().get(i), variables, problems);
      if (spec1 != null && (!spec1.kind().needsInput()
          || !Settings.undefinedVariable("Aggregate " + (i + 1) + " (" + spec1 + ")", spec1.inputField(), problems))) {
        aggregates.add(spec1);
        aggregateLines.add(i + 1);
      }
    }
    if (aggregates.isEmpty() && meta.getAggregates().isEmpty()) {
      problems.add("Aggregates: none: add at least one, e.g. count with no field to count the rows of each window");
    }

    // the core binds the keys and aggregates and checks the output names; a null bound name was reported above
    Binding binding = QueryBinder.bind(keyFields, aggregates, null, start, end,
        input == null ? List.of() : HopValues.inputFields(input));
    for (BindProblem p : binding.problems()) {
      if (p.kind() == BindProblem.Kind.NAME_CLASH) {
        problems.add("Output fields: " + p.message());
      } else if (input != null) {
        problems.add((p.subject() == BindProblem.Subject.KEY ? "Group by" : "Aggregate " + aggregateLines.get(p.index()))
            + ": " + p.message());
      }
    }
    BoundQuery bound = binding.draft();
    IRowMeta output = outputLayout(bound, aggregates, input);

    String lateReason = Settings.resolve(variables, meta.getLateReasonField());
    if (meta.getLateTargetTransform() != null && lateReason == null) {
      problems.add("Late reason field: missing: name the field that tells the late rows target why each row is late,"
          + " e.g. late_reason");
    }
    if (lateReason != null && input != null && input.indexOfValue(lateReason) >= 0) {
      problems.add("Late reason field: '" + lateReason + "' is already an input field: give the reason its own name");
    }
    long idle = 0;
    String idleText = Settings.resolve(variables, meta.getIdleTimeout());
    if (idleText != null) {
      Long millis = Settings.positiveDuration("Idle timeout", idleText, problems);
      idle = millis == null ? 0 : millis;
    }

    String stateFolder = Settings.resolve(variables, meta.getStateFolder());
    Partitioning partitioning = partitioning(meta, variables, input, stateFolder != null, problems);

    WindowQuery query = problems.size() > before || spec == null ? null
        : new WindowQuery(spec, keyFields, aggregates, delay, policy);
    return new WindowSettings(query, reader, timeField, timeIndex, bound.keyIndexes(), bound.aggregateInputIndexes(),
        output, lateReason, idle, stateFolder, partitioning);
  }

  /**
   * The partition field and the number of partitions. The partitions are fixed for the run, as
   * the contract has them (those the source has at the start): a row of another partition is
   * rejected, not taken as a partition that joins later.
   */
  private static Partitioning partitioning(EventTimeWindowMeta meta, IVariables variables, IRowMeta input,
      boolean stateFolder, List<String> problems) {
    String field = Settings.resolve(variables, meta.getPartitionField());
    String countText = Settings.resolve(variables, meta.getPartitions());
    String offsetField = Settings.resolve(variables, meta.getOffsetField());
    if (field == null) {
      if (countText != null) {
        problems.add("Partitions: only with a partition field: pick the field that tells each row's partition,"
            + " or clear Partitions");
      }
      if (offsetField != null) {
        problems.add("Offset field: only with a partition field and a state folder: pick the partition field too,"
            + " or clear the offset field");
      }
      return Partitioning.NONE;
    }
    int index = -1;
    if (!Settings.undefinedVariable("Partition field", field, problems) && input != null) {
      index = Settings.fieldIndex("Partition field", field, input, problems);
      if (index >= 0 && input.getValueMeta(index).getType() != IValueMeta.TYPE_INTEGER) {
        problems.add("Partition field: '" + field + "' is a " + input.getValueMeta(index).getTypeDesc()
            + ": the partition field must be an Integer (Event Kafka Input's partition field is one)");
      }
    }
    int count = 1;
    if (countText == null) {
      problems.add("Partitions: missing: with a partition field, give how many partitions the stream has"
          + " (the topic's partition count, e.g. 3): rows of partitions 0 to that count less one are windowed");
    } else if (!Settings.undefinedVariable("Partitions", countText, problems)) {
      try {
        count = Integer.parseInt(countText);
      } catch (NumberFormatException e) {
        count = 0;
      }
      if (count < 1) {
        problems.add("Partitions: '" + countText + "' is not a whole number of at least 1: give the topic's"
            + " partition count, e.g. 3");
        count = 1;
      }
    }
    int offsetIndex = -1;
    if (stateFolder && offsetField == null) {
      problems.add("Offset field: missing: with a partition field and a state folder, pick the field with each"
          + " row's offset in its partition (Event Kafka Input's _offset), so that the state records where each"
          + " partition goes on");
    } else if (!stateFolder && offsetField != null) {
      problems.add("Offset field: only with a state folder, which records each partition's offset: set the state"
          + " folder, or clear the offset field");
      offsetField = null;
    } else if (offsetField != null && !Settings.undefinedVariable("Offset field", offsetField, problems)
        && input != null) {
      offsetIndex = Settings.fieldIndex("Offset field", offsetField, input, problems);
      if (offsetIndex >= 0 && input.getValueMeta(offsetIndex).getType() != IValueMeta.TYPE_INTEGER) {
        problems.add("Offset field: '" + offsetField + "' is a " + input.getValueMeta(offsetIndex).getTypeDesc()
            + ": the offset field must be an Integer (Event Kafka Input's offset field is one)");
      }
    }
    return new Partitioning(field, index, count, offsetField, offsetIndex);
  }

  private static WindowSpec windowSpec(EventTimeWindowMeta meta, IVariables variables, List<String> problems) {
    String kind = Settings.resolve(variables, meta.getWindowKind());
    if (Settings.undefinedVariable("Window kind", kind, problems)) {
      return null;
    }
    String k = kind == null ? "" : kind.toLowerCase(Locale.ROOT);
    Long offset = 0L;
    String offsetText = Settings.resolve(variables, meta.getWindowOffset());
    try {
      switch (k) {
        case "tumbling": {
          Long size = Settings.positiveDuration("Window size", Settings.resolve(variables, meta.getWindowSize()), problems);
          offset = offset(offsetText, problems);
          return size == null || offset == null ? null : WindowSpec.tumbling(size).withOffset(offset);
        }
        case "hopping": {
          String sizeText = Settings.resolve(variables, meta.getWindowSize());
          String slideText = Settings.resolve(variables, meta.getWindowSlide());
          Long size = Settings.positiveDuration("Window size", sizeText, problems);
          Long slide = Settings.positiveDuration("Window slide", slideText, problems);
          offset = offset(offsetText, problems);
          if (size != null && slide != null && slide > size) {
            problems.add("Window slide: the slide (" + slideText + ") is larger than the size (" + sizeText
                + "), so some rows would fall in no window: make the slide at most the size,"
                + " or use a tumbling window");
            return null;
          }
          return size == null || slide == null || offset == null ? null : WindowSpec.hopping(slide, size).withOffset(offset);
        }
        case "session": {
          Long gap = Settings.positiveDuration("Session gap", Settings.resolve(variables, meta.getSessionGap()), problems);
          if (offsetText != null) {
            problems.add("Window offset: applies to tumbling and hopping windows only: clear it for session windows");
          }
          return gap == null ? null : WindowSpec.session(gap);
        }
        default:
          problems.add("Window kind: " + (kind == null ? "missing" : "'" + kind + "' is unknown")
              + ": choose tumbling, hopping or session");
          return null;
      }
    } catch (IllegalArgumentException e) {
      problems.add("Window: " + e.getMessage());
      return null;
    }
  }

  private static Long offset(String text, List<String> problems) {
    if (text == null) {
      return 0L;
    }
    if (Settings.undefinedVariable("Window offset", text, problems)) {
      return null;
    }
    try {
      return DurationText.parseMillis(text);
    } catch (IllegalArgumentException | ArithmeticException e) {
      problems.add("Window offset: " + e.getMessage());
      return null;
    }
  }

  private static AggregateSpec aggregate(int line, WindowAggregate a, IVariables variables, List<String> problems) {
    String field = Settings.resolve(variables, a.getField());
    String kindText = Settings.resolve(variables, a.getAggregate());
    String out = Settings.resolve(variables, a.getOutputName());
    String where = "Aggregate " + line + ": ";
    if (kindText == null) {
      problems.add(where + "no aggregate chosen: choose one of " + String.join(", ", AGGREGATES));
      return null;
    }
    AggregateKind kind;
    try {
      kind = AggregateKind.parse(kindText);
    } catch (IllegalArgumentException e) {
      problems.add(where + "unknown aggregate '" + kindText + "': choose one of " + String.join(", ", AGGREGATES));
      return null;
    }
    if (kind == AggregateKind.COUNT && field == null) {
      kind = AggregateKind.COUNT_ALL;
    }
    if (out == null) {
      problems.add(where + kind.label() + " has no output name: name the field it is written to");
      return null;
    }
    if (kind.needsInput() && field == null) {
      problems.add(where + kind.label() + " needs an input field: pick the field to " + kind.label()
          + " for output '" + out + "'");
      return null;
    }
    return new AggregateSpec(kind, field, out);
  }

  /**
   * The window rows' layout from the core's binding: a key, and a min, max, first or last, keeps its
   * input field's Hop type (a Date stays a Date, a BigNumber a BigNumber); the other aggregates take
   * the Hop type of the core's result type. Where the binding has no type (no input known yet, or a
   * field that is wrong), a sum is a Number and anything else a String (a count and an average
   * have their type whatever the input).
   */
  private static IRowMeta outputLayout(BoundQuery bound, List<AggregateSpec> aggregates, IRowMeta input) {
    IRowMeta output = new RowMeta();
    int aggregate = 0;
    for (BoundColumn c : bound.columns()) {
      String name = c.name();
      switch (c.role()) {
        case WINDOW_START:
          output.addValueMeta(new ValueMetaTimestamp(name == null ? "window_start" : name));
          break;
        case WINDOW_END:
          output.addValueMeta(new ValueMetaTimestamp(name == null ? "window_end" : name));
          break;
        case KEY:
          output.addValueMeta(c.type() != null ? normalCopy(input.getValueMeta(c.inputIndex()), name)
              : new ValueMetaString(name));
          break;
        default:
          AggregateKind kind = aggregates.get(aggregate++).kind();
          if (c.type() == null) {
            output.addValueMeta(kind == AggregateKind.SUM ? new ValueMetaNumber(name) : new ValueMetaString(name));
          } else if (kind == AggregateKind.MIN || kind == AggregateKind.MAX || kind == AggregateKind.FIRST
              || kind == AggregateKind.LAST) {
            output.addValueMeta(normalCopy(input.getValueMeta(c.inputIndex()), name));
          } else {
            output.addValueMeta(HopValues.valueMeta(c.type(), name));
          }
      }
    }
    return output;
  }

  /** A copy of an input field's metadata under {@code name}, in normal storage. */
  private static IValueMeta normalCopy(IValueMeta meta, String name) {
    IValueMeta copy = meta.clone();
    copy.setName(name);
    copy.setStorageType(IValueMeta.STORAGE_TYPE_NORMAL);
    copy.setStorageMetadata(null);
    return copy;
  }

  public WindowQuery query() {
    return query;
  }

  public EventTimeReader timeReader() {
    return timeReader;
  }

  public String timeField() {
    return timeField;
  }

  public int timeIndex() {
    return timeIndex;
  }

  public int[] keyIndexes() {
    return keyIndexes;
  }

  /** Where each aggregate's input sits in an input row; -1 for a count of rows. */
  public int[] inputIndexes() {
    return inputIndexes;
  }

  /** The layout of a window row: the group-by fields, window start and end, the aggregates. */
  public IRowMeta outputRowMeta() {
    return outputRowMeta;
  }

  public String lateReasonField() {
    return lateReasonField;
  }

  /**
   * The folder of the state carried between runs (the core's state store), or null when each
   * run emits all its windows.
   */
  public String stateFolder() {
    return stateFolder;
  }

  /** The partition field and the number of partitions, or one partition without a field. */
  public Partitioning partitioning() {
    return partitioning;
  }

  /** Wall-clock milliseconds without rows after which the watermark follows the clock; 0 for never. */
  public long idleTimeoutMillis() {
    return idleTimeoutMillis;
  }
}
