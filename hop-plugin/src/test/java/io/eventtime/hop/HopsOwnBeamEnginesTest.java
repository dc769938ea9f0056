package io.eventtime.hop;

import static io.eventtime.hop.HopTestEnvironment.eventTimeLayout;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.eventtime.hop.fileinput.EventFileInputMeta;
import io.eventtime.hop.fileinput.InputField;
import io.eventtime.hop.fileinput.InputFile;
import io.eventtime.hop.fileoutput.EventFileOutputMeta;
import io.eventtime.hop.stamp.EventTimeStampMeta;
import io.eventtime.hop.window.EventTimeWindowMeta;
import io.eventtime.hop.window.WindowAggregate;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.commons.lang3.exception.ExceptionUtils;
import org.apache.hop.core.exception.HopException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * On Hop's own Beam engines, whose generic handler runs a transform in a small pipeline per
 * worker that never sees the end of its input, the transforms that need the whole stream in
 * arrival order refuse to run, and the refusal fails the run (the handler ignores init()).
 */
class HopsOwnBeamEnginesTest {
  private static final String RUN_ELSEWHERE = ". Run this pipeline on the \"Beam Direct (eventtime)\", \"Beam Flink"
      + " (eventtime)\" or \"Beam Spark (eventtime)\" engines, or on the local engine";

  @TempDir
  Path dir;

  @BeforeAll
  static void hop() {
    HopTestEnvironment.init();
  }

  private static String refusal(String transform, String what) {
    return "Transform '" + transform + "' cannot run on Hop's own Beam engines (Beam Direct, Flink, Spark, Dataflow):"
        + " they run it on each worker in a small pipeline that never sees the end of the input, so " + what
        + RUN_ELSEWHERE;
  }

  private static String rootMessage(Throwable t) {
    return ExceptionUtils.getRootCause(t).getMessage().strip();
  }

  @Test
  void theWindowRefusesAtItsFirstRowAndStoresNothing() throws Exception {
    EventTimeWindowMeta w = new EventTimeWindowMeta();
    w.setDefault();
    w.setWindowSize("10 MINUTES");
    w.setAggregates(List.of(new WindowAggregate(null, "count", "events")));
    Path state = dir.resolve("state");
    w.setStateFolder(state.toString());
    try (HopBeamHandlerStandIn worker = new HopBeamHandlerStandIn("window", w, eventTimeLayout())) {
      assertThatThrownBy(() -> worker.process("2026-03-01 00:01:00"))
          .isInstanceOf(HopException.class)
          .satisfies(e -> assertThat(rootMessage(e)).isEqualTo(refusal("window", "windows still open at the end would"
              + " be lost, a window could be sent twice with partial counts, and no state would be stored")));
      assertThat(worker.written()).isEmpty();
    }
    assertThat(state.resolve("state.json")).doesNotExist();
  }

  @Test
  void eventFileInputRefusesToRead() throws Exception {
    Path file = Files.writeString(dir.resolve("in.ndjson"), "{\"event_time\":\"2026-03-01 00:01:00\"}\n");
    EventFileInputMeta in = new EventFileInputMeta();
    in.setDefault();
    in.setFormat("ndjson");
    in.setFiles(List.of(new InputFile(file.toString(), null)));
    in.setFields(List.of(new InputField("event_time", "String", null)));
    try (HopBeamHandlerStandIn worker = new HopBeamHandlerStandIn("read", in, null)) {
      assertThatThrownBy(worker::process)
          .isInstanceOf(HopException.class)
          .satisfies(e -> assertThat(rootMessage(e)).isEqualTo(refusal("read", "its rows would not keep their arrival"
              + " order, and the lines it rejects would not reach its error hop")));
      assertThat(worker.written()).isEmpty();
    }
  }

  @Test
  void eventFileOutputRefusesAndLeavesTheFileAsItWas() throws Exception {
    Path file = Files.writeString(dir.resolve("out.ndjson"), "{\"before\":1}\n");
    EventFileOutputMeta out = new EventFileOutputMeta();
    out.setDefault();
    out.setFilename(file.toString());
    try (HopBeamHandlerStandIn worker = new HopBeamHandlerStandIn("write", out, eventTimeLayout())) {
      assertThatThrownBy(() -> worker.process("2026-03-01 00:01:00"))
          .isInstanceOf(HopException.class)
          .satisfies(e -> assertThat(rootMessage(e)).isEqualTo(refusal("write", "each worker would write the file over"
              + " the other workers' rows, in no particular order")));
    }
    assertThat(Files.readString(file)).isEqualTo("{\"before\":1}\n");
  }

  @Test
  void eventTimeStampRunsRowByRowThere() throws Exception {
    EventTimeStampMeta stamp = new EventTimeStampMeta();
    stamp.setDefault();
    stamp.setTimeField("event_time");
    try (HopBeamHandlerStandIn worker = new HopBeamHandlerStandIn("stamp", stamp, eventTimeLayout())) {
      worker.process("2026-03-01 00:01:00");
      worker.process("2026-03-01 00:02:30");
      assertThat(Rows.text(worker.written(), 1)).containsExactly("2026-03-01 00:01:00", "2026-03-01 00:02:30");
    }
  }
}
