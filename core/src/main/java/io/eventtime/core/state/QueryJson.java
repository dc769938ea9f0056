package io.eventtime.core.state;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.eventtime.core.AggregateKind;
import io.eventtime.core.AggregateSpec;
import io.eventtime.core.LatePolicy;
import io.eventtime.core.WindowQuery;
import io.eventtime.core.WindowSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * The query a state belongs to, as the state document records it, and what tells two queries
 * apart in words a user can act on.
 */
final class QueryJson {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final long[] UNIT_MILLIS = {86_400_000L, 3_600_000L, 60_000L, 1_000L, 1L};
  private static final String[] UNIT_NAMES = {"DAY", "HOUR", "MINUTE", "SECOND", "MILLISECOND"};

  /** A query with the name of the field its event times are read from (null when not given). */
  record Stamped(WindowQuery query, String timeField) {}

  private QueryJson() {}

  static ObjectNode write(Stamped stamped) {
    WindowQuery q = stamped.query();
    ObjectNode node = NODES.objectNode();
    ObjectNode window = node.putObject("window");
    window.put("kind", q.spec().kind());
    if (q.spec() instanceof WindowSpec.Tumbling t) {
      window.put("size_ms", t.sizeMillis());
      window.put("offset_ms", t.offsetMillis());
    } else if (q.spec() instanceof WindowSpec.Hopping h) {
      window.put("slide_ms", h.slideMillis());
      window.put("size_ms", h.sizeMillis());
      window.put("offset_ms", h.offsetMillis());
    } else {
      window.put("gap_ms", ((WindowSpec.Session) q.spec()).gapMillis());
    }
    ArrayNode keys = node.putArray("key_fields");
    q.keyFields().forEach(keys::add);
    ArrayNode aggregates = node.putArray("aggregates");
    for (AggregateSpec a : q.aggregates()) {
      ObjectNode agg = aggregates.addObject();
      agg.put("kind", a.kind().label());
      agg.put("field", a.inputField());
      agg.put("output", a.outputName());
    }
    node.put("delay_ms", q.delayMillis());
    node.put("late_policy", q.latePolicy().label());
    node.put("time_field", stamped.timeField());
    return node;
  }

  static Stamped read(JsonNode json) {
    String where = "query";
    ObjectNode node = JsonFields.object(json, where);
    JsonFields.exactly(node, where, "window", "key_fields", "aggregates", "delay_ms", "late_policy", "time_field");
    try {
      WindowSpec spec = readWindow(node.get("window"));
      List<String> keys = new ArrayList<>();
      ArrayNode keyArray = JsonFields.array(node.get("key_fields"), "query.key_fields");
      for (int i = 0; i < keyArray.size(); i++) {
        keys.add(JsonFields.text(keyArray.get(i), "query.key_fields[" + i + "]"));
      }
      List<AggregateSpec> aggregates = new ArrayList<>();
      ArrayNode aggArray = JsonFields.array(node.get("aggregates"), "query.aggregates");
      for (int i = 0; i < aggArray.size(); i++) {
        String at = "query.aggregates[" + i + "]";
        ObjectNode agg = JsonFields.object(aggArray.get(i), at);
        JsonFields.exactly(agg, at, "kind", "field", "output");
        aggregates.add(new AggregateSpec(kindOf(JsonFields.text(agg.get("kind"), at + ".kind"), at),
            JsonFields.textOrNull(agg.get("field"), at + ".field"), JsonFields.text(agg.get("output"), at + ".output")));
      }
      long delay = JsonFields.whole(node.get("delay_ms"), "query.delay_ms");
      LatePolicy policy = LatePolicy.parse(JsonFields.text(node.get("late_policy"), "query.late_policy"));
      String timeField = JsonFields.textOrNull(node.get("time_field"), "query.time_field");
      return new Stamped(new WindowQuery(spec, keys, aggregates, delay, policy), timeField);
    } catch (IllegalArgumentException invalid) {
      throw new BadState(where, "not a valid query: " + invalid.getMessage());
    }
  }

  private static WindowSpec readWindow(JsonNode json) {
    String where = "query.window";
    ObjectNode w = JsonFields.object(json, where);
    String kind = JsonFields.text(w.get("kind"), where + ".kind");
    switch (kind) {
      case "tumbling":
        JsonFields.exactly(w, where, "kind", "size_ms", "offset_ms");
        return new WindowSpec.Tumbling(JsonFields.whole(w.get("size_ms"), where + ".size_ms"),
            JsonFields.whole(w.get("offset_ms"), where + ".offset_ms"));
      case "hopping":
        JsonFields.exactly(w, where, "kind", "slide_ms", "size_ms", "offset_ms");
        return new WindowSpec.Hopping(JsonFields.whole(w.get("slide_ms"), where + ".slide_ms"),
            JsonFields.whole(w.get("size_ms"), where + ".size_ms"),
            JsonFields.whole(w.get("offset_ms"), where + ".offset_ms"));
      case "session":
        JsonFields.exactly(w, where, "kind", "gap_ms");
        return new WindowSpec.Session(JsonFields.whole(w.get("gap_ms"), where + ".gap_ms"));
      default:
        throw new BadState(where + ".kind", "unknown window kind '" + kind + "': expected tumbling, hopping or session");
    }
  }

  private static AggregateKind kindOf(String label, String where) {
    for (AggregateKind k : AggregateKind.values()) {
      if (k.label().equals(label)) {
        return k;
      }
    }
    throw new BadState(where + ".kind", "unknown aggregate '" + label + "'");
  }

  /**
   * What differs between the query a state was written for and the one a run asks for, one
   * "written for X, this run asks for Y" per difference; empty when the state fits the run. The
   * time field is compared only when both name one.
   */
  static List<String> differences(Stamped stored, Stamped run) {
    WindowQuery s = stored.query();
    WindowQuery r = run.query();
    List<String> out = new ArrayList<>();
    differ(out, s.spec(), r.spec(), describe(s.spec()), describe(r.spec()));
    differ(out, s.keyFields(), r.keyFields(), keys(s.keyFields()), keys(r.keyFields()));
    differ(out, s.aggregates(), r.aggregates(), aggregates(s.aggregates()), aggregates(r.aggregates()));
    differ(out, s.delayMillis(), r.delayMillis(), delay(s.delayMillis()), delay(r.delayMillis()));
    differ(out, s.latePolicy(), r.latePolicy(), "late policy " + s.latePolicy().label(),
        "late policy " + r.latePolicy().label());
    if (stored.timeField() != null && run.timeField() != null) {
      differ(out, stored.timeField(), run.timeField(), "event times from field " + stored.timeField(),
          "event times from field " + run.timeField());
    }
    return out;
  }

  private static void differ(List<String> out, Object stored, Object run, String storedText, String runText) {
    if (!Objects.equals(stored, run)) {
      out.add("written for " + storedText + ", this run asks for " + runText);
    }
  }

  static String describe(WindowSpec spec) {
    if (spec instanceof WindowSpec.Tumbling t) {
      return "tumbling " + duration(t.sizeMillis()) + " windows" + offset(t.offsetMillis());
    }
    if (spec instanceof WindowSpec.Hopping h) {
      return "hopping " + duration(h.sizeMillis()) + " windows every " + duration(h.slideMillis())
          + offset(h.offsetMillis());
    }
    return "session windows with a " + duration(((WindowSpec.Session) spec).gapMillis()) + " gap";
  }

  private static String offset(long millis) {
    return millis == 0 ? "" : " offset by " + duration(millis);
  }

  private static String keys(List<String> fields) {
    return fields.isEmpty() ? "windows with no key" : "windows keyed by " + String.join(", ", fields);
  }

  private static String aggregates(List<AggregateSpec> specs) {
    return specs.isEmpty() ? "no aggregates"
        : "the aggregates " + specs.stream().map(AggregateSpec::toString).collect(Collectors.joining(", "));
  }

  private static String delay(long millis) {
    return millis == 0 ? "no watermark delay" : "a watermark delay of " + duration(millis);
  }

  /** A duration as the surfaces write it, in the largest unit that divides it: {@code 10 MINUTE}. */
  static String duration(long millis) {
    for (int i = 0; i < UNIT_MILLIS.length; i++) {
      if (millis % UNIT_MILLIS[i] == 0) {
        return millis / UNIT_MILLIS[i] + " " + UNIT_NAMES[i];
      }
    }
    throw new AssertionError(millis);
  }
}
