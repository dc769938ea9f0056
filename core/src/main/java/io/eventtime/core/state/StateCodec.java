package io.eventtime.core.state;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.eventtime.core.Accumulator;
import io.eventtime.core.AggregateKind;
import io.eventtime.core.AggregateSpec;
import io.eventtime.core.Key;
import io.eventtime.core.LatePolicy;
import io.eventtime.core.OpenState;
import io.eventtime.core.PartialAggregate;
import io.eventtime.core.PartitionedWindowProcessor;
import io.eventtime.core.TimeRange;
import io.eventtime.core.TimeText;
import io.eventtime.core.WindowQuery;
import io.eventtime.core.WindowSpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * Writes an {@link OpenState} of one query as a state document (JSON, described field by field
 * in {@code docs/state.md}) and reads it back, exactly: every value keeps its type, every
 * partial aggregate its state. Reading is all or nothing: a document that is not complete,
 * consistent and of this query is refused with a {@link StateException} naming its source and
 * what is wrong, before any of it is handed out.
 *
 * <p>The {@link StateStore} keeps the document in a directory; a layer that must carry the state
 * elsewhere (a Beam pipeline handing it to its workers, say) can use the codec on its own.
 */
public final class StateCodec {
  /** The value of the document's {@code format} field. */
  public static final String FORMAT = "eventtime-state";
  /** The newest format version this code writes and reads. */
  public static final int VERSION = 2;
  /**
   * The version written for a state that version 1 holds in full: one partition, {@code "0"},
   * with no idle watermark and no position, no outputs and no source. Such a state is written
   * byte for byte as before version 2 existed.
   */
  public static final int VERSION_ONE_PARTITION = 1;

  private static final String CHECKSUM_PREFIX = "sha256:";
  private static final List<String> TOP_FIELDS_V1 =
      List.of("format", "version", "query", "max_event_time", "next_arrival", "windows", "checksum");
  private static final List<String> TOP_FIELDS_V2 = List.of("format", "version", "query", "source", "partitions",
      "emitted_watermark", "windows", "outputs", "checksum");
  private static final List<String> TOP_FIELDS_V2_WAITING = List.of("format", "version", "query", "source",
      "partitions", "emitted_watermark", "windows", "waiting", "outputs", "checksum");
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final ObjectMapper MAPPER = JsonMapper.builder()
      .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      .disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)
      .build();
  private static final ObjectReader ONE_DOCUMENT = MAPPER.reader().without(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  private final QueryJson.Stamped query;
  private final AggregateKind[] kinds;
  private final ObjectNode queryJson;
  private final StateSource source;

  /**
   * A codec for the state of {@code query}, whose event times are read from the field
   * {@code timeField} (null when the caller has no field name, e.g. Beam element timestamps).
   */
  public StateCodec(WindowQuery query, String timeField) {
    this(query, timeField, null);
  }

  /**
   * A codec for the state of {@code query} over {@code source}, what the run reads (null when
   * the caller does not say). The source is written with the state, and a state written for
   * another source is refused; it is compared only when both the state and this codec name one.
   */
  public StateCodec(WindowQuery query, String timeField, StateSource source) {
    this.query = new QueryJson.Stamped(query, timeField);
    this.kinds = query.aggregates().stream().map(AggregateSpec::kind).toArray(AggregateKind[]::new);
    this.queryJson = QueryJson.write(this.query);
    this.source = source;
  }

  public WindowQuery query() {
    return query.query();
  }

  public String timeField() {
    return query.timeField();
  }

  /** The source this codec writes and compares, or null. */
  public StateSource source() {
    return source;
  }

  /**
   * The state document of {@code state}, UTF-8: one line per partition and per open window, in
   * the order {@code state} lists them. Version 1 when it holds all of the state (see
   * {@link #VERSION_ONE_PARTITION}), version 2 otherwise. Refuses (IllegalArgumentException) a
   * state that does not fit the query or holds a value the core does not hold (see
   * {@link io.eventtime.core.Values}).
   */
  public byte[] encode(OpenState state) {
    ObjectNode doc = NODES.objectNode();
    doc.put("format", FORMAT);
    boolean versionOne = fitsVersionOne(state);
    doc.put("version", versionOne ? VERSION_ONE_PARTITION : VERSION);
    doc.set("query", queryJson);
    if (versionOne) {
      putTime(doc, "max_event_time", state.maxEventTime());
      doc.put("next_arrival", state.nextArrival());
    } else {
      doc.set("source", source == null ? NODES.nullNode() : writeSource(source));
      ArrayNode partitions = doc.putArray("partitions");
      Set<String> ids = new HashSet<>();
      for (OpenState.Partition p : state.partitions()) {
        if (!ids.add(p.id())) {
          throw new IllegalArgumentException("the state names partition " + p.id() + " twice");
        }
        partitions.add(writePartition(p));
      }
      putTime(doc, "emitted_watermark", streamWatermark(state.partitions()));
    }
    ArrayNode windows = doc.putArray("windows");
    for (OpenState.OpenWindow w : state.windows()) {
      windows.add(versionOne ? writeWindow(w, true) : writePartitionWindow(w, state, "open window"));
    }
    if (!state.waiting().isEmpty()) {
      ArrayNode waiting = doc.putArray("waiting");
      for (OpenState.OpenWindow w : state.waiting()) {
        waiting.add(writePartitionWindow(w, state, "waiting session"));
      }
    }
    if (!versionOne) {
      ObjectNode outputs = doc.putObject("outputs");
      state.outputs().forEach(outputs::put);
    }
    doc.put("checksum", checksum(doc));
    return layout(doc).getBytes(StandardCharsets.UTF_8);
  }

  /** A window of version 2: its partition's id first, then the fields of version 1. */
  private ObjectNode writePartitionWindow(OpenState.OpenWindow w, OpenState state, String what) {
    if (state.partitions().stream().noneMatch(p -> p.id().equals(w.partition()))) {
      throw new IllegalArgumentException("the " + what + " " + w.key() + " [" + w.start() + ", " + w.end()
          + ") names partition " + w.partition() + ", which is not one of the state's partitions");
    }
    ObjectNode withPartition = NODES.objectNode();
    withPartition.put("partition", w.partition());
    withPartition.setAll(writeWindow(w, false));
    return withPartition;
  }

  private boolean fitsVersionOne(OpenState state) {
    if (state.partitions().size() != 1 || source != null || !state.outputs().isEmpty() || !state.waiting().isEmpty()) {
      return false;
    }
    OpenState.Partition only = state.partitions().get(0);
    return only.id().equals(OpenState.FIRST_PARTITION) && only.idleWatermark() == null && only.position() == null
        && state.windows().stream().allMatch(w -> w.partition().equals(OpenState.FIRST_PARTITION));
  }

  private static void putTime(ObjectNode node, String field, Long time) {
    if (time == null) {
      node.putNull(field);
    } else {
      node.put(field, time);
    }
  }

  private static ObjectNode writeSource(StateSource source) {
    ObjectNode node = NODES.objectNode();
    node.put("kind", source.kind());
    source.details().forEach(node::put);
    return node;
  }

  private static ObjectNode writePartition(OpenState.Partition p) {
    ObjectNode node = NODES.objectNode();
    node.put("partition", p.id());
    putTime(node, "max_event_time", p.maxEventTime());
    putTime(node, "idle_watermark", p.idleWatermark());
    node.put("next_arrival", p.nextArrival());
    if (p.position() == null) {
      node.putNull("position");
    } else if (p.position() instanceof OpenState.NextOffset o) {
      node.putObject("position").put("next_offset", o.nextOffset());
    } else {
      OpenState.FileLine f = (OpenState.FileLine) p.position();
      node.putObject("position").put("file", f.file()).put("line", f.line()).put("byte", f.byteOffset());
    }
    return node;
  }

  /** A partition's watermark: the later of its latest event time less the delay and its idle watermark. */
  private Long watermarkOf(OpenState.Partition p) {
    Long fromRows = p.maxEventTime() == null ? null : p.maxEventTime() - query.query().delayMillis();
    if (fromRows == null || p.idleWatermark() == null) {
      return fromRows == null ? p.idleWatermark() : fromRows;
    }
    return Math.max(fromRows, p.idleWatermark());
  }

  /**
   * The stream's watermark, up to which windows were emitted: the least of the partitions', or
   * null while one has none.
   */
  private Long streamWatermark(List<OpenState.Partition> partitions) {
    long least = Long.MAX_VALUE;
    for (OpenState.Partition p : partitions) {
      Long w = watermarkOf(p);
      if (w == null) {
        return null;
      }
      least = Math.min(least, w);
    }
    return least;
  }

  /**
   * Reads a state document of this codec's query. {@code source} names where it came from (the
   * file) in every error. The accumulators of the state are new: the caller owns them.
   */
  public OpenState decode(byte[] bytes, String source) {
    JsonNode doc = parse(bytes, source);
    ObjectNode top;
    long version;
    try {
      top = JsonFields.object(doc, "the document");
      version = checkFormatAndVersion(top, source);
      List<String> fields = version == 1 ? TOP_FIELDS_V1 : top.has("waiting") ? TOP_FIELDS_V2_WAITING : TOP_FIELDS_V2;
      JsonFields.exactly(top, "", fields.toArray(String[]::new));
      String stored = JsonFields.text(top.get("checksum"), "checksum");
      top.remove("checksum");
      if (!stored.equals(checksum(top))) {
        throw new BadState("checksum", "it does not match the content, so the file was damaged or edited");
      }
    } catch (BadState bad) {
      throw corrupt(source, bad);
    }
    QueryJson.Stamped written;
    try {
      written = QueryJson.read(top.get("query"));
    } catch (BadState bad) {
      throw corrupt(source, bad);
    }
    List<String> differences = QueryJson.differences(written, query);
    if (!differences.isEmpty()) {
      throw new StateException("the state in " + source + " was " + String.join("; it was ", differences)
          + ": use another state directory or the same query");
    }
    try {
      if (version == 1) {
        return readVersionOne(top);
      }
      checkSource(top.get("source"), source);
      return readVersionTwo(top);
    } catch (BadState bad) {
      throw corrupt(source, bad);
    }
  }

  private JsonNode parse(byte[] bytes, String source) {
    if (bytes.length == 0) {
      throw new StateException("the state file " + source + " is empty (a run that wrote it was cut off, or the"
          + " disk lost it): " + RESTORE);
    }
    try (JsonParser p = MAPPER.createParser(bytes)) {
      // one document, then nothing: what follows it is told apart from a document cut short
      JsonNode document = ONE_DOCUMENT.readTree(p);
      if (document == null || document.isMissingNode()) {
        throw new StateException("the state file " + source + " is truncated or corrupt: it holds only blanks: "
            + RESTORE);
      }
      int end = (int) p.currentLocation().getByteOffset();
      boolean more;
      try {
        more = p.nextToken() != null;
      } catch (JsonProcessingException e) {
        more = true;
      }
      if (more) {
        throw new StateException("the state file " + source + " is corrupt: there is text after the document, "
            + textAfter(bytes, end) + ": " + RESTORE);
      }
      return document;
    } catch (JsonProcessingException e) {
      if (e instanceof JsonEOFException || atEnd(e, bytes.length)) {
        throw new StateException("the state file " + source + " is truncated or corrupt: it ends before the"
            + " document does (" + place(e) + "): " + RESTORE, e);
      }
      throw new StateException("the state file " + source + " is truncated or corrupt: it is not JSON ("
          + e.getOriginalMessage() + ", " + place(e) + "): " + RESTORE, e);
    } catch (IOException e) {
      throw new StateException("the state file " + source + " cannot be read: " + e.getMessage(), e);
    }
  }

  /** Where the first non-blank byte from {@code from} on is, and what it starts: {@code at line 3, column 2 ('xyz')}. */
  private static String textAfter(byte[] bytes, int from) {
    int at = from;
    while (at < bytes.length && (bytes[at] == ' ' || bytes[at] == '\t' || bytes[at] == '\n' || bytes[at] == '\r')) {
      at++;
    }
    int line = 1;
    int lineStart = 0;
    for (int i = 0; i < at; i++) {
      if (bytes[i] == '\n') {
        line++;
        lineStart = i + 1;
      }
    }
    String text = new String(bytes, at, Math.min(bytes.length - at, 20), StandardCharsets.UTF_8).strip();
    return "at line " + line + ", column " + (at - lineStart + 1) + " ('" + text + (bytes.length - at > 20 ? "..." : "")
        + "')";
  }

  /** Whether the parser stopped at the end of the input: the document was cut short. */
  private static boolean atEnd(JsonProcessingException e, int length) {
    return e.getLocation() != null && e.getLocation().getByteOffset() >= length;
  }

  private static String place(JsonProcessingException e) {
    return e.getLocation() == null ? "at an unknown place"
        : "at line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr();
  }

  private static final String RESTORE = "nothing was read from it; restore it from a backup, or remove it to"
      + " start again without the stored windows";

  private static StateException corrupt(String source, BadState bad) {
    return new StateException("the state file " + source + " is corrupt: " + bad.getMessage() + ": " + RESTORE, bad);
  }

  /** The document's format version, once it is one this code reads. */
  private static long checkFormatAndVersion(ObjectNode top, String source) {
    JsonNode format = top.get("format");
    if (format == null || !FORMAT.equals(format.textValue())) {
      throw new StateException(source + " is not an eventtime state file (its \"format\" is "
          + JsonFields.shown(format) + ", not \"" + FORMAT + "\"): give a state directory that only eventtime"
          + " writes to");
    }
    long version = JsonFields.whole(top.get("version"), "version");
    if (version > VERSION) {
      throw new StateException("the state file " + source + " has format version " + version
          + ", written by a newer eventtime; this one reads up to version " + VERSION
          + ": run the newer eventtime, or use another state directory");
    }
    if (version < 1) {
      throw new BadState("version", "there is no format version " + version);
    }
    return version;
  }

  /** Refuses a state written for another source than this codec's, when both name one. */
  private void checkSource(JsonNode json, String file) {
    if (json != null && json.isNull()) {
      return;
    }
    ObjectNode node = JsonFields.object(json, "source");
    String kind = null;
    TreeMap<String, String> details = new TreeMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> field = it.next();
      String value = JsonFields.text(field.getValue(), "source." + field.getKey());
      if (field.getKey().equals("kind")) {
        kind = value;
      } else {
        details.put(field.getKey(), value);
      }
    }
    if (kind == null || kind.isEmpty()) {
      throw new BadState("source", "the field 'kind' is missing or empty");
    }
    StateSource written = new StateSource(kind, details);
    if (this.source != null && !written.equals(this.source)) {
      throw new StateException("the state in " + file + " was written for the source " + written.describe()
          + ", this run reads the source " + this.source.describe() + ": use another state directory or the same"
          + " source");
    }
  }

  /** A window's key, bounds and partials; version 2 also writes the event time of first's and last's row. */
  private ObjectNode writeWindow(OpenState.OpenWindow w, boolean versionOne) {
    Accumulator[] accs = w.accumulators();
    if (accs.length != kinds.length || w.key().size() != query.query().keyFields().size()) {
      throw new IllegalArgumentException("the open window " + w.key() + " [" + w.start() + ", " + w.end() + ") has "
          + w.key().size() + " key values and " + accs.length + " aggregates; the query has "
          + query.query().keyFields().size() + " and " + kinds.length);
    }
    ObjectNode node = NODES.objectNode();
    ArrayNode key = node.putArray("key");
    for (int i = 0; i < w.key().size(); i++) {
      key.add(ValueJson.write(w.key().get(i)));
    }
    node.put("start", w.start());
    node.put("end", w.end());
    ArrayNode aggregates = node.putArray("aggregates");
    for (int i = 0; i < accs.length; i++) {
      try {
        ObjectNode partial = writePartial(PartialAggregate.of(accs[i]));
        if (!versionOne && accs[i] instanceof Accumulator.ByArrival byArrival) {
          // across partitions first and last are merged by the event time of each partition's row
          ObjectNode withTime = NODES.objectNode();
          withTime.set("any", partial.get("any"));
          withTime.set("arrival", partial.get("arrival"));
          putTime(withTime, "event_time", byArrival.eventTime());
          withTime.set("value", partial.get("value"));
          partial = withTime;
        }
        aggregates.add(partial);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("aggregate " + query.query().aggregates().get(i) + " of window "
            + w.key() + " [" + w.start() + ", " + w.end() + "): " + e.getMessage(), e);
      }
    }
    return node;
  }

  private static ObjectNode writePartial(PartialAggregate p) {
    ObjectNode node = NODES.objectNode();
    if (p instanceof PartialAggregate.Count c) {
      node.put("count", c.count());
    } else if (p instanceof PartialAggregate.Distinct d) {
      List<Object> sorted = new ArrayList<>(d.values());
      sorted.forEach(ValueJson::tag);
      sorted.sort(ValueJson.TOTAL_ORDER);
      ArrayNode values = node.putArray("values");
      sorted.forEach(v -> values.add(ValueJson.write(v)));
    } else if (p instanceof PartialAggregate.Sum s) {
      node.put("any", s.any());
      node.put("floating", s.floating());
      node.put("long_sum", s.longSum());
      node.set("double_sum", ValueJson.writeDouble(s.doubleSum()));
    } else if (p instanceof PartialAggregate.Extreme e) {
      node.set("value", ValueJson.write(e.value()));
    } else if (p instanceof PartialAggregate.Avg a) {
      node.put("count", a.count());
      node.set("sum", ValueJson.writeDouble(a.sum()));
    } else {
      PartialAggregate.ByArrival b = (PartialAggregate.ByArrival) p;
      node.put("any", b.any());
      node.put("arrival", b.arrival());
      node.set("value", ValueJson.write(b.value()));
    }
    return node;
  }

  private OpenState readVersionOne(ObjectNode top) {
    Long maxEventTime = readTime(top.get("max_event_time"), "max_event_time");
    long nextArrival = JsonFields.nonNegative(top.get("next_arrival"), "next_arrival");
    OpenState.Partition only =
        new OpenState.Partition(OpenState.FIRST_PARTITION, maxEventTime, null, nextArrival, null);
    Map<String, TreeMap<Long, Long>> sessions = new HashMap<>();
    List<OpenState.OpenWindow> windows = readWindows(JsonFields.array(top.get("windows"), "windows"),
        Map.of(only.id(), only), streamWatermark(List.of(only)), true, sessions);
    checkNoOverlap("windows", sessions);
    return new OpenState(List.of(only), windows, Map.of());
  }

  private OpenState readVersionTwo(ObjectNode top) {
    ArrayNode array = JsonFields.array(top.get("partitions"), "partitions");
    if (array.isEmpty()) {
      throw new BadState("partitions", "a state holds at least one partition");
    }
    List<OpenState.Partition> partitions = new ArrayList<>(array.size());
    Map<String, OpenState.Partition> byId = new HashMap<>();
    for (int i = 0; i < array.size(); i++) {
      OpenState.Partition p = readPartition(array.get(i), "partitions[" + i + "]");
      if (byId.put(p.id(), p) != null) {
        throw new BadState("partitions[" + i + "].partition", "a second partition " + JsonFields.shown(
            NODES.textNode(p.id())) + ": each partition is listed once");
      }
      partitions.add(p);
    }
    Long stored = readTime(top.get("emitted_watermark"), "emitted_watermark");
    Long least = streamWatermark(partitions);
    if (!Objects.equals(stored, least)) {
      throw new BadState("emitted_watermark", (stored == null ? "null" : TimeText.format(stored))
          + ", but the least of the partitions' watermarks is " + (least == null
              ? "none (a partition has no watermark yet)" : TimeText.format(least)));
    }
    Map<String, TreeMap<Long, Long>> sessions = new HashMap<>();
    List<OpenState.OpenWindow> windows = readWindows(JsonFields.array(top.get("windows"), "windows"), byId, least,
        false, sessions);
    checkNoOverlap("windows", sessions);
    List<OpenState.OpenWindow> waiting = List.of();
    if (top.has("waiting")) {
      waiting = readWaiting(JsonFields.array(top.get("waiting"), "waiting"), byId, sessions);
      checkNoOverlap("waiting", sessions);
    }
    ObjectNode outputsNode = JsonFields.object(top.get("outputs"), "outputs");
    TreeMap<String, Long> outputs = new TreeMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = outputsNode.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> output = it.next();
      if (output.getKey().isEmpty()) {
        throw new BadState("outputs", "an output file with an empty name");
      }
      outputs.put(output.getKey(), JsonFields.nonNegative(output.getValue(), "outputs." + output.getKey()));
    }
    OpenState state = new OpenState(partitions, windows, waiting, outputs);
    if (!waiting.isEmpty()) {
      try {
        // the processor's own rule: it refuses a waiting session that the run holding it would have emitted
        PartitionedWindowProcessor.resume(query.query(), row -> {}, state);
      } catch (IllegalArgumentException e) {
        throw new BadState("waiting", e.getMessage());
      }
    }
    return state;
  }

  /**
   * The waiting sessions: each a session of a partition of the state that its rows could have
   * made and that its partition's own watermark has closed (else it would still be open there),
   * only for sessions over several partitions; none starts where another of its key and
   * partition does, and under policy event none overlaps another of its key and partition.
   */
  private List<OpenState.OpenWindow> readWaiting(ArrayNode array, Map<String, OpenState.Partition> partitions,
      Map<String, TreeMap<Long, Long>> sessions) {
    if (!(query.query().spec() instanceof WindowSpec.Session s) || partitions.size() < 2) {
      throw new BadState("waiting", "only sessions over several partitions wait to be joined; this state is of "
          + QueryJson.describe(query.query().spec()) + " over " + partitions.size() + " partition"
          + (partitions.size() == 1 ? "" : "s"));
    }
    List<OpenState.OpenWindow> waiting = new ArrayList<>(array.size());
    Set<List<Object>> seen = new HashSet<>();
    for (int i = 0; i < array.size(); i++) {
      String where = "waiting[" + i + "]";
      ObjectNode node = JsonFields.object(array.get(i), where);
      OpenState.Partition partition = namedPartition(node, where, partitions);
      String id = partition.id();
      if (partition.maxEventTime() == null) {
        throw new BadState(where, "a waiting session of partition " + JsonFields.shown(NODES.textNode(id))
            + ", which has seen no event time (its max_event_time is null)");
      }
      OpenState.OpenWindow w = readWindow(withoutPartition(node), where, partition, false).inPartition(id);
      checkPlace(w, s, partition.maxEventTime(), null, where, false);
      long own = watermarkOf(partition);
      if (!s.isClosed(w.end(), own)) {
        throw new BadState(where, "the session [" + TimeText.format(w.start()) + ", " + TimeText.format(w.end())
            + ") is still open at its partition's watermark " + TimeText.format(own)
            + ": it belongs in windows, not among the sessions waiting to be joined");
      }
      String ofKey = "key " + w.key() + " in partition " + JsonFields.shown(NODES.textNode(id));
      TreeMap<Long, Long> ofPartition = sessions.computeIfAbsent(ofKey, k -> new TreeMap<>());
      if (!seen.add(List.of(id, w.key(), w.start())) || ofPartition.containsKey(w.start())) {
        throw new BadState(where, "a second session of " + ofKey + " starting at " + TimeText.format(w.start()));
      }
      // a row admitted after a session closed is behind it only under policy window, which may put it in a new
      // session that overlaps the closed one; under policy event no two sessions of a partition overlap
      if (query.query().latePolicy() == LatePolicy.EVENT) {
        ofPartition.put(w.start(), w.end());
      }
      waiting.add(w);
    }
    return waiting;
  }

  /** The partition a window of version 2 names in its field {@code partition}: one of the state's. */
  private static OpenState.Partition namedPartition(ObjectNode node, String where,
      Map<String, OpenState.Partition> partitions) {
    String id = JsonFields.text(node.get("partition"), where + ".partition");
    OpenState.Partition partition = partitions.get(id);
    if (partition == null) {
      throw new BadState(where + ".partition", "no partition " + JsonFields.shown(NODES.textNode(id))
          + " among the state's partitions");
    }
    return partition;
  }

  /** A copy of a window of version 2 without its {@code partition}: the fields of version 1. */
  private static ObjectNode withoutPartition(ObjectNode node) {
    ObjectNode copy = node.deepCopy();
    copy.remove("partition");
    return copy;
  }

  /** Refuses two sessions of one key in one partition that overlap: they would have been one. */
  private static void checkNoOverlap(String field, Map<String, TreeMap<Long, Long>> sessions) {
    sessions.forEach((ofKey, byStart) -> {
      long previousEnd = Long.MIN_VALUE;
      for (Map.Entry<Long, Long> s : byStart.entrySet()) {
        if (s.getKey() <= previousEnd) {
          throw new BadState(field, "sessions of " + ofKey + " overlap at " + TimeText.format(s.getKey())
              + ": they would have been one session");
        }
        previousEnd = s.getValue();
      }
    });
  }

  private static Long readTime(JsonNode node, String where) {
    Long time = JsonFields.wholeOrNull(node, where);
    if (time != null && !TimeRange.contains(time)) {
      throw new BadState(where, "the time " + TimeText.format(time) + " is outside the supported"
          + " range of event times, the years 0001 to 9999, so no run could have stored it");
    }
    return time;
  }

  private static OpenState.Partition readPartition(JsonNode json, String where) {
    ObjectNode node = JsonFields.object(json, where);
    JsonFields.exactly(node, where, "partition", "max_event_time", "idle_watermark", "next_arrival", "position");
    String id = JsonFields.text(node.get("partition"), where + ".partition");
    if (id.isEmpty()) {
      throw new BadState(where + ".partition", "a partition needs a non-empty id");
    }
    Long maxEventTime = readTime(node.get("max_event_time"), where + ".max_event_time");
    Long idleWatermark = readTime(node.get("idle_watermark"), where + ".idle_watermark");
    long nextArrival = JsonFields.nonNegative(node.get("next_arrival"), where + ".next_arrival");
    return new OpenState.Partition(id, maxEventTime, idleWatermark, nextArrival,
        readPosition(node.get("position"), where + ".position"));
  }

  private static OpenState.Position readPosition(JsonNode json, String where) {
    if (json != null && json.isNull()) {
      return null;
    }
    ObjectNode node = JsonFields.object(json, where);
    if (node.has("next_offset")) {
      JsonFields.exactly(node, where, "next_offset");
      return new OpenState.NextOffset(JsonFields.nonNegative(node.get("next_offset"), where + ".next_offset"));
    }
    JsonFields.exactly(node, where, "file", "line", "byte");
    String file = JsonFields.text(node.get("file"), where + ".file");
    if (file.isEmpty()) {
      throw new BadState(where + ".file", "a file position needs the file's name");
    }
    long line = JsonFields.nonNegative(node.get("line"), where + ".line");
    if (line < 1) {
      throw new BadState(where + ".line", "lines are numbered from 1, found 0");
    }
    return new OpenState.FileLine(file, line, JsonFields.nonNegative(node.get("byte"), where + ".byte"));
  }

  /**
   * The open windows, each checked against the query, its partition (the latest event time and
   * the next arrival of the partition that holds it) and the stream's watermark, at which it
   * must still be open: a partition may hold a part of a window its own watermark has closed,
   * waiting for the other partitions. A version-1 document names no partition: every window is
   * partition "0"'s.
   */
  private List<OpenState.OpenWindow> readWindows(ArrayNode array, Map<String, OpenState.Partition> partitions,
      Long streamWatermark, boolean versionOne, Map<String, TreeMap<Long, Long>> sessionEnds) {
    WindowSpec spec = query.query().spec();
    List<OpenState.OpenWindow> windows = new ArrayList<>(array.size());
    Set<List<Object>> seen = new HashSet<>();
    for (int i = 0; i < array.size(); i++) {
      String where = "windows[" + i + "]";
      ObjectNode node = JsonFields.object(array.get(i), where);
      OpenState.Partition partition = versionOne ? partitions.get(OpenState.FIRST_PARTITION)
          : namedPartition(node, where, partitions);
      String id = partition.id();
      if (!versionOne) {
        node = withoutPartition(node);
      }
      OpenState.OpenWindow w = readWindow(node, where, partition, versionOne).inPartition(id);
      if (partition.maxEventTime() == null) {
        throw new BadState(where, versionOne
            ? "an open window, but no event time was ever seen (max_event_time is null)"
            : "an open window of partition " + JsonFields.shown(NODES.textNode(id)) + ", which has seen no event"
                + " time (its max_event_time is null)");
      }
      checkPlace(w, spec, partition.maxEventTime(), streamWatermark, where, versionOne);
      String ofKey = "key " + w.key() + (versionOne ? "" : " in partition " + JsonFields.shown(NODES.textNode(id)));
      if (!seen.add(List.of(id, w.key(), spec instanceof WindowSpec.Session ? w.start() : w.end()))) {
        throw new BadState(where, "a second window of " + ofKey + " " + (spec instanceof WindowSpec.Session
            ? "starting at " + TimeText.format(w.start()) : "ending at " + TimeText.format(w.end())));
      }
      if (spec instanceof WindowSpec.Session) {
        sessionEnds.computeIfAbsent(ofKey, k -> new TreeMap<>()).put(w.start(), w.end());
      }
      if (spec instanceof WindowSpec.Session && partitions.size() > 1
          && spec.isClosed(w.end(), watermarkOf(partition))) {
        throw new BadState(where, "the session [" + TimeText.format(w.start()) + ", " + TimeText.format(w.end())
            + ") is closed at its partition's watermark " + TimeText.format(watermarkOf(partition))
            + ": it belongs among the sessions waiting to be joined, not in windows");
      }
      windows.add(w);
    }
    return windows;
  }

  /**
   * Refuses a window that this query could not have left open: not one its partition's rows
   * (up to {@code maxEventTime}) could have made, or closed at the stream's watermark.
   */
  private void checkPlace(OpenState.OpenWindow w, WindowSpec spec, long maxEventTime, Long streamWatermark,
      String where, boolean versionOne) {
    String interval = "[" + TimeText.format(w.start()) + ", " + TimeText.format(w.end()) + ")";
    if (spec instanceof WindowSpec.Session s) {
      long last = w.end() - s.gapMillis();
      if (last < w.start() || last > maxEventTime) {
        throw new BadState(where, "the session " + interval + " does not fit a gap of "
            + QueryJson.duration(s.gapMillis()) + " and the latest event time " + TimeText.format(maxEventTime));
      }
    } else {
      long size = spec instanceof WindowSpec.Tumbling t ? t.sizeMillis() : ((WindowSpec.Hopping) spec).sizeMillis();
      boolean onGrid = spec instanceof WindowSpec.Tumbling t ? t.startOf(w.start()) == w.start()
          : Math.floorMod(w.start() - ((WindowSpec.Hopping) spec).offsetMillis(),
              ((WindowSpec.Hopping) spec).slideMillis()) == 0;
      if (w.end() - w.start() != size || !onGrid || w.start() > maxEventTime) {
        throw new BadState(where, "the window " + interval + " is not one of the " + QueryJson.describe(spec)
            + " up to the latest event time " + TimeText.format(maxEventTime));
      }
    }
    if (streamWatermark != null && spec.isClosed(w.end(), streamWatermark)) {
      throw new BadState(where, "the window " + interval + " is closed at the " + (versionOne ? "stored" : "emitted")
          + " watermark " + TimeText.format(streamWatermark) + ", so it was due to be emitted, not stored");
    }
  }

  /** A window of {@code partition}; in version 2 first's and last's partials carry their row's event time. */
  private OpenState.OpenWindow readWindow(ObjectNode node, String where, OpenState.Partition partition,
      boolean versionOne) {
    JsonFields.exactly(node, where, "key", "start", "end", "aggregates");
    ArrayNode keyArray = JsonFields.array(node.get("key"), where + ".key");
    int keySize = query.query().keyFields().size();
    if (keyArray.size() != keySize) {
      throw new BadState(where + ".key", keyArray.size() + " values for the " + keySize + " key fields");
    }
    Object[] keyValues = new Object[keySize];
    for (int i = 0; i < keySize; i++) {
      keyValues[i] = ValueJson.read(keyArray.get(i), where + ".key[" + i + "]");
    }
    long start = JsonFields.whole(node.get("start"), where + ".start");
    long end = JsonFields.whole(node.get("end"), where + ".end");
    ArrayNode aggArray = JsonFields.array(node.get("aggregates"), where + ".aggregates");
    if (aggArray.size() != kinds.length) {
      throw new BadState(where + ".aggregates", aggArray.size() + " partial aggregates for the " + kinds.length
          + " aggregates of the query");
    }
    Accumulator[] accs = new Accumulator[kinds.length];
    for (int i = 0; i < kinds.length; i++) {
      String at = where + ".aggregates[" + i + "]";
      JsonNode partial = aggArray.get(i);
      Long eventTime = null;
      if (!versionOne && PartialAggregate.stateOf(kinds[i]) == PartialAggregate.ByArrival.class) {
        ObjectNode withTime = JsonFields.object(partial, at);
        JsonFields.exactly(withTime, at, "any", "arrival", "event_time", "value");
        eventTime = readEventTime(withTime, at, partition);
        withTime = withTime.deepCopy();
        withTime.remove("event_time");
        partial = withTime;
      }
      accs[i] = readPartial(partial, kinds[i], at, partition.nextArrival()).toAccumulator(kinds[i]);
      if (eventTime != null) {
        ((Accumulator.ByArrival) accs[i]).restoreEventTime(eventTime);
      }
    }
    return new OpenState.OpenWindow(Key.of(keyValues), start, end, accs);
  }

  /** The event time of the row a first or last partial took: none without a row, none after the partition's latest. */
  private static Long readEventTime(ObjectNode partial, String at, OpenState.Partition partition) {
    Long eventTime = readTime(partial.get("event_time"), at + ".event_time");
    if (eventTime == null) {
      return null;
    }
    if (!JsonFields.bool(partial.get("any"), at + ".any")) {
      throw new BadState(at + ".event_time", "an event time, but the partial took no row (its any is false)");
    }
    if (partition.maxEventTime() != null && eventTime > partition.maxEventTime()) {
      throw new BadState(at + ".event_time", "the event time " + TimeText.format(eventTime) + " is after the"
          + " partition's latest event time " + TimeText.format(partition.maxEventTime()));
    }
    return eventTime;
  }

  private static PartialAggregate readPartial(JsonNode json, AggregateKind kind, String where, long nextArrival) {
    ObjectNode node = JsonFields.object(json, where);
    Class<? extends PartialAggregate> state = PartialAggregate.stateOf(kind);
    if (state == PartialAggregate.Count.class) {
      JsonFields.exactly(node, where, "count");
      return new PartialAggregate.Count(JsonFields.nonNegative(node.get("count"), where + ".count"));
    }
    if (state == PartialAggregate.Distinct.class) {
      JsonFields.exactly(node, where, "values");
      ArrayNode array = JsonFields.array(node.get("values"), where + ".values");
      Set<Object> values = new HashSet<>();
      for (int i = 0; i < array.size(); i++) {
        String at = where + ".values[" + i + "]";
        Object v = ValueJson.read(array.get(i), at);
        if (v == null || !values.add(v)) {
          throw new BadState(at, v == null ? "null is never counted as a distinct value" : "a value listed twice");
        }
      }
      return new PartialAggregate.Distinct(values);
    }
    if (state == PartialAggregate.Sum.class) {
      JsonFields.exactly(node, where, "any", "floating", "long_sum", "double_sum");
      return new PartialAggregate.Sum(JsonFields.bool(node.get("any"), where + ".any"),
          JsonFields.bool(node.get("floating"), where + ".floating"),
          JsonFields.whole(node.get("long_sum"), where + ".long_sum"),
          ValueJson.readDouble(node.get("double_sum"), where + ".double_sum"));
    }
    if (state == PartialAggregate.Extreme.class) {
      JsonFields.exactly(node, where, "value");
      return new PartialAggregate.Extreme(ValueJson.read(node.get("value"), where + ".value"));
    }
    if (state == PartialAggregate.Avg.class) {
      JsonFields.exactly(node, where, "count", "sum");
      return new PartialAggregate.Avg(JsonFields.nonNegative(node.get("count"), where + ".count"),
          ValueJson.readDouble(node.get("sum"), where + ".sum"));
    }
    JsonFields.exactly(node, where, "any", "arrival", "value");
    boolean any = JsonFields.bool(node.get("any"), where + ".any");
    long arrival = JsonFields.nonNegative(node.get("arrival"), where + ".arrival");
    if (any && arrival >= nextArrival) {
      throw new BadState(where + ".arrival", "arrival " + arrival + " is not before next_arrival " + nextArrival);
    }
    return new PartialAggregate.ByArrival(any, arrival, ValueJson.read(node.get("value"), where + ".value"));
  }

  /**
   * The document for people and diffs: the document and its query one field per line, and each
   * array of objects (the open windows, the aggregates) one element per line.
   */
  private static String layout(ObjectNode doc) {
    StringBuilder out = new StringBuilder();
    layout(doc, 0, out);
    return out.append('\n').toString();
  }

  private static void layout(JsonNode node, int depth, StringBuilder out) {
    String indent = "  ".repeat(depth + 1);
    if (node.isObject() && !node.isEmpty() && depth < 2) {
      out.append("{\n");
      for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> field = it.next();
        out.append(indent).append(compact(NODES.textNode(field.getKey()))).append(": ");
        layout(field.getValue(), depth + 1, out);
        out.append(it.hasNext() ? ",\n" : "\n");
      }
      out.append("  ".repeat(depth)).append('}');
    } else if (node.isArray() && !node.isEmpty() && node.get(0).isObject()) {
      out.append("[\n");
      for (Iterator<JsonNode> it = node.elements(); it.hasNext(); ) {
        out.append(indent).append(compact(it.next())).append(it.hasNext() ? ",\n" : "\n");
      }
      out.append("  ".repeat(depth)).append(']');
    } else {
      out.append(compact(node));
    }
  }

  /** SHA-256 of the compact JSON of the document without its checksum field. */
  private static String checksum(ObjectNode docWithoutChecksum) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256")
          .digest(compact(docWithoutChecksum).getBytes(StandardCharsets.UTF_8));
      return CHECKSUM_PREFIX + HexFormat.of().formatHex(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }

  private static String compact(JsonNode node) {
    try {
      return MAPPER.writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a JSON tree always writes", e);
    }
  }
}
