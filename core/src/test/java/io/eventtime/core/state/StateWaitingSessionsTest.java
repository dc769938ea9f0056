package io.eventtime.core.state;

import static io.eventtime.core.state.StateFixtures.MIN;
import static io.eventtime.core.state.StateFixtures.at;
import static io.eventtime.core.state.StateVersionTwoTest.RESTORE;
import static io.eventtime.core.state.StateVersionTwoTest.refused;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.eventtime.core.AggregateKind;
import io.eventtime.core.AggregateSpec;
import io.eventtime.core.Key;
import io.eventtime.core.LatePolicy;
import io.eventtime.core.OpenState;
import io.eventtime.core.PartitionedWindowProcessor;
import io.eventtime.core.WindowQuery;
import io.eventtime.core.WindowSpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Version 2's waiting sessions (docs/state.md): the partition sessions of a run of session
 * windows over several partitions that their partition has closed but the stream has not
 * emitted, and the event time of first's and last's row; what is refused when reading them.
 */
class StateWaitingSessionsTest {
  private static final Path DOCS = Path.of("..", "docs");
  /** Sessions of 5 min, no delay, policy event, count(*), first and last of s. */
  private static final WindowQuery QUERY = WindowQuery.of(WindowSpec.session(5 * MIN))
      .withLatePolicy(LatePolicy.EVENT).withAggregates(AggregateSpec.countAll("n"),
          AggregateSpec.of(AggregateKind.FIRST, "s", "first_s"), AggregateSpec.of(AggregateKind.LAST, "s", "last_s"));
  private static final StateCodec CODEC = new StateCodec(QUERY, "event_time");

  /**
   * P0 00:01, P1 00:04, P0 00:20: P0's watermark 00:20 closes P0's session 00:01, which waits
   * for P1's open session 00:04 (4 minutes later, it could still join); the stream's watermark is
   * 00:04.
   */
  private static OpenState stopped() {
    PartitionedWindowProcessor p = new PartitionedWindowProcessor(QUERY, 2, r -> {
      throw new AssertionError("nothing is emitted before the stop: " + r);
    });
    p.process(0, Key.GLOBAL, at("00:01"), new Object[] {null, "a", "a"});
    p.process(1, Key.GLOBAL, at("00:04"), new Object[] {null, "b", "b"});
    p.process(0, Key.GLOBAL, at("00:20"), new Object[] {null, "c", "c"});
    return p.hold();
  }

  /** docs/state-example-waiting.json, shown in docs/state.md, is what the codec writes for that stop. */
  @Test
  void theDocumentedExampleOfAWaitingSessionIsWhatTheCodecWrites() throws IOException {
    String written = new String(CODEC.encode(stopped()), StandardCharsets.UTF_8);
    assertThat(Files.readString(DOCS.resolve("state-example-waiting.json"))).isEqualTo(written);
  }

  /** Read back, the waiting session and the event times come back, and the run goes on as if it had not stopped. */
  @Test
  void aWaitingSessionComesBackAndJoins() throws IOException {
    OpenState back = CODEC.decode(Files.readAllBytes(DOCS.resolve("state-example-waiting.json")), "example");
    assertThat(back.waiting()).extracting(w -> w.partition() + " " + w.start() + " " + w.end())
        .containsExactly("0 " + at("00:01") + " " + at("00:06"));
    assertThat(CODEC.encode(back)).isEqualTo(CODEC.encode(stopped()));
    List<String> emitted = new ArrayList<>();
    PartitionedWindowProcessor p = PartitionedWindowProcessor.resume(QUERY, r -> emitted.add(StateFixtures.show(r)),
        back);
    p.process(1, Key.GLOBAL, at("00:30"), new Object[] {null, "d", "d"});
    assertThat(emitted).containsExactly("[] 2026-03-01 00:01:00 2026-03-01 00:09:00 [2, a, b]");
  }

  /** Each check on reading the waiting sessions and the event times, with its message naming the field. */
  @Test
  void aWaitingSessionThatCouldNotHaveBeenHeldIsRefused() {
    byte[] good = CODEC.encode(stopped());
    refused(CODEC, good, doc -> waiting(doc, 0).put("partition", "7"),
        "waiting[0].partition: no partition \"7\" among the state's partitions");
    refused(CODEC, good, doc -> waiting(doc, 0).put("start", at("00:18")).put("end", at("00:23")),
        "waiting[0]: the session [2026-03-01 00:18:00, 2026-03-01 00:23:00) is still open at its partition's"
            + " watermark 2026-03-01 00:20:00: it belongs in windows, not among the sessions waiting to be joined");
    refused(CODEC, good, doc -> waiting(doc, 0).put("start", at("00:01")).put("end", at("00:26")),
        "waiting[0]: the session [2026-03-01 00:01:00, 2026-03-01 00:26:00) does not fit a gap of 5 MINUTE and the"
            + " latest event time 2026-03-01 00:20:00");
    refused(CODEC, good, doc -> ((ArrayNode) doc.get("waiting")).add(waiting(doc, 0).deepCopy()),
        "waiting[1]: a second session of key [] in partition \"0\" starting at 2026-03-01 00:01:00");
    refused(CODEC, good, doc -> ((ArrayNode) doc.get("waiting")).add(waiting(doc, 0).deepCopy()
        .put("start", at("00:03")).put("end", at("00:08"))),
        "waiting: sessions of key [] in partition \"0\" overlap at 2026-03-01 00:03:00: they would have been one"
            + " session");
    // P1 moved on to 00:10 and its session 00:04 left: nothing open could join P0's 00:01 any more
    refused(CODEC, good, doc -> {
      partition(doc, 1).put("max_event_time", at("00:10"));
      doc.put("emitted_watermark", at("00:10"));
      ((ArrayNode) doc.get("windows")).remove(0);
    }, "waiting: the waiting session [] [2026-03-01 00:01:00, 2026-03-01 00:06:00) of partition 0 (waiting[0]) is"
        + " closed at the stream's watermark 2026-03-01 00:10:00 and no partition holds an open session that could"
        + " still join it: the run that held the state would have emitted it");
    refused(CODEC, good, doc -> partition(doc, 0).put("max_event_time", at("00:30")),
        "windows[1]: the session [2026-03-01 00:20:00, 2026-03-01 00:25:00) is closed at its partition's watermark"
            + " 2026-03-01 00:30:00: it belongs among the sessions waiting to be joined, not in windows");
    refused(CODEC, good, doc -> aggregate(doc, 0, 1).put("event_time", at("00:05")),
        "windows[0].aggregates[1].event_time: the event time 2026-03-01 00:05:00 is after the partition's latest"
            + " event time 2026-03-01 00:04:00");
    refused(CODEC, good, doc -> aggregate(doc, 0, 2).remove("event_time"),
        "windows[0].aggregates[2]: the field 'event_time' is missing");
    refused(CODEC, good, doc -> aggregate(doc, 0, 1).put("any", false),
        "windows[0].aggregates[1].event_time: an event time, but the partial took no row (its any is false)");
  }

  /** A waiting session is refused where none can wait: grid windows, or sessions of one partition. */
  @Test
  void onlySessionsOverSeveralPartitionsWait() {
    WindowQuery oneHour = QUERY.withSpec(WindowSpec.tumbling(60 * MIN));
    OpenState waitingGrid = new OpenState(stopped().partitions(), List.of(), stopped().waiting(), Map.of());
    assertThatThrownBy(() -> new StateCodec(oneHour, "event_time").decode(
        new StateCodec(oneHour, "event_time").encode(waitingGrid), "grid"))
        .isInstanceOf(StateException.class)
        .hasMessage("the state file grid is corrupt: waiting: only sessions over several partitions wait to be joined;"
            + " this state is of tumbling 1 HOUR windows over 2 partitions" + RESTORE);
    assertThatThrownBy(() -> PartitionedWindowProcessor.resume(oneHour, r -> {}, waitingGrid))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the state holds 1 waiting session, which only a run of session windows over several partitions"
            + " has");
    OpenState stray = new OpenState(stopped().partitions(), stopped().windows(),
        List.of(stopped().waiting().get(0).inPartition("7")), Map.of());
    assertThatThrownBy(() -> PartitionedWindowProcessor.resume(QUERY, r -> {}, stray))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the waiting session [] [2026-03-01 00:01:00, 2026-03-01 00:06:00) names partition 7, which the"
            + " state does not hold");
  }

  /** A waiting session that an open session of another partition could still join is kept, closed or not. */
  @Test
  void aWaitingSessionClosedAtTheStreamsWatermarkStaysWhileAnOpenSessionCouldJoinIt() {
    byte[] good = CODEC.encode(stopped());
    // P1 at 00:10 with its session 00:05..00:08 open: it starts 4 minutes after P0's 00:01, so it could join
    OpenState kept = CODEC.decode(StateVersionTwoTest.changed(good, doc -> {
      partition(doc, 1).put("max_event_time", at("00:10"));
      doc.put("emitted_watermark", at("00:10"));
      window(doc, 0).put("start", at("00:05")).put("end", at("00:13"));
      aggregate(doc, 0, 1).put("event_time", at("00:05"));
      aggregate(doc, 0, 2).put("event_time", at("00:08"));
    }), "changed");
    assertThat(kept.waiting()).hasSize(1);
    List<String> emitted = new ArrayList<>();
    PartitionedWindowProcessor.resume(QUERY, r -> emitted.add(StateFixtures.show(r)), kept).finish();
    assertThat(emitted).containsExactly("[] 2026-03-01 00:01:00 2026-03-01 00:13:00 [2, a, b]",
        "[] 2026-03-01 00:20:00 2026-03-01 00:25:00 [1, c, c]");
  }

  private static ObjectNode partition(ObjectNode doc, int i) {
    return (ObjectNode) doc.get("partitions").get(i);
  }

  private static ObjectNode window(ObjectNode doc, int i) {
    return (ObjectNode) doc.get("windows").get(i);
  }

  private static ObjectNode waiting(ObjectNode doc, int i) {
    return (ObjectNode) doc.get("waiting").get(i);
  }

  private static ObjectNode aggregate(ObjectNode doc, int window, int i) {
    return (ObjectNode) window(doc, window).get("aggregates").get(i);
  }
}
