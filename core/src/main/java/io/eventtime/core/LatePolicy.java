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

  /**
   * The late rule, once for every window kind: whether a row of event time {@code eventTime},
   * arriving when the watermark is {@code watermark}, goes into its window that ends at
   * {@code windowEnd} (a grid window that covers it, or the session it forms with the open
   * sessions it touches). A closed window takes no more rows; under {@code event} a row behind
   * the watermark goes into none. A row that goes into none of its windows is late.
   */
  public boolean admits(WindowSpec spec, long eventTime, long windowEnd, long watermark) {
    if (this == EVENT && eventTime < watermark) {
      return false;
    }
    return !spec.isClosed(windowEnd, watermark);
  }

  /** Why a row of event time {@code eventTime} that no window {@link #admits} was left out. */
  public String lateReason(long eventTime, long watermark) {
    return this == EVENT
        ? "event time " + TimeText.format(eventTime) + " is behind the watermark " + TimeText.format(watermark)
            + " (late policy event)"
        : "every window of event time " + TimeText.format(eventTime) + " had closed at watermark "
            + TimeText.format(watermark) + " (late policy window)";
  }

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
