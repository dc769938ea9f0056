package io.eventtime.hop.window;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.eventtime.hop.HopTestEnvironment;
import io.eventtime.hop.LocalRun;
import io.eventtime.hop.PipelineBuilder;
import java.util.ArrayList;
import java.util.List;
import org.apache.hop.core.ICheckResult;
import org.apache.hop.core.exception.HopException;
import org.apache.hop.core.logging.LogLevel;
import org.apache.hop.core.row.IRowMeta;
import org.apache.hop.core.row.RowMeta;
import org.apache.hop.core.row.value.ValueMetaInteger;
import org.apache.hop.core.row.value.ValueMetaString;
import org.apache.hop.core.variables.Variables;
import org.apache.hop.pipeline.PipelineMeta;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The designer's check and the run refuse every bad setting, each with how to fix it. */
class WindowSettingsCheckTest {

  @BeforeAll
  static void hop() {
    HopTestEnvironment.init();
  }

  private static IRowMeta input() {
    IRowMeta input = new RowMeta();
    input.addValueMeta(new ValueMetaString("merchant"));
    input.addValueMeta(new ValueMetaInteger("amount"));
    input.addValueMeta(new ValueMetaString("event_time"));
    return input;
  }

  private static EventTimeWindowMeta valid() {
    EventTimeWindowMeta m = new EventTimeWindowMeta();
    m.setDefault();
    m.setGroupFields(new ArrayList<>(List.of(new GroupField("merchant"))));
    m.setAggregates(new ArrayList<>(List.of(new WindowAggregate(null, "count", "events"),
        new WindowAggregate("amount", "sum", "total"))));
    return m;
  }

  private static final String NO_KAFKA_UPSTREAM = "State folder: with a partition field, the state folder needs an Event"
      + " Kafka Input upstream: it starts each partition at the offset the state holds (Hop's own Kafka Consumer"
      + " cannot), so no row is read twice; read the topic with Event Kafka Input, or clear the state folder";

  private static List<String> errors(EventTimeWindowMeta m) {
    PipelineMeta pipeline = new PipelineBuilder("check").transform("window", m).build();
    List<ICheckResult> remarks = new ArrayList<>();
    m.check(remarks, pipeline, pipeline.findTransform("window"), input(), new String[] {"in"}, new String[0],
        null, new Variables(), null);
    return remarks.stream().filter(r -> r.getType() == ICheckResult.TYPE_RESULT_ERROR).map(ICheckResult::getText).toList();
  }

  /** What resolving {@code m} reports over the input with one more field. */
  private static List<String> problems(EventTimeWindowMeta m, org.apache.hop.core.row.IValueMeta extra) {
    IRowMeta input = input();
    input.addValueMeta(extra);
    List<String> problems = new ArrayList<>();
    m.resolve(new Variables(), input, problems);
    return problems;
  }

  @Test
  void validSettingsPass() {
    assertThat(errors(valid())).isEmpty();
  }

  @Test
  void everyBadSettingIsReportedWithHowToFixIt() {
    EventTimeWindowMeta m = valid();
    m.setTimeField("ts");
    m.setWindowKind("hopping");
    m.setWindowSize("0 MINUTES");
    m.setWindowSlide("ten seconds");
    m.setWatermarkDelay("-5 MINUTES");
    m.setLatePolicy("lenient");
    m.setTimeZone("Mars/Olympus");
    m.setIdleTimeout("0 SECONDS");
    m.setGroupFields(List.of(new GroupField("shop")));
    m.setAggregates(List.of(new WindowAggregate("amount", "median", "m"), new WindowAggregate("merchant", "sum", "s"),
        new WindowAggregate("price", "max", "top"), new WindowAggregate("amount", "avg", null)));
    assertThat(errors(m)).containsExactlyInAnyOrder(
        "Time field: the time field 'ts' is not in the input: pick one of merchant, amount, event_time",
        "Time zone: 'Mars/Olympus' is not a time zone: give a zone id such as UTC, Europe/Paris or +02:00",
        "Window size: must be positive, got '0 MINUTES': give a duration greater than zero, e.g. 10 MINUTE",
        "Window slide: 'ten seconds' is not a duration: write an amount and a unit, e.g. 5 MINUTE, 30 SECONDS or"
            + " 1500 MILLISECONDS (units MILLISECOND, SECOND, MINUTE, HOUR, DAY)",
        "Watermark delay: must not be negative, got '-5 MINUTES': give 0 or a positive duration",
        "Late policy: unknown late policy 'lenient': use one of window, event",
        "Group by: the group-by field 'shop' is not in the input: pick one of merchant, amount, event_time",
        "Aggregate 1: unknown aggregate 'median': choose one of count, count distinct, sum, min, max, avg, first, last",
        "Aggregate 2: the field 'merchant' of sum(merchant) is of type String, which is not a number: sum takes a"
            + " numeric field; use count, min or max for that field, or sum a numeric one",
        "Aggregate 3: the field 'price' of max(price) is not in the input: pick one of merchant, amount, event_time",
        "Aggregate 4: avg has no output name: name the field it is written to",
        "Idle timeout: must be positive, got '0 SECONDS': give a duration greater than zero, e.g. 10 MINUTE");
  }

  @Test
  void slideLargerThanSizeAndMissingSettings() {
    EventTimeWindowMeta m = valid();
    m.setWindowKind("hopping");
    m.setWindowSize("1 MINUTE");
    m.setWindowSlide("2 MINUTES");
    m.setTimeField(null);
    m.setWindowStartField("");
    m.setAggregates(List.of(new WindowAggregate(null, "sum", "total"), new WindowAggregate(null, "count", "merchant")));
    assertThat(errors(m)).containsExactlyInAnyOrder(
        "Time field: missing: pick a field of the input",
        "Window slide: the slide (2 MINUTES) is larger than the size (1 MINUTE), so some rows would fall in no window:"
            + " make the slide at most the size, or use a tumbling window",
        "Window start field: missing: name the output field of each window's start, e.g. window_start",
        "Aggregate 1: sum needs an input field: pick the field to sum for output 'total'",
        "Output fields: the output name 'merchant' is used twice: give each output column its own name");
  }

  @Test
  void durationsAndHopsBeyondTheCoreLimitsAreReportedInTheCoreWords() {
    EventTimeWindowMeta m = valid();
    m.setWindowKind("hopping");
    m.setWindowSize("1 DAY");
    m.setWindowSlide("1 SECOND");
    m.setWatermarkDelay("3652426 DAYS");
    assertThat(errors(m)).containsExactlyInAnyOrder(
        "Window: the hopping window size (86400000 ms) is 86400 times its slide (1000 ms), so each row would land in"
            + " 86400 windows; at most 10000 are supported: make the slide at least the size / 10000 (8640 ms), or the"
            + " size smaller",
        "Watermark delay: '3652426 DAYS' is too long a duration: give at most 3652425 DAYS (10,000 years)");
    m.setWindowKind("session");
    m.setSessionGap("106751991168 DAYS");
    m.setWatermarkDelay("0 s");
    assertThat(errors(m)).containsExactly(
        "Session gap: '106751991168 DAYS' is too long a duration: give at most 3652425 DAYS (10,000 years)");
  }

  @Test
  void sessionGapAndKind() {
    EventTimeWindowMeta m = valid();
    m.setWindowKind("session");
    m.setSessionGap("0 s");
    m.setWindowOffset("1 MINUTE");
    assertThat(errors(m)).containsExactlyInAnyOrder(
        "Session gap: must be positive, got '0 s': give a duration greater than zero, e.g. 10 MINUTE",
        "Window offset: applies to tumbling and hopping windows only: clear it for session windows");
    m.setWindowKind("rolling");
    assertThat(errors(m)).containsExactly("Window kind: 'rolling' is unknown: choose tumbling, hopping or session");
  }

  @Test
  void aKeyOrAggregateOfATypeThatCannotBeGroupedIsReported() {
    EventTimeWindowMeta m = valid();
    m.setGroupFields(List.of(new GroupField("blob")));
    m.setAggregates(List.of(new WindowAggregate("blob", "max", "biggest")));
    assertThat(problems(m, new org.apache.hop.core.row.value.ValueMetaBinary("blob"))).containsExactly(
        "Group by: the group-by field 'blob' is of type Binary, which cannot be a key: group by a number, string,"
            + " boolean or timestamp field",
        "Aggregate 1: the field 'blob' of max(blob) is of type Binary, which cannot be aggregated: aggregate a number,"
            + " string, boolean or timestamp field");
  }

  @Test
  void aTimeFieldThatHoldsNoTimeAndNamesThatDifferOnlyInCaseAreReportedInTheCoreWords() {
    EventTimeWindowMeta m = valid();
    m.setTimeField("flag");
    m.setAggregates(List.of(new WindowAggregate(null, "count", "Merchant")));
    assertThat(problems(m, new org.apache.hop.core.row.value.ValueMetaBoolean("flag"))).containsExactly(
        "Time field: the time field 'flag' is of type Boolean, which holds no time: give a timestamp field, whole"
            + " epoch numbers (INT64, or DOUBLE holding whole numbers) or date-time strings",
        "Output fields: the output name 'Merchant' is used twice (as 'merchant' and 'Merchant': names are compared"
            + " ignoring case): give each output column its own name");
  }

  @Test
  void moreThanOneCopyIsReported() {
    EventTimeWindowMeta m = valid();
    PipelineMeta pipeline = new PipelineBuilder("copies").transform("window", m).build();
    pipeline.findTransform("window").setCopiesString("2");
    List<ICheckResult> remarks = new ArrayList<>();
    m.check(remarks, pipeline, pipeline.findTransform("window"), input(), new String[] {"in"}, new String[0], null,
        new Variables(), null);
    assertThat(remarks.stream().filter(r -> r.getType() == ICheckResult.TYPE_RESULT_ERROR).map(ICheckResult::getText))
        .containsExactly("Copies: it runs in 2 copies, which would split its rows, while the windows need every row in"
            + " arrival order in one place: set the number of copies to 1");
  }

  @Test
  void aWindowWithoutInputIsReported() {
    EventTimeWindowMeta m = valid();
    PipelineMeta pipeline = new PipelineBuilder("check").transform("window", m).build();
    List<ICheckResult> remarks = new ArrayList<>();
    m.check(remarks, pipeline, pipeline.findTransform("window"), null, new String[0], new String[0], null,
        new Variables(), null);
    assertThat(remarks.stream().filter(r -> r.getType() == ICheckResult.TYPE_RESULT_ERROR).map(ICheckResult::getText))
        .containsExactly("No input: connect a transform that sends the rows to window, e.g. Event File Input");
  }

  @Test
  void aLateTargetWithoutAHopIsReported() {
    EventTimeWindowMeta m = valid();
    m.setLateTargetTransform("late rows");
    assertThat(errors(m)).containsExactly("Late rows target: 'late rows' is not a transform this one sends rows to:"
        + " draw a hop to it and choose 'Late rows', or clear the target");
  }

  /** The window between an Injector and a Dummy, and a Dummy "late" it has no hop to: refused at init. */
  private static LocalRun refusedAtInit(EventTimeWindowMeta m) {
    IRowMeta layout = input();
    PipelineMeta p = new PipelineBuilder("refused").injector("in", layout).transform("window", m).dummy("out")
        .dummy("late").hop("in", "window").hop("window", "out").build();
    LocalRun run = new LocalRun(p).inject("in", layout, List.of());
    assertThatThrownBy(() -> run.run("out")).isInstanceOf(HopException.class).hasMessageContaining("failed to initialize");
    return run;
  }

  @Test
  void theRunRefusesALateTargetWithoutAHopAtInit() {
    EventTimeWindowMeta m = valid();
    m.setLateTargetTransform("late");
    assertThat(refusedAtInit(m).messages(LogLevel.ERROR)).contains("window: Late rows target: there is no hop from"
        + " 'window' to 'late': draw one and choose 'Late rows', or clear the target");
  }

  @Test
  void theRunRefusesBadSettingsBeforeItStarts() {
    EventTimeWindowMeta m = valid();
    m.setWindowSize("-1 MINUTE");
    refusedAtInit(m);
  }

  @Test
  void aFieldTheRowsDoNotHaveIsFoundAtTheFirstRowWhenTheDesignCannotTellTheFields() throws Exception {
    EventTimeWindowMeta m = valid();
    m.setTimeField("ts");
    IRowMeta layout = input();
    // an Injector that declares no fields: the design knows nothing of the rows to come
    PipelineMeta p = new PipelineBuilder("refused").injector("in", new RowMeta()).transform("window", m).dummy("out")
        .hop("in", "window").hop("window", "out").build();
    LocalRun.Result r = new LocalRun(p).inject("in", layout, List.<Object[]>of(new Object[] {"acme", 1L, "2026-03-01"}))
        .run("out");
    assertThat(r.errors()).isPositive();
    assertThat(r.rows("out")).isEmpty();
  }

  @Test
  void aPartitionFieldNeedsAnIntegerFieldOfTheInputAndTheNumberOfPartitions() {
    EventTimeWindowMeta m = valid();
    m.setPartitionField("amount");
    m.setPartitions("3");
    assertThat(errors(m)).isEmpty();

    m.setPartitionField("merchant");
    m.setPartitions(null);
    assertThat(errors(m)).containsExactlyInAnyOrder(
        "Partition field: 'merchant' is a String: the partition field must be an Integer (Event Kafka Input's"
            + " partition field is one)",
        "Partitions: missing: with a partition field, give how many partitions the stream has (the topic's partition"
            + " count, e.g. 3): rows of partitions 0 to that count less one are windowed");

    m.setPartitionField("_partition");
    m.setPartitions("0");
    assertThat(errors(m)).containsExactlyInAnyOrder(
        "Partition field: the field '_partition' is not in the input: pick one of merchant, amount, event_time",
        "Partitions: '0' is not a whole number of at least 1: give the topic's partition count, e.g. 3");

    m.setPartitionField("amount");
    m.setPartitions("three");
    m.setStateFolder("/tmp/state");
    m.setIdleTimeout("10 SECONDS");
    assertThat(errors(m)).containsExactlyInAnyOrder(
        "Partitions: 'three' is not a whole number of at least 1: give the topic's partition count, e.g. 3",
        "Offset field: missing: with a partition field and a state folder, pick the field with each row's offset in"
            + " its partition (Event Kafka Input's _offset), so that the state records where each partition goes on",
        NO_KAFKA_UPSTREAM);

    m.setIdleTimeout(null);
    m.setPartitions("3");
    m.setOffsetField("merchant");
    assertThat(errors(m)).containsExactly("Offset field: 'merchant' is a String: the offset field must be an Integer"
        + " (Event Kafka Input's offset field is one)", NO_KAFKA_UPSTREAM);
    m.setOffsetField("amount");
    assertThat(errors(m)).containsExactly(NO_KAFKA_UPSTREAM);
    m.setStateFolder(null);
    assertThat(errors(m)).containsExactly("Offset field: only with a state folder, which records each partition's"
        + " offset: set the state folder, or clear the offset field");

    m = valid();
    m.setPartitions("3");
    m.setOffsetField("amount");
    assertThat(errors(m)).containsExactly("Partitions: only with a partition field: pick the field that tells each"
        + " row's partition, or clear Partitions",
        "Offset field: only with a partition field and a state folder: pick the partition field too, or clear the"
            + " offset field");
  }
}
