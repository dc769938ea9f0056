package io.eventtime.hop.beam;

import static io.eventtime.core.contract.WorkedExamples.B;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.eventtime.core.contract.WorkedExamples;
import io.eventtime.hop.window.EventTimeWindowMeta;
import io.eventtime.hop.window.WindowAggregate;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.hop.metadata.serializer.memory.MemoryMetadataProvider;
import org.apache.hop.pipeline.PipelineMeta;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The state the local engine and the Beam translation store for the same input: the same
 * watermark and windows, and arrival positions (next_arrival, and the arrival of first and last)
 * in each engine's own numbering, as docs/state.md says: the local engine counts the rows, Beam
 * numbers them by file and line. Either engine goes on from the other's state with the same
 * results. Contract example B, with first and last added to its count.
 */
class StateAcrossEnginesTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path dir;

  @BeforeAll
  static void hop() {
    HopBeamTesting.initHop();
  }

  private static PipelineMeta exampleB() throws Exception {
    PipelineMeta meta = HopBeamTesting.load(HopBeamTesting.samples().resolve("example-b-state.hpl"));
    EventTimeWindowMeta w = (EventTimeWindowMeta) meta.findTransform("Window").getTransform();
    List<WindowAggregate> aggregates = new ArrayList<>(w.getAggregates());
    aggregates.add(new WindowAggregate("event_time", "first", "first_time"));
    aggregates.add(new WindowAggregate("event_time", "last", "last_time"));
    w.setAggregates(aggregates);
    return meta;
  }

  private static PipelineOptions direct() {
    return BeamRunner.DIRECT.options(null, null, List.of());
  }

  /** Run {@code run} (1 or 2) of example B as an NDJSON file, the time in event_time. */
  private Path input(int run) throws Exception {
    Path file = dir.resolve("example-b-run" + run + ".ndjson");
    if (!Files.exists(file)) {
      Files.write(file, (run == 1 ? B.run1() : B.run2()).times().stream()
          .map(t -> "{\"event_time\":\"" + t + "\"}").toList());
    }
    return file;
  }

  private Map<String, String> parameters(int run, Path out, Path state) throws Exception {
    return Map.of(HopBeamTesting.OUTPUT_FOLDER, out.toString(), "STATE_FOLDER", state.toString(), "INPUT_FILE",
        input(run).toString());
  }

  private void local(int run, String name, Path state) throws Exception {
    HopBeamTesting.runLocal(exampleB(), parameters(run, dir.resolve(name), state));
  }

  private void beam(int run, String name, Path state) throws Exception {
    PipelineMeta meta = exampleB();
    HopBeamRun.run(meta, PipelineVariables.of(meta, parameters(run, dir.resolve(name), state)),
        new MemoryMetadataProvider(), direct());
  }

  private static JsonNode state(Path folder) throws Exception {
    return JSON.readTree(folder.resolve("state.json").toFile());
  }

  /** The state without what depends on the engine's numbering of arrivals (and the checksum over it). */
  private static JsonNode withoutArrivals(JsonNode state) {
    ObjectNode copy = state.deepCopy();
    copy.remove("next_arrival");
    copy.remove("checksum");
    for (JsonNode window : copy.get("windows")) {
      for (JsonNode aggregate : window.get("aggregates")) {
        ((ObjectNode) aggregate).remove("arrival");
      }
    }
    return copy;
  }

  private static List<Long> arrivals(JsonNode state) {
    List<Long> out = new ArrayList<>();
    out.add(state.get("next_arrival").asLong());
    for (JsonNode window : state.get("windows")) {
      for (JsonNode aggregate : window.get("aggregates")) {
        if (aggregate.has("arrival")) {
          out.add(aggregate.get("arrival").asLong());
        }
      }
    }
    return out;
  }

  private static Path copyOf(Path state, Path to) throws Exception {
    Files.createDirectories(to);
    Files.copy(state.resolve("state.json"), to.resolve("state.json"));
    return to;
  }

  @Test
  void theEnginesStoreTheSameWindowsAndNumberArrivalsAsDocumentedAndGoOnFromEachOther() throws Exception {
    Path localState = dir.resolve("local-state");
    Path beamState = dir.resolve("beam-state");
    local(1, "local-1", localState);
    beam(1, "beam-1", beamState);
    assertThat(withoutArrivals(state(beamState))).isEqualTo(withoutArrivals(state(localState)));
    // the window 00:10 holds 00:12 and 00:17: the local engine's rows 3 and 4 of 0..4, Beam's lines 4 and 5
    assertThat(arrivals(state(localState))).containsExactly(5L, 3L, 4L);
    assertThat(arrivals(state(beamState))).containsExactly(6L, 4L, 5L);

    Path localFromBeam = copyOf(beamState, dir.resolve("local-from-beam"));
    Path beamFromLocal = copyOf(localState, dir.resolve("beam-from-local"));
    local(2, "local-2", localState);
    beam(2, "beam-2", beamState);
    local(2, "local-from-beam-2", localFromBeam);
    beam(2, "beam-from-local-2", beamFromLocal);

    Map<String, List<String>> expected = HopBeamTesting.files(dir.resolve("local-2"));
    // example B's window of run 2, with the first and last of its rows by arrival: 00:12 (run 1) and 00:13
    assertThat(B.run2().windows()).hasSize(1);
    WorkedExamples.Window window = B.run2().windows().get(0);
    assertThat(expected.get("example-b-state.ndjson")).containsExactly("{\"window_start\":\"" + window.start() + "\","
        + "\"window_end\":\"" + window.end() + "\",\"events\":" + window.count() + ",\"first_time\":\"2026-03-01 00:12:00\","
        + "\"last_time\":\"2026-03-01 00:13:00\"}");
    for (String run : List.of("beam-2", "local-from-beam-2", "beam-from-local-2")) {
      assertThat(HopBeamTesting.files(dir.resolve(run))).as(run).isEqualTo(expected);
    }
    JsonNode reference = withoutArrivals(state(localState));
    for (Path s : List.of(beamState, localFromBeam, beamFromLocal)) {
      assertThat(withoutArrivals(state(s))).as(s.toString()).isEqualTo(reference);
    }
    // the window 00:30 holds 00:30 and 00:34, the 4th and 5th rows of run 2, numbered on from the state
    // the run started from: the local engine counts on (+3, +4, next +5), Beam adds the line (+4, +5, next +6)
    assertThat(arrivals(state(localState))).containsExactly(10L, 8L, 9L);
    assertThat(arrivals(state(beamState))).containsExactly(12L, 10L, 11L);
    assertThat(arrivals(state(localFromBeam))).containsExactly(11L, 9L, 10L);
    assertThat(arrivals(state(beamFromLocal))).containsExactly(11L, 9L, 10L);
  }
}
