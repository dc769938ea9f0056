package io.eventtime.hop;

import static io.eventtime.hop.HopTestEnvironment.eventTimeLayout;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.eventtime.hop.fileinput.EventFileInputMeta;
import io.eventtime.hop.fileinput.InputField;
import io.eventtime.hop.fileinput.InputFile;
import io.eventtime.hop.fileoutput.EventFileOutputMeta;
import io.eventtime.hop.window.EventTimeWindowMeta;
import io.eventtime.hop.window.GroupField;
import io.eventtime.hop.window.WindowAggregate;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hop.core.exception.HopException;
import org.apache.hop.core.logging.LogLevel;
import org.apache.hop.core.variables.Variables;
import org.apache.hop.pipeline.PipelineMeta;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the local engine refuses before the first row is written anywhere: more than one copy of a
 * transform that needs all rows in order, a field the input does not have, an undefined variable.
 */
class RefusedAtInitTest {
  @TempDir
  Path dir;

  @BeforeAll
  static void hop() {
    HopTestEnvironment.init();
  }

  private static EventTimeWindowMeta window() {
    EventTimeWindowMeta w = new EventTimeWindowMeta();
    w.setDefault();
    w.setWindowSize("10 MINUTES");
    w.setAggregates(new ArrayList<>(List.of(new WindowAggregate(null, "count", "events"))));
    return w;
  }

  private EventFileOutputMeta output(Path file) {
    EventFileOutputMeta out = new EventFileOutputMeta();
    out.setDefault();
    out.setFilename(file.toString());
    return out;
  }

  /** The error messages of the run, without Hop's own lines about the failed init. */
  private static List<String> refusals(LocalRun run) {
    return run.messages(LogLevel.ERROR).stream().filter(m -> m.contains("The settings of transform")).toList();
  }

  private static List<Object[]> rows(String... times) {
    List<Object[]> rows = new ArrayList<>();
    for (String t : times) {
      rows.add(new Object[] {"2026-03-01 " + t});
    }
    return rows;
  }

  private static final String COPIES_OF_WINDOW = "window: The settings of transform 'window' are not valid:\n"
      + "  - Copies: it runs in 2 copies, which would split its rows, while the windows need every row in arrival"
      + " order in one place: set the number of copies to 1";

  @Test
  void aWindowInTwoCopiesIsRefused() throws Exception {
    Path file = Files.writeString(dir.resolve("windows.ndjson"), "kept\n");
    PipelineMeta p = new PipelineBuilder("copies").injector("in", eventTimeLayout()).transform("window", window())
        .transform("write", output(file)).hop("in", "window").hop("window", "write").build();
    p.findTransform("window").setCopiesString("2");
    LocalRun run = new LocalRun(p).inject("in", eventTimeLayout(), rows("00:01:00", "00:12:00"));
    assertThatThrownBy(() -> run.run()).isInstanceOf(HopException.class).hasMessageContaining("failed to initialize");
    // each copy refuses
    assertThat(refusals(run)).containsExactly(COPIES_OF_WINDOW, COPIES_OF_WINDOW);
    assertThat(Files.readString(file)).isEqualTo("kept\n");
  }

  @Test
  void eventFileInputAndOutputInTwoCopiesAreRefused() throws Exception {
    Path in = Files.writeString(dir.resolve("in.ndjson"), "{\"event_time\":\"2026-03-01 00:01:00\"}\n");
    EventFileInputMeta read = new EventFileInputMeta();
    read.setDefault();
    read.setFormat("ndjson");
    read.setFiles(List.of(new InputFile(in.toString(), null)));
    read.setFields(List.of(new InputField("event_time", "String", null)));
    PipelineMeta p = new PipelineBuilder("copies").transform("read", read)
        .transform("write", output(dir.resolve("out.ndjson"))).hop("read", "write").build();
    p.findTransform("read").setCopiesString("2");
    p.findTransform("write").setCopiesString("3");
    LocalRun run = new LocalRun(p);
    assertThatThrownBy(() -> run.run()).isInstanceOf(HopException.class).hasMessageContaining("failed to initialize");
    assertThat(refusals(run)).containsOnly(
        "read: The settings of transform 'read' are not valid:\n  - Copies: it runs in 2 copies, and each copy would"
            + " read every file again, its rows mixed with the other copies': set the number of copies to 1",
        "write: The settings of transform 'write' are not valid:\n  - Copies: it runs in 3 copies, and each copy"
            + " would write the same file over the others' rows: set the number of copies to 1");
    assertThat(dir.resolve("out.ndjson")).doesNotExist();
  }

  @Test
  void aGroupByOrAggregateFieldTheInputDoesNotHaveIsRefusedBeforeAnyOutputIsOpened() throws Exception {
    Path file = Files.writeString(dir.resolve("windows.ndjson"), "kept\n");
    EventTimeWindowMeta w = window();
    w.setGroupFields(new ArrayList<>(List.of(new GroupField("merchant"))));
    w.getAggregates().add(new WindowAggregate("amount", "sum", "total"));
    PipelineMeta p = new PipelineBuilder("missing").injector("in", eventTimeLayout()).transform("window", w)
        .transform("write", output(file)).hop("in", "window").hop("window", "write").build();
    LocalRun run = new LocalRun(p).inject("in", eventTimeLayout(), rows("00:01:00", "00:12:00"));
    assertThatThrownBy(() -> run.run()).isInstanceOf(HopException.class).hasMessageContaining("failed to initialize");
    assertThat(refusals(run)).containsExactly("window: The settings of transform 'window' are not valid:\n"
        + "  - Group by: the group-by field 'merchant' is not in the input: pick one of event_time\n"
        + "  - Aggregate 2: the field 'amount' of sum(amount) is not in the input: pick one of event_time");
    assertThat(run.messages(LogLevel.ERROR)).noneMatch(m -> m.contains("\tat "));
    assertThat(Files.readString(file)).isEqualTo("kept\n");
  }

  @Test
  void aFieldEventFileOutputDoesNotFindIsRefusedBeforeItsFileIsOpened() throws Exception {
    Path file = Files.writeString(dir.resolve("rows.ndjson"), "kept\n");
    EventFileOutputMeta out = output(file);
    out.setFields(List.of(new io.eventtime.hop.fileoutput.OutputField("nope")));
    PipelineMeta p = new PipelineBuilder("missing").injector("in", eventTimeLayout()).transform("write", out)
        .hop("in", "write").build();
    LocalRun run = new LocalRun(p).inject("in", eventTimeLayout(), rows("00:01:00"));
    assertThatThrownBy(() -> run.run()).isInstanceOf(HopException.class).hasMessageContaining("failed to initialize");
    assertThat(refusals(run)).containsExactly("write: The settings of transform 'write' are not valid:\n"
        + "  - Field 1: the field 'nope' is not in the input: pick one of event_time");
    assertThat(Files.readString(file)).isEqualTo("kept\n");
  }

  @Test
  void anUndefinedVariableIsNamedAsUndefined() {
    EventTimeWindowMeta w = window();
    w.setWindowSize("${WINDOW_SIZE}");
    w.setWatermarkDelay("${DELAY} MINUTES");
    w.setGroupFields(new ArrayList<>(List.of(new GroupField("${KEY}"))));
    List<String> problems = new ArrayList<>();
    w.resolve(new Variables(), eventTimeLayout(), problems);
    String fix = " is not defined: give it a value (a pipeline parameter, a variable of the run configuration or of"
        + " the environment), or write the setting without it";
    assertThat(problems).containsExactly(
        "Window size: the variable ${WINDOW_SIZE}" + fix,
        "Watermark delay: the variable ${DELAY}" + fix,
        "Group by: the variable ${KEY}" + fix);

    EventFileOutputMeta out = output(Path.of("${OUTPUT_FOLDER}/windows.ndjson"));
    problems.clear();
    out.resolve(new Variables(), eventTimeLayout(), problems);
    assertThat(problems).containsExactly("File name: the variable ${OUTPUT_FOLDER}" + fix);

    EventFileInputMeta read = new EventFileInputMeta();
    read.setDefault();
    read.setFormat("${FORMAT}");
    read.setFiles(List.of(new InputFile("${INPUT_FOLDER}/events.ndjson", null)));
    read.setFields(List.of(new InputField("event_time", "String", null)));
    problems.clear();
    read.resolve(new Variables(), problems);
    assertThat(problems).containsExactly("Format: the variable ${FORMAT}" + fix, "File 1: the variable ${INPUT_FOLDER}" + fix);

    w = window();
    w.setWindowKind("${KIND}");
    problems.clear();
    w.resolve(new Variables(), eventTimeLayout(), problems);
    assertThat(problems).containsExactly("Window kind: the variable ${KIND}" + fix);
  }

  @Test
  void aDefinedVariableIsResolved() {
    EventTimeWindowMeta w = window();
    w.setWindowSize("${WINDOW_SIZE}");
    Variables v = new Variables();
    v.setVariable("WINDOW_SIZE", "5 MINUTES");
    List<String> problems = new ArrayList<>();
    assertThat(w.resolve(v, eventTimeLayout(), problems).query().spec()).isEqualTo(io.eventtime.core.WindowSpec.tumbling(300_000L));
    assertThat(problems).isEmpty();
  }
}
