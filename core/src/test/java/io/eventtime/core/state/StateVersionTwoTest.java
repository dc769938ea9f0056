package io.eventtime.core.state;

import static io.eventtime.core.state.StateFixtures.MIN;
import static io.eventtime.core.state.StateFixtures.at;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.eventtime.core.AggregateKind;
import io.eventtime.core.AggregateSpec;
import io.eventtime.core.Key;
import io.eventtime.core.LatePolicy;
import io.eventtime.core.OpenState;
import io.eventtime.core.PartitionedWindowProcessor;
import io.eventtime.core.TimeText;
import io.eventtime.core.WindowQuery;
import io.eventtime.core.WindowResult;
import io.eventtime.core.WindowSpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The state format's version 2 (docs/state.md, docs/design/live-streams.md section 4.1): several
 * partitions with their positions, the source, the committed outputs; version 1 still written
 * when it holds the whole state; and what is refused when reading.
 */
class StateVersionTwoTest {
  private static final Path DOCS = Path.of("..", "docs");
  static final String RESTORE = ": nothing was read from it; restore it from a backup, or remove it to start"
      + " again without the stored windows";

  /** Example L2's query: tumbling 10 min, no delay, policy window, count(*). */
  private static final WindowQuery L2_QUERY = WindowQuery.of(WindowSpec.tumbling(10 * MIN))
      .withLatePolicy(LatePolicy.WINDOW).withAggregates(AggregateSpec.countAll("n"));
  private static final StateSource KAFKA = StateSource.of("kafka", "servers", "127.0.0.1:9092", "topic", "orders");
  /** The window row run 1 of example L6 writes, as the command line writes it to an output file. */
  private static final String L6_WINDOW_LINE =
      "{\"window_start\":\"2026-03-01T00:00:00Z\",\"window_end\":\"2026-03-01T00:10:00Z\",\"n\":3}\n";

  @TempDir
  Path dir;

  /** Run 1 of example L6 (design 1.6): example L2's rows, stopped with the state. */
  private static OpenState exampleL6Stopped(List<String> emitted) {
    PartitionedWindowProcessor p = new PartitionedWindowProcessor(L2_QUERY, 2, r -> emitted.add(StateFixtures.show(r)));
    String[][] l2 = {{"00:01", "00:12", "00:03", "00:22"}, {"00:02", "00:05", "00:14", "00:08"}};
    for (int partition = 0; partition < 2; partition++) {
      for (String t : l2[partition]) {
        p.process(partition, Key.GLOBAL, at(t), new Object[] {null});
      }
    }
    return p.hold();
  }

  /** L6's stored state as the command line would commit it: Kafka offsets, the output's length. */
  private static OpenState exampleL6Committed(List<String> emitted) {
    return exampleL6Stopped(emitted)
        .withPosition(0, new OpenState.NextOffset(4))
        .withPosition(1, new OpenState.NextOffset(4))
        .withOutputs(Map.of("windows.ndjson", (long) L6_WINDOW_LINE.getBytes(StandardCharsets.UTF_8).length));
  }

  /** docs/state-example-partitions.json, shown in docs/state.md, is what the code writes for L6. */
  @Test
  void theDocumentedExampleOfPartitionsIsWhatTheCodecWrites() throws IOException {
    List<String> emitted = new ArrayList<>();
    OpenState state = exampleL6Committed(emitted);
    assertThat(emitted).containsExactly("[] 2026-03-01 00:00:00 2026-03-01 00:10:00 [3]");
    String written = new String(new StateCodec(L2_QUERY, "event_time", KAFKA).encode(state), StandardCharsets.UTF_8);
    assertThat(Files.readString(DOCS.resolve("state-example-partitions.json"))).isEqualTo(written);
    assertThat(Files.readString(DOCS.resolve("state.md"))).contains("```json\n" + written + "```\n");
  }

  /** Run 2 of L6 goes on from the documented file: P1's 00:16 and 00:31 close window 00:10 with 3 rows. */
  @Test
  void theDocumentedExampleOfPartitionsGoesOnWhereItStopped() throws IOException {
    OpenState state = new StateCodec(L2_QUERY, "event_time", KAFKA)
        .decode(Files.readAllBytes(DOCS.resolve("state-example-partitions.json")), "state-example-partitions.json");
    assertThat(state.partitions()).containsExactly(
        new OpenState.Partition("0", at("00:22"), null, 4, new OpenState.NextOffset(4)),
        new OpenState.Partition("1", at("00:14"), null, 4, new OpenState.NextOffset(4)));
    assertThat(state.outputs()).containsExactly(Map.entry("windows.ndjson", 82L));
    List<String> emitted = new ArrayList<>();
    PartitionedWindowProcessor p = PartitionedWindowProcessor.resume(L2_QUERY, r -> emitted.add(StateFixtures.show(r)),
        state);
    p.process(1, Key.GLOBAL, at("00:16"), new Object[] {null});
    p.process(1, Key.GLOBAL, at("00:31"), new Object[] {null});
    assertThat(emitted).containsExactly("[] 2026-03-01 00:10:00 2026-03-01 00:20:00 [3]");
  }

  @Test
  void everyPartOfAVersionTwoStateComesBackExactly() {
    StateCodec codec = new StateCodec(L2_QUERY, null, KAFKA);
    OpenState l6 = exampleL6Committed(new ArrayList<>());
    OpenState state = new OpenState(List.of(
        new OpenState.Partition("a", at("00:22"), at("00:23"), 4, new OpenState.NextOffset(Long.MAX_VALUE)),
        new OpenState.Partition("b", at("00:14"), null, 4, new OpenState.FileLine("in/b.ndjson", 41, 3072)),
        new OpenState.Partition("c", null, null, 0, null)),
        List.of(l6.windows().get(0).inPartition("a"), l6.windows().get(1).inPartition("b"),
            l6.windows().get(2).inPartition("a")),
        Map.of("late.ndjson", 0L, "windows.ndjson", 84L));
    byte[] bytes = codec.encode(state);
    OpenState back = codec.decode(bytes, "test");
    assertThat(back.partitions()).isEqualTo(state.partitions());
    assertThat(back.outputs()).isEqualTo(state.outputs());
    assertThat(back.windows()).extracting(w -> w.partition() + " " + TimeText.format(w.start()) + " "
        + w.accumulators()[0].result()).containsExactly(
            "a 2026-03-01 00:10:00 1", "b 2026-03-01 00:10:00 1", "a 2026-03-01 00:20:00 1");
    assertThat(codec.encode(back)).isEqualTo(bytes);
    assertThat(new String(bytes, StandardCharsets.UTF_8)).contains("\"version\": 2,\n")
        .contains("\"emitted_watermark\": null,\n");
  }

  /** Version 1 is written while it holds the whole state; anything more makes the document version 2. */
  @Test
  void versionOneIsWrittenWhileItIsEnough() {
    OpenState plain = new OpenState(at("00:05"), 3, List.of());
    assertThat(version(new StateCodec(L2_QUERY, null), plain)).isEqualTo(1);
    assertThat(version(new StateCodec(L2_QUERY, null, KAFKA), plain)).as("a source").isEqualTo(2);
    assertThat(version(new StateCodec(L2_QUERY, null), plain.withPosition(0, new OpenState.NextOffset(3))))
        .as("a position").isEqualTo(2);
    assertThat(version(new StateCodec(L2_QUERY, null), plain.withOutputs(Map.of("out.ndjson", 0L))))
        .as("an output").isEqualTo(2);
    assertThat(version(new StateCodec(L2_QUERY, null), new OpenState(List.of(
        new OpenState.Partition("3", at("00:05"), null, 3, null)), List.of(), Map.of()))).as("another id").isEqualTo(2);
    assertThat(version(new StateCodec(L2_QUERY, null), new OpenState(List.of(
        new OpenState.Partition("0", at("00:05"), at("00:06"), 3, null)), List.of(), Map.of())))
        .as("an idle watermark").isEqualTo(2);
  }

  @Test
  void aStateThatNamesItsPartitionsWronglyIsRefusedWhenWriting() {
    OpenState l6 = exampleL6Stopped(new ArrayList<>());
    StateCodec codec = new StateCodec(L2_QUERY, null);
    OpenState twice = new OpenState(List.of(l6.partitions().get(0), l6.partitions().get(0)), List.of(), Map.of());
    assertThatThrownBy(() -> codec.encode(twice)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the state names partition 0 twice");
    OpenState stray = new OpenState(l6.partitions(), List.of(l6.windows().get(0).inPartition("7")), Map.of());
    assertThatThrownBy(() -> codec.encode(stray)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the open window [] [1772323800000, 1772324400000) names partition 7, which is not one of the"
            + " state's partitions");
  }

  /** A version-1 file reads as partition "0", with no idle watermark, position or outputs. */
  @Test
  void aVersionOneFileReadsAsPartitionZero() throws IOException {
    OpenState state = new StateCodec(StateFixtures.docsQuery(), "event_time")
        .decode(Files.readAllBytes(DOCS.resolve("state-example.json")), "state-example.json");
    assertThat(state.partitions()).containsExactly(new OpenState.Partition("0", 1784368940000L, null, 5, null));
    assertThat(state.windows()).extracting(OpenState.OpenWindow::partition).containsExactly("0", "0");
    assertThat(state.outputs()).isEmpty();
  }

  @Test
  void aStateOfSeveralPartitionsHasNoSingleWatermark() {
    OpenState state = exampleL6Stopped(new ArrayList<>());
    assertThatThrownBy(state::maxEventTime)
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("this state holds 2 partitions, each with its own max_event_time: it is for a stream of as many"
            + " partitions, not for a run of one");
  }

  /** Each check on reading, with its message naming the field. The checksum is recomputed, as a writer of a bad file would. */
  @Test
  void aDocumentThatCouldNotHaveBeenWrittenIsRefusedByPlace() {
    byte[] good = new StateCodec(L2_QUERY, null, KAFKA).encode(exampleL6Committed(new ArrayList<>()));
    refused(good, doc -> partition(doc, 1).put("partition", "0"),
        "partitions[1].partition: a second partition \"0\": each partition is listed once");
    refused(good, doc -> window(doc, 1).put("partition", "7"),
        "windows[1].partition: no partition \"7\" among the state's partitions");
    refused(good, doc -> window(doc, 1).remove("partition"), "windows[1].partition: expected a string, found nothing");
    refused(good, doc -> doc.putArray("partitions"), "partitions: a state holds at least one partition");
    refused(good, doc -> doc.put("emitted_watermark", at("00:22")), "emitted_watermark: 2026-03-01 00:22:00, but the"
        + " least of the partitions' watermarks is 2026-03-01 00:14:00");
    // P1's watermark moved to 00:21 by an idle timeout: window 00:10 is closed for the stream, so it cannot be open
    refused(good, doc -> {
      partition(doc, 1).put("idle_watermark", at("00:21"));
      doc.put("emitted_watermark", at("00:21"));
    }, "windows[0]: the window [2026-03-01 00:10:00, 2026-03-01 00:20:00) is closed at the emitted watermark"
        + " 2026-03-01 00:21:00, so it was due to be emitted, not stored");
    refused(good, doc -> {
      partition(doc, 1).putNull("max_event_time");
      doc.putNull("emitted_watermark");
    }, "windows[1]: an open window of partition \"1\", which has seen no event time (its max_event_time is null)");
    refused(good, doc -> partition(doc, 0).put("max_event_time", at("00:15")).put("next_arrival", 4),
        "windows[2]: the window [2026-03-01 00:20:00, 2026-03-01 00:30:00) is not one of the tumbling 10 MINUTE windows"
            + " up to the latest event time 2026-03-01 00:15:00");
    refused(good, doc -> ((ArrayNode) doc.get("windows")).add(window(doc, 0).deepCopy()),
        "windows[3]: a second window of key [] in partition \"0\" ending at 2026-03-01 00:20:00");
    refused(good, doc -> partition(doc, 0).putObject("position").put("next_offset", -1),
        "partitions[0].position.next_offset: expected a number of 0 or more, found -1");
    refused(good, doc -> partition(doc, 0).putObject("position").put("offset", 4),
        "partitions[0].position: unexpected field 'offset'");
    refused(good, doc -> partition(doc, 0).putObject("position").put("file", "a.ndjson").put("line", 0).put("byte", 0),
        "partitions[0].position.line: lines are numbered from 1, found 0");
    refused(good, doc -> partition(doc, 0).remove("idle_watermark"), "partitions[0]: the field 'idle_watermark' is"
        + " missing");
    refused(good, doc -> ((ObjectNode) doc.get("outputs")).put("windows.ndjson", -84),
        "outputs.windows.ndjson: expected a number of 0 or more, found -84");
    refused(good, doc -> ((ObjectNode) doc.get("source")).remove("kind"), "source: the field 'kind' is missing or"
        + " empty");
    refused(good, doc -> doc.remove("outputs"), "the field 'outputs' is missing");
  }

  /** Two partitions may hold windows that overlap or coincide: each is one partition's part. */
  @Test
  void partitionsMayHoldTheSameWindowAndOverlappingSessions() {
    WindowQuery sessions = WindowQuery.of(WindowSpec.session(5 * MIN)).withKeys("merchant")
        .withAggregates(AggregateSpec.of(AggregateKind.COUNT, "amount", "c"));
    io.eventtime.core.Accumulator[] one = new io.eventtime.core.Aggregates(sessions.aggregates()).create();
    one[0].add(1L, 0);
    OpenState state = new OpenState(List.of(new OpenState.Partition("0", at("00:09"), null, 1, null),
        new OpenState.Partition("1", at("00:09"), null, 1, null)), List.of(
        new OpenState.OpenWindow(Key.of("acme"), at("00:01"), at("00:11"), one, "0"),
        new OpenState.OpenWindow(Key.of("acme"), at("00:07"), at("00:14"), one, "1"),
        new OpenState.OpenWindow(Key.of("acme"), at("00:07"), at("00:14"), one, "0")), Map.of());
    StateCodec codec = new StateCodec(sessions, null);
    assertThatThrownBy(() -> codec.decode(codec.encode(state), "sessions"))
        .isInstanceOf(StateException.class)
        .hasMessage("the state file sessions is corrupt: windows: sessions of key [acme] in partition \"0\" overlap at"
            + " 2026-03-01 00:07:00: they would have been one session" + RESTORE);
    OpenState apart = new OpenState(state.partitions(), state.windows().subList(0, 2), Map.of());
    assertThat(codec.decode(codec.encode(apart), "sessions").windows()).hasSize(2);
  }

  /** A state written for another source is refused like one for another query; compared only when both name one. */
  @Test
  void aStateOfAnotherSourceIsRefused() {
    try (StateStore store = StateStore.open(dir, L2_QUERY, "event_time", KAFKA)) {
      store.commit(exampleL6Committed(new ArrayList<>()));
    }
    StateSource otherTopic = StateSource.of("kafka", "servers", "127.0.0.1:9092", "topic", "payments");
    assertThatThrownBy(() -> StateStore.open(dir, L2_QUERY, "event_time", otherTopic))
        .isInstanceOf(StateException.class)
        .hasMessage("the state in " + dir.resolve("state.json") + " was written for the source kafka (servers"
            + " 127.0.0.1:9092, topic orders), this run reads the source kafka (servers 127.0.0.1:9092, topic payments):"
            + " use another state directory or the same source");
    assertThatThrownBy(() -> StateStore.open(dir, L2_QUERY, "event_time", StateSource.of("files", "from",
        "file://in/*.ndjson")))
        .hasMessageContaining("this run reads the source files (from file://in/*.ndjson)");
    try (StateStore store = StateStore.open(dir, L2_QUERY, "event_time")) {
      assertThat(store.load().partitions()).hasSize(2);
    }
    Path v1 = dir.resolve("v1");
    try (StateStore store = StateStore.open(v1, L2_QUERY, "event_time")) {
      store.commit(new OpenState(at("00:05"), 1, List.of()));
    }
    try (StateStore store = StateStore.open(v1, L2_QUERY, "event_time", KAFKA)) {
      assertThat(store.load().maxEventTime()).isEqualTo(at("00:05"));
    }
  }

  @Test
  void aSourceIsAKindWithDetails() {
    assertThat(KAFKA.details()).containsExactly(Map.entry("servers", "127.0.0.1:9092"), Map.entry("topic", "orders"));
    assertThat(StateSource.of("stdin").describe()).isEqualTo("stdin");
    assertThatThrownBy(() -> StateSource.of("kafka", "topic")).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the details of a source come in pairs of name and value");
    assertThatThrownBy(() -> StateSource.of("kafka", "kind", "x")).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("'kind' is the source's kind, not one of its details");
    assertThatThrownBy(() -> StateSource.of("")).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("a source needs a kind, such as kafka or files");
  }

  private static long version(StateCodec codec, OpenState state) {
    try {
      return new ObjectMapper().readTree(codec.encode(state)).get("version").longValue();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  private static ObjectNode partition(ObjectNode doc, int i) {
    return (ObjectNode) doc.get("partitions").get(i);
  }

  private static ObjectNode window(ObjectNode doc, int i) {
    return (ObjectNode) doc.get("windows").get(i);
  }

  /** The document {@code good} changed by {@code change} and sealed again with a checksum, the way the format says. */
  static byte[] changed(byte[] good, Consumer<ObjectNode> change) {
    try {
      ObjectMapper mapper = new ObjectMapper();
      ObjectNode doc = (ObjectNode) mapper.readTree(good);
      doc.remove("checksum");
      change.accept(doc);
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(mapper.writeValueAsBytes(doc));
      doc.put("checksum", "sha256:" + HexFormat.of().formatHex(digest));
      return mapper.writeValueAsBytes(doc);
    } catch (IOException | java.security.NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }

  /** Changes the document, seals it again with a checksum the way the format says, and expects {@code why}. */
  private static void refused(byte[] good, Consumer<ObjectNode> change, String why) {
    refused(new StateCodec(L2_QUERY, null, KAFKA), good, change, why);
  }

  /** {@link #refused(byte[], Consumer, String)} by {@code codec}. */
  static void refused(StateCodec codec, byte[] good, Consumer<ObjectNode> change, String why) {
    byte[] bad = changed(good, change);
    assertThatThrownBy(() -> codec.decode(bad, "f"))
        .isInstanceOf(StateException.class)
        .hasMessage("the state file f is corrupt: " + why + RESTORE);
  }
}
