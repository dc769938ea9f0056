package io.eventtime.core.contract;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.eventtime.core.DurationText;
import io.eventtime.core.EventTimeParser;
import io.eventtime.core.Stats;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The worked examples A, B and C of the contract (docs/semantics.md, "Worked examples (exact)"):
 * their inputs and their exact windows, read from {@code contract/worked-examples.json} and
 * {@code contract/events.ndjson} of core's test resources. Every surface's tests take the
 * examples from here (core's test-jar), and {@code WorkedExamplesDocTest} checks that the page
 * says the same, so that the page and the tests cannot drift apart.
 */
public final class WorkedExamples {
  private static final EventTimeParser TIMES = EventTimeParser.defaults();
  private static final JsonNode ROOT = json("worked-examples.json");

  /** A: arrival order with a 5 minute delay, policy event; tumbling, hopping and session. */
  public static final Example A = example("A");
  /** B: two runs with state, tumbling 10 min, delay 5 min, policy event. */
  public static final TwoRuns B = twoRuns("B");
  /** C: per-key windows over the file events.ndjson, delay 0, policy window. */
  public static final Example C = example("C");

  private WorkedExamples() {}

  /** One window: its key (null without a key field), start and end as TimeText, and its values. */
  public record Window(String key, String start, String end, List<Long> values) {
    public long startMillis() {
      return millis(start);
    }

    public long endMillis() {
      return millis(end);
    }

    /** The first value: the count of every example. */
    public long count() {
      return values.get(0);
    }

    /** The start's time of day, e.g. 10:00:00. */
    public String startTime() {
      return start.substring(11);
    }

    /** key|start|end|value|..., the key only when there is one. */
    public String text() {
      StringBuilder b = new StringBuilder();
      if (key != null) {
        b.append(key).append('|');
      }
      b.append(start).append('|').append(end);
      values.forEach(v -> b.append('|').append(v));
      return b.toString();
    }
  }

  /** A late arrival: its place in the input (1 for the first), its event time, the watermark it is behind. */
  public record Late(int arrival, String time, String watermark) {}

  /** One window kind over an example's input: its durations, aggregates, windows in close order and stats. */
  public record Case(String kind, String size, String slide, String gap, List<String> aggregates,
      List<Window> windows, Stats stats) {
    public long sizeMillis() {
      return DurationText.parseMillis(size);
    }

    public long slideMillis() {
      return DurationText.parseMillis(slide);
    }

    public long gapMillis() {
      return DurationText.parseMillis(gap);
    }

    /** Each window as {@link Window#text()}. */
    public List<String> texts() {
      return windows.stream().map(Window::text).toList();
    }
  }

  /**
   * An example of one run: the settings, the input (its event times in arrival order, and for C
   * the file's lines and their values), the late arrivals, and a case per window kind.
   */
  public record Example(String name, String delay, String policy, String keyField, String timeField,
      List<String> times, List<String> lines, List<Object[]> rows, List<Late> late, Map<String, Case> cases) {
    public long delayMillis() {
      return DurationText.parseMillis(delay);
    }

    public Case tumbling() {
      return cases.get("tumbling");
    }

    public Case hopping() {
      return cases.get("hopping");
    }

    public Case session() {
      return cases.get("session");
    }

    /** For each arrival, whether it is folded (true) or late (false). */
    public List<Boolean> folded() {
      return WorkedExamples.folded(times.size(), late);
    }
  }

  /** One run of B: its input, late arrivals, windows, and the watermark and open windows it stores. */
  public record Run(List<String> times, List<Late> late, List<Window> windows, String watermark,
      List<Window> open, Stats stats) {
    public long watermarkMillis() {
      return millis(watermark);
    }

    public List<Boolean> folded() {
      return WorkedExamples.folded(times.size(), late);
    }

    /** The times of day of the arrivals, e.g. 00:01. */
    public List<String> minutes() {
      return times.stream().map(t -> t.substring(11, 16)).toList();
    }
  }

  /** Example B: the query and its two runs. */
  public record TwoRuns(String name, String size, String delay, String policy, List<String> aggregates, Run run1,
      Run run2) {
    public long sizeMillis() {
      return DurationText.parseMillis(size);
    }

    public long delayMillis() {
      return DurationText.parseMillis(delay);
    }
  }

  /** A time as TimeText writes it (2026-03-01 00:01:00) in epoch milliseconds. */
  public static long millis(String time) {
    return TIMES.parse(time);
  }

  private static List<Boolean> folded(int arrivals, List<Late> late) {
    List<Boolean> folded = new ArrayList<>();
    for (int i = 1; i <= arrivals; i++) {
      int arrival = i;
      folded.add(late.stream().noneMatch(l -> l.arrival() == arrival));
    }
    return folded;
  }

  private static Example example(String name) {
    JsonNode e = ROOT.get(name);
    String keyField = text(e, "key");
    String timeField = text(e, "time_field");
    List<String> lines = new ArrayList<>();
    List<Object[]> rows = new ArrayList<>();
    List<String> times = strings(e.get("times"));
    if (e.has("file")) {
      lines = lines(e.get("file").asText());
      times = new ArrayList<>();
      for (String line : lines) {
        JsonNode row = parse(line);
        List<Object> values = new ArrayList<>();
        row.fields().forEachRemaining(f -> values.add(f.getValue().isNumber() ? f.getValue().asLong()
            : f.getValue().asText()));
        rows.add(values.toArray());
        times.add(row.get(timeField).asText());
      }
    }
    Map<String, Case> cases = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = e.get("cases").fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> c = it.next();
      JsonNode n = c.getValue();
      cases.put(c.getKey(), new Case(c.getKey(), text(n, "size"), text(n, "slide"), text(n, "gap"),
          strings(n.get("aggregates")), windows(n.get("windows"), keyField != null), stats(n.get("stats"))));
    }
    return new Example(name, text(e, "delay"), text(e, "policy"), keyField, timeField, List.copyOf(times),
        List.copyOf(lines), List.copyOf(rows), late(e.get("late"), times), cases);
  }

  private static TwoRuns twoRuns(String name) {
    JsonNode e = ROOT.get(name);
    List<Run> runs = new ArrayList<>();
    for (JsonNode r : e.get("runs")) {
      List<String> times = strings(r.get("times"));
      runs.add(new Run(times, late(r.get("late"), times), windows(r.get("windows"), false), text(r, "watermark"),
          windows(r.get("open"), false), stats(r.get("stats"))));
    }
    return new TwoRuns(name, text(e, "size"), text(e, "delay"), text(e, "policy"), strings(e.get("aggregates")),
        runs.get(0), runs.get(1));
  }

  private static List<Window> windows(JsonNode array, boolean keyed) {
    List<Window> windows = new ArrayList<>();
    for (JsonNode w : array) {
      int at = keyed ? 1 : 0;
      List<Long> values = new ArrayList<>();
      for (int i = at + 2; i < w.size(); i++) {
        values.add(w.get(i).asLong());
      }
      windows.add(new Window(keyed ? w.get(0).asText() : null, w.get(at).asText(), w.get(at + 1).asText(),
          List.copyOf(values)));
    }
    return List.copyOf(windows);
  }

  private static List<Late> late(JsonNode array, List<String> times) {
    List<Late> late = new ArrayList<>();
    for (JsonNode l : array) {
      int arrival = l.get("arrival").asInt();
      late.add(new Late(arrival, times.get(arrival - 1), l.get("watermark").asText()));
    }
    return List.copyOf(late);
  }

  private static Stats stats(JsonNode s) {
    return new Stats(s.get("rows_in").asLong(), s.get("rows_out").asLong(), s.get("late_dropped").asLong(),
        s.get("windows_closed").asLong(), s.get("rows_folded").asLong(), s.get("rows_rejected").asLong());
  }

  private static List<String> strings(JsonNode array) {
    List<String> strings = new ArrayList<>();
    if (array != null) {
      array.forEach(s -> strings.add(s.asText()));
    }
    return List.copyOf(strings);
  }

  private static String text(JsonNode node, String field) {
    return node.has(field) ? node.get(field).asText() : null;
  }

  private static JsonNode json(String name) {
    return parse(String.join("\n", lines(name)));
  }

  private static JsonNode parse(String text) {
    try {
      return new ObjectMapper().readTree(text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The lines of a file of contract/ in the test resources. */
  public static List<String> lines(String name) {
    InputStream in = WorkedExamples.class.getResourceAsStream("/contract/" + name);
    if (in == null) {
      throw new IllegalStateException("contract/" + name + " is not on the class path (core's test-jar)");
    }
    try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      return r.lines().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
