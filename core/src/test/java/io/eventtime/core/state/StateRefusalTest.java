package io.eventtime.core.state;

import static io.eventtime.core.state.StateFixtures.MIN;
import static io.eventtime.core.state.StateFixtures.at;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.eventtime.core.Accumulator;
import io.eventtime.core.AggregateKind;
import io.eventtime.core.AggregateSpec;
import io.eventtime.core.Aggregates;
import io.eventtime.core.Key;
import io.eventtime.core.LatePolicy;
import io.eventtime.core.OpenState;
import io.eventtime.core.WindowProcessor;
import io.eventtime.core.WindowQuery;
import io.eventtime.core.WindowSpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** States a run must not use: written for another query, corrupt, truncated, of a newer format. */
class StateRefusalTest {
  private static final String GO_ON = ": use another state directory or the same query";
  private static final String RESTORE = ": nothing was read from it; restore it from a backup, or remove it to start"
      + " again without the stored windows";

  /** tumbling 10 min by merchant, count(*) AS n, sum(amount) AS total, delay 5 min, policy event. */
  private static final WindowQuery STORED = WindowQuery.of(WindowSpec.tumbling(10 * MIN)).withKeys("merchant")
      .withAggregates(AggregateSpec.countAll("n"), AggregateSpec.of(AggregateKind.SUM, "amount", "total"))
      .withDelay(5 * MIN).withLatePolicy(LatePolicy.EVENT);

  @TempDir
  Path dir;
  Path file;
  byte[] written;

  @BeforeEach
  void storeAState() throws IOException {
    try (StateStore store = StateStore.open(dir, STORED, "event_time")) {
      WindowProcessor p = new WindowProcessor(STORED, r -> { }, store.load());
      p.process(Key.of("acme"), at("00:01"), new Object[] {null, 250L});
      p.process(Key.of("globex"), at("00:12"), new Object[] {null, 42L});
      p.process(Key.of("acme"), at("00:13"), new Object[] {null, 980L});
      store.commit(p.hold());
      file = store.file();
    }
    written = Files.readAllBytes(file);
  }

  private void refused(WindowQuery run, String timeField, String message) {
    assertThatThrownBy(() -> StateStore.open(dir, run, timeField))
        .isInstanceOf(StateException.class)
        .hasMessage(message);
  }

  private String stateIn() {
    return "the state in " + file + " was written for ";
  }

  @Test
  void eachPartOfTheQueryThatDiffersIsNamed() throws IOException {
    refused(STORED.withSpec(WindowSpec.tumbling(5 * MIN)), "event_time", stateIn()
        + "tumbling 10 MINUTE windows, this run asks for tumbling 5 MINUTE windows" + GO_ON);
    refused(STORED.withSpec(WindowSpec.tumbling(10 * MIN).withOffset(2 * MIN)), "event_time", stateIn()
        + "tumbling 10 MINUTE windows, this run asks for tumbling 10 MINUTE windows offset by 2 MINUTE" + GO_ON);
    refused(STORED.withSpec(WindowSpec.hopping(5 * MIN, 10 * MIN)), "event_time", stateIn()
        + "tumbling 10 MINUTE windows, this run asks for hopping 10 MINUTE windows every 5 MINUTE" + GO_ON);
    refused(STORED.withSpec(WindowSpec.session(10 * MIN)), "event_time", stateIn()
        + "tumbling 10 MINUTE windows, this run asks for session windows with a 10 MINUTE gap" + GO_ON);
    refused(STORED.withKeys("merchant", "country"), "event_time", stateIn()
        + "windows keyed by merchant, this run asks for windows keyed by merchant, country" + GO_ON);
    refused(STORED.withKeys(), "event_time", stateIn()
        + "windows keyed by merchant, this run asks for windows with no key" + GO_ON);
    refused(STORED.withAggregates(AggregateSpec.countAll("n")), "event_time", stateIn()
        + "the aggregates count(*) AS n, sum(amount) AS total, this run asks for the aggregates count(*) AS n"
        + GO_ON);
    refused(STORED.withAggregates(AggregateSpec.countAll("n"), AggregateSpec.of(AggregateKind.SUM, "price", "total")),
        "event_time", stateIn() + "the aggregates count(*) AS n, sum(amount) AS total, this run asks for the"
            + " aggregates count(*) AS n, sum(price) AS total" + GO_ON);
    refused(STORED.withAggregates(AggregateSpec.countAll("n"), AggregateSpec.of(AggregateKind.AVG, "amount", "total")),
        "event_time", stateIn() + "the aggregates count(*) AS n, sum(amount) AS total, this run asks for the"
            + " aggregates count(*) AS n, avg(amount) AS total" + GO_ON);
    refused(STORED.withAggregates(AggregateSpec.countAll("n"), AggregateSpec.of(AggregateKind.SUM, "amount", "sum")),
        "event_time", stateIn() + "the aggregates count(*) AS n, sum(amount) AS total, this run asks for the"
            + " aggregates count(*) AS n, sum(amount) AS sum" + GO_ON);
    refused(STORED.withDelay(0), "event_time", stateIn()
        + "a watermark delay of 5 MINUTE, this run asks for no watermark delay" + GO_ON);
    refused(STORED.withDelay(90_000), "event_time", stateIn()
        + "a watermark delay of 5 MINUTE, this run asks for a watermark delay of 90 SECOND" + GO_ON);
    refused(STORED.withLatePolicy(LatePolicy.WINDOW), "event_time", stateIn()
        + "late policy event, this run asks for late policy window" + GO_ON);
    refused(STORED, "ts", stateIn()
        + "event times from field event_time, this run asks for event times from field ts" + GO_ON);
    refused(STORED.withDelay(0).withLatePolicy(LatePolicy.WINDOW), "event_time", stateIn()
        + "a watermark delay of 5 MINUTE, this run asks for no watermark delay; it was written for late policy"
        + " event, this run asks for late policy window" + GO_ON);

    assertThat(Files.readAllBytes(file)).as("a refused state is left as it was").isEqualTo(written);
    try (StateStore store = StateStore.open(dir, STORED, "event_time")) {
      assertThat(store.load().windows()).hasSize(3);
    }
  }

  @Test
  void theSlideAndTheGapAreComparedToo() {
    WindowQuery hopping = STORED.withSpec(WindowSpec.hopping(5 * MIN, 10 * MIN));
    WindowQuery session = STORED.withSpec(WindowSpec.session(10 * MIN));
    try (StateStore h = StateStore.open(dir.resolve("h"), hopping); StateStore s = StateStore.open(dir.resolve("s"), session)) {
      h.commit(OpenState.empty());
      s.commit(OpenState.empty());
    }
    assertThatThrownBy(() -> StateStore.open(dir.resolve("h"), STORED.withSpec(WindowSpec.hopping(2 * MIN, 10 * MIN))))
        .hasMessage("the state in " + dir.resolve("h/state.json") + " was written for hopping 10 MINUTE windows every"
            + " 5 MINUTE, this run asks for hopping 10 MINUTE windows every 2 MINUTE" + GO_ON);
    assertThatThrownBy(() -> StateStore.open(dir.resolve("s"), STORED.withSpec(WindowSpec.session(30_000))))
        .hasMessage("the state in " + dir.resolve("s/state.json") + " was written for session windows with a"
            + " 10 MINUTE gap, this run asks for session windows with a 30 SECOND gap" + GO_ON);
  }

  /** Beam's element timestamps have no field name: a time field is compared only when both name one. */
  @Test
  void aTimeFieldIsComparedOnlyWhenBothNameOne() {
    try (StateStore store = StateStore.open(dir, STORED, null)) {
      assertThat(store.load().windows()).hasSize(3);
      store.commit(store.load());
    }
    try (StateStore store = StateStore.open(dir, STORED, "anything")) {
      assertThat(store.load().windows()).hasSize(3);
    }
  }

  @Test
  void anEmptyFileIsRefused() throws IOException {
    Files.write(file, new byte[0]);
    assertThatThrownBy(() -> StateStore.open(dir, STORED, "event_time"))
        .isInstanceOf(StateException.class)
        .hasMessage("the state file " + file + " is empty (a run that wrote it was cut off, or the disk lost it)"
            + RESTORE);
  }

  /**
   * Every prefix of the file is refused as cut short (read by the codec, as the store does, to
   * keep the sweep fast; {@link #aCutInTheMiddleSaysWhere} goes through the store), and the whole
   * file without its last newline is still whole.
   */
  @Test
  void aTruncatedFileIsRefusedWhereverItWasCut() throws IOException {
    StateCodec codec = new StateCodec(STORED, "event_time");
    for (int length = 1; length < written.length - 1; length++) {
      byte[] cut = Arrays.copyOf(written, length);
      assertThatThrownBy(() -> codec.decode(cut, file.toString()))
          .as("cut after %d bytes", length)
          .isInstanceOf(StateException.class)
          .hasMessageStartingWith("the state file " + file + " is truncated or corrupt: it ends before the document"
              + " does (at line ")
          .hasMessageEndingWith(RESTORE);
    }
    Files.write(file, Arrays.copyOf(written, written.length - 1));
    try (StateStore store = StateStore.open(dir, STORED, "event_time")) {
      assertThat(store.load().windows()).hasSize(3);
    }
  }

  @Test
  void aCutInTheMiddleSaysWhere() throws IOException {
    String text = new String(written, StandardCharsets.UTF_8);
    Files.writeString(file, text.substring(0, text.indexOf("\"windows\"")));
    assertThatThrownBy(() -> StateStore.open(dir, STORED, "event_time"))
        .hasMessage("the state file " + file + " is truncated or corrupt: it ends before the document does (at line"
            + " 17, column 3)" + RESTORE);
  }

  @Test
  void bytesThatAreNotJsonAreRefused() throws IOException {
    byte[] noise = new byte[300];
    new Random(7).nextBytes(noise);
    Files.write(file, noise);
    assertThatThrownBy(() -> StateStore.open(dir, STORED, "event_time"))
        .hasMessageStartingWith("the state file " + file + " is truncated or corrupt: it is not JSON (")
        .hasMessageEndingWith(RESTORE);
  }

  @Test
  void anythingAfterTheDocumentIsRefusedSayingWhereItIs() throws IOException {
    String text = new String(written, StandardCharsets.UTF_8);
    long lines = text.lines().count();
    for (String garbage : List.of("{}\n", "garbage\n", "\n  ]]] and more text after it\n")) {
      Files.write(file, (text + garbage).getBytes(StandardCharsets.UTF_8));
      String first = garbage.strip();
      String where = garbage.startsWith("\n") ? "at line " + (lines + 2) + ", column 3" : "at line " + (lines + 1)
          + ", column 1";
      assertThatThrownBy(() -> StateStore.open(dir, STORED, "event_time"))
          .hasMessage("the state file " + file + " is corrupt: there is text after the document, " + where + " ('"
              + (first.length() > 20 ? first.substring(0, 20) + "..." : first) + "')" + RESTORE);
    }
  }

  @Test
  void aFieldWrittenTwiceIsRefused() throws IOException {
    edit(text -> text.replace("\"next_arrival\": 3,", "\"next_arrival\": 3,\n  \"next_arrival\": 1,"));
    assertThatThrownBy(() -> StateStore.open(dir, STORED, "event_time"))
        .hasMessageStartingWith("the state file " + file + " is truncated or corrupt: it is not JSON"
            + " (Duplicate field 'next_arrival'");
  }

  @Test
  void aDamagedOrEditedFileIsRefusedByItsChecksum() throws IOException {
    edit(text -> text.replace("{\"count\":1}", "{\"count\":7}"));
    assertThatThrownBy(() -> StateStore.open(dir, STORED, "event_time"))
        .isInstanceOf(StateException.class)
        .hasMessage("the state file " + file + " is corrupt: checksum: it does not match the content, so the file was"
            + " damaged or edited" + RESTORE);
  }

  @Test
  void aFileThatIsNotAStateIsRefused() throws IOException {
    Files.writeString(file, "{\"hello\": 1}\n");
    assertThatThrownBy(() -> StateStore.open(dir, STORED, "event_time"))
        .hasMessage(file + " is not an eventtime state file (its \"format\" is nothing, not \"eventtime-state\"):"
            + " give a state directory that only eventtime writes to");
    Files.writeString(file, "[1, 2]\n");
    assertThatThrownBy(() -> StateStore.open(dir, STORED, "event_time"))
        .hasMessage("the state file " + file + " is corrupt: the document: expected an object, found [1,2]" + RESTORE);
  }

  @Test
  void aStateDirectoryHoldingADirectoryNamedLikeTheStateIsRefused() throws IOException {
    Files.delete(file);
    Files.createDirectory(file);
    assertThatThrownBy(() -> StateStore.open(dir, STORED, "event_time"))
        .hasMessage("the state " + file + " is not a regular file: give a state directory that only eventtime"
            + " writes to");
  }

  @Test
  void aNewerFormatIsRefused() throws IOException {
    edit(text -> text.replace("\"version\": 1,", "\"version\": 3,"));
    assertThatThrownBy(() -> StateStore.open(dir, STORED, "event_time"))
        .hasMessage("the state file " + file + " has format version 3, written by a newer eventtime; this one reads up"
            + " to version 2: run the newer eventtime, or use another state directory");
    reseal(doc -> doc.put("version", 0));
    assertThatThrownBy(() -> StateStore.open(dir, STORED, "event_time"))
        .hasMessage("the state file " + file + " is corrupt: version: there is no format version 0" + RESTORE);
  }

  /**
   * A document with a good checksum but a wrong shape: each is refused by name. (The checksum is
   * recomputed here, as a writer of a bad file would.)
   */
  @Test
  void aWellSealedDocumentOfTheWrongShapeIsRefusedByPlace() throws IOException {
    corrupt(doc -> doc.remove("next_arrival"), "the field 'next_arrival' is missing");
    corrupt(doc -> doc.put("extra", 1), "unexpected field 'extra'");
    corrupt(doc -> doc.put("next_arrival", "3"), "next_arrival: expected a whole number (64 bits), found \"3\"");
    corrupt(doc -> doc.put("next_arrival", -1), "next_arrival: expected a number of 0 or more, found -1");
    corrupt(doc -> doc.put("max_event_time", 1.5), "max_event_time: expected a whole number (64 bits), found 1.5");
    corrupt(doc -> doc.put("max_event_time", Long.MAX_VALUE), "max_event_time: the time +292278994-08-17 07:12:55.807"
        + " is outside the supported range of event times, the years 0001 to 9999, so no run could have stored it");
    corrupt(doc -> window(doc, 0).putArray("key").addObject().put("int32", 5),
        "windows[0].key[0]: unknown value type 'int32': expected int64, double, string, boolean or timestamp");
    corrupt(doc -> window(doc, 0).putArray("key").addObject().put("timestamp", "yesterday"),
        "windows[0].key[0].timestamp: expected an ISO-8601 instant such as \"2026-03-01T00:10:00Z\", found"
            + " \"yesterday\"");
    corrupt(doc -> window(doc, 0).withArray("key").addNull(), "windows[0].key: 2 values for the 1 key fields");
    corrupt(doc -> window(doc, 0).withArray("aggregates").remove(1),
        "windows[0].aggregates: 1 partial aggregates for the 2 aggregates of the query");
    corrupt(doc -> ((ObjectNode) window(doc, 0).withArray("aggregates").get(1)).put("double_sum", "many"),
        "windows[0].aggregates[1].double_sum: expected a floating-point number (or \"NaN\", \"Infinity\","
            + " \"-Infinity\"), found \"many\"");
    corrupt(doc -> ((ObjectNode) doc.get("query")).putObject("window").put("kind", "rolling"),
        "query.window.kind: unknown window kind 'rolling': expected tumbling, hopping or session");
    corrupt(doc -> ((ObjectNode) doc.get("query").get("window")).put("size_ms", 0),
        "query: not a valid query: the tumbling window size must be positive, got 0 ms: give a duration greater"
            + " than zero (e.g. 1 MINUTE)");
  }

  /** States this query could not have left behind, written by the codec itself. */
  @Test
  void windowsThatDoNotFitTheQueryAreRefused() throws IOException {
    long open = at("00:10");
    impossible(new OpenState(at("00:13"), 3, List.of(window("acme", at("00:03"), at("00:13"), 1))),
        "windows[0]: the window [2026-03-01 00:03:00, 2026-03-01 00:13:00) is not one of the tumbling 10 MINUTE"
            + " windows up to the latest event time 2026-03-01 00:13:00");
    impossible(new OpenState(at("00:13"), 3, List.of(window("acme", at("00:20"), at("00:30"), 1))),
        "windows[0]: the window [2026-03-01 00:20:00, 2026-03-01 00:30:00) is not one of the tumbling 10 MINUTE"
            + " windows up to the latest event time 2026-03-01 00:13:00");
    impossible(new OpenState(at("00:15"), 3, List.of(window("acme", at("00:00"), open, 1))),
        "windows[0]: the window [2026-03-01 00:00:00, 2026-03-01 00:10:00) is closed at the stored watermark"
            + " 2026-03-01 00:10:00, so it was due to be emitted, not stored");
    impossible(new OpenState(at("00:13"), 3, List.of(window("acme", open, at("00:20"), 1),
            window("acme", open, at("00:20"), 2))),
        "windows[1]: a second window of key [acme] ending at 2026-03-01 00:20:00");
    impossible(new OpenState(null, 3, List.of(window("acme", open, at("00:20"), 1))),
        "windows[0]: an open window, but no event time was ever seen (max_event_time is null)");
  }

  @Test
  void sessionsThatCouldNotBeOpenTogetherAreRefused() throws IOException {
    WindowQuery sessions = WindowQuery.of(WindowSpec.session(5 * MIN)).withKeys("merchant")
        .withAggregates(AggregateSpec.of(AggregateKind.FIRST, "amount", "f"));
    Path sessionDir = dir.resolve("sessions");
    Files.createDirectories(sessionDir);
    Path sessionFile = sessionDir.resolve("state.json");
    Aggregates aggregates = new Aggregates(sessions.aggregates());
    Accumulator[] a = aggregates.create();
    a[0].add(1L, 0);
    Accumulator[] b = aggregates.create();
    b[0].add(2L, 1);
    StateCodec codec = new StateCodec(sessions, null);
    Files.write(sessionFile, codec.encode(new OpenState(at("00:09"), 2, List.of(
        new OpenState.OpenWindow(Key.of("acme"), at("00:01"), at("00:11"), a),
        new OpenState.OpenWindow(Key.of("acme"), at("00:07"), at("00:14"), b)))));
    assertThatThrownBy(() -> StateStore.open(sessionDir, sessions))
        .hasMessage("the state file " + sessionFile + " is corrupt: windows: sessions of key [acme] overlap at"
            + " 2026-03-01 00:07:00: they would have been one session" + RESTORE);
    Files.write(sessionFile, codec.encode(new OpenState(at("00:09"), 2, List.of(
        new OpenState.OpenWindow(Key.of("acme"), at("00:07"), at("00:09"), a)))));
    assertThatThrownBy(() -> StateStore.open(sessionDir, sessions))
        .hasMessage("the state file " + sessionFile + " is corrupt: windows[0]: the session [2026-03-01 00:07:00,"
            + " 2026-03-01 00:09:00) does not fit a gap of 5 MINUTE and the latest event time 2026-03-01 00:09:00"
            + RESTORE);
    Files.write(sessionFile, codec.encode(new OpenState(at("00:09"), 1, List.of(
        new OpenState.OpenWindow(Key.of("acme"), at("00:01"), at("00:11"), b)))));
    assertThatThrownBy(() -> StateStore.open(sessionDir, sessions))
        .hasMessage("the state file " + sessionFile + " is corrupt: windows[0].aggregates[0].arrival: arrival 1 is not"
            + " before next_arrival 1" + RESTORE);
  }

  private static OpenState.OpenWindow window(String key, long start, long end, long count) {
    Accumulator[] accs = new Aggregates(STORED.aggregates()).create();
    for (long i = 0; i < count; i++) {
      accs[0].add(null, i);
      accs[1].add(10L, i);
    }
    return new OpenState.OpenWindow(Key.of(key), start, end, accs);
  }

  /** Writes {@code state} with the codec and checks that opening it is refused with {@code why}. */
  private void impossible(OpenState state, String why) throws IOException {
    Files.write(file, new StateCodec(STORED, "event_time").encode(state));
    assertThatThrownBy(() -> StateStore.open(dir, STORED, "event_time"))
        .isInstanceOf(StateException.class)
        .hasMessage("the state file " + file + " is corrupt: " + why + RESTORE);
  }

  private void corrupt(Consumer<ObjectNode> change, String why) throws IOException {
    Files.write(file, written);
    reseal(change);
    assertThatThrownBy(() -> StateStore.open(dir, STORED, "event_time"))
        .isInstanceOf(StateException.class)
        .hasMessage("the state file " + file + " is corrupt: " + why + RESTORE);
  }

  private static ObjectNode window(ObjectNode doc, int i) {
    return (ObjectNode) doc.get("windows").get(i);
  }

  private void edit(java.util.function.UnaryOperator<String> change) throws IOException {
    String text = new String(written, StandardCharsets.UTF_8);
    String changed = change.apply(text);
    assertThat(changed).isNotEqualTo(text);
    Files.writeString(file, changed);
  }

  /** Changes the document and seals it again with a checksum computed the way the format says. */
  private void reseal(Consumer<ObjectNode> change) throws IOException {
    ObjectMapper mapper = new ObjectMapper();
    ObjectNode doc = (ObjectNode) mapper.readTree(Files.readAllBytes(file));
    doc.remove("checksum");
    change.accept(doc);
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(mapper.writeValueAsBytes(doc));
      doc.put("checksum", "sha256:" + HexFormat.of().formatHex(digest));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
    Files.write(file, mapper.writerWithDefaultPrettyPrinter().writeValueAsBytes(doc));
  }
}
