package io.eventtime.core;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** What happens to a row that arrives after the watermark has moved past it. */
public enum LatePolicy {
  /**
   * The streaming engines' rule: the row is left out of each window that had already closed when
   * it arrived, and still counts in the windows that are open. It is late only if it lands in no
   * window at all.
   */
  WINDOW,
  /** The strict rule: a row whose event time is behind the watermark is left out of every window. */
  EVENT;

  /** The name the surfaces use: {@code window} or {@code event}. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Reads a policy by name, case-insensitively; anything else is refused with the choices. */
  public static LatePolicy parse(String text) {
    for (LatePolicy p : values()) {
      if (p.name().equalsIgnoreCase(text == null ? "" : text.trim())) {
        return p;
      }
    }
    throw new IllegalArgumentException("unknown late policy '" + text + "': use one of "
        + Arrays.stream(values()).map(LatePolicy::label).collect(Collectors.joining(", ")));
  }
}
