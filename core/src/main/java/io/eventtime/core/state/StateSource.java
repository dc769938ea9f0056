package io.eventtime.core.state;

import java.util.Collections;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * What a run reads, as its state records it, so that a state is refused for another source as
 * it is for another query: a kind ({@code kafka}, {@code files}, ...) and the details that name
 * what was read, e.g. {@code StateSource.of("kafka", "servers", "127.0.0.1:9092", "topic", "orders")}.
 * Two sources are the same when their kinds and details are equal.
 */
public record StateSource(String kind, SortedMap<String, String> details) {

  public StateSource {
    if (kind == null || kind.isEmpty()) {
      throw new IllegalArgumentException("a source needs a kind, such as kafka or files");
    }
    if (details.containsKey("kind")) {
      throw new IllegalArgumentException("'kind' is the source's kind, not one of its details");
    }
    details.forEach((name, value) -> {
      if (name.isEmpty() || value == null) {
        throw new IllegalArgumentException("a detail of a source needs a name and a value, got '" + name + "' = "
            + value);
      }
    });
    details = Collections.unmodifiableSortedMap(new TreeMap<>(details));
  }

  /** A source of {@code kind} with details given as name, value, name, value... */
  public static StateSource of(String kind, String... namesAndValues) {
    if (namesAndValues.length % 2 != 0) {
      throw new IllegalArgumentException("the details of a source come in pairs of name and value");
    }
    TreeMap<String, String> details = new TreeMap<>();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      if (details.put(namesAndValues[i], namesAndValues[i + 1]) != null) {
        throw new IllegalArgumentException("the detail '" + namesAndValues[i] + "' of a source is given twice");
      }
    }
    return new StateSource(kind, details);
  }

  /** In words, for messages: {@code kafka (servers 127.0.0.1:9092, topic orders)}. */
  public String describe() {
    if (details.isEmpty()) {
      return kind;
    }
    return kind + " (" + details.entrySet().stream().map(e -> e.getKey() + " " + e.getValue())
        .collect(Collectors.joining(", ")) + ")";
  }
}
