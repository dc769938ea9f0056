package io.eventtime.beam;

import io.eventtime.core.WindowSpec;

/**
 * Window specs from the durations Beam users hold: Beam's (joda) {@code Duration}, Java's
 * {@code java.time.Duration}, or milliseconds. A hopping window is spelled as Beam's
 * {@code SlidingWindows.of(size).every(period)} is, size first:
 *
 * <pre>{@code
 * EventTimeWindow.of(WindowSpecs.tumbling(Duration.standardMinutes(1)));
 * EventTimeWindow.of(WindowSpecs.hopping(Duration.standardMinutes(10)).every(Duration.standardMinutes(5)));
 * EventTimeWindow.of(WindowSpecs.session(Duration.standardMinutes(30)));
 * }</pre>
 *
 * <p>A null duration is refused with a message; a size, slide or gap that is not positive, or a
 * slide larger than the size, is refused as {@link WindowSpec} refuses it. Durations count in
 * whole milliseconds (a finer part is dropped).
 */
public final class WindowSpecs {
  private WindowSpecs() {}

  /** Tumbling windows of {@code size}. */
  public static WindowSpec.Tumbling tumbling(org.joda.time.Duration size) {
    return WindowSpec.tumbling(millis(size, "tumbling window size"));
  }

  /** Tumbling windows of {@code size}. */
  public static WindowSpec.Tumbling tumbling(java.time.Duration size) {
    return WindowSpec.tumbling(millis(size, "tumbling window size"));
  }

  /** Tumbling windows of {@code sizeMillis}. */
  public static WindowSpec.Tumbling tumbling(long sizeMillis) {
    return WindowSpec.tumbling(sizeMillis);
  }

  /** Hopping windows of {@code size}; say how often one starts with {@link HoppingSize#every}. */
  public static HoppingSize hopping(org.joda.time.Duration size) {
    return new HoppingSize(millis(size, "hopping window size"));
  }

  /** Hopping windows of {@code size}; say how often one starts with {@link HoppingSize#every}. */
  public static HoppingSize hopping(java.time.Duration size) {
    return new HoppingSize(millis(size, "hopping window size"));
  }

  /** Hopping windows of {@code sizeMillis}; say how often one starts with {@link HoppingSize#every}. */
  public static HoppingSize hopping(long sizeMillis) {
    return new HoppingSize(sizeMillis);
  }

  /** Session windows per key that a silence longer than {@code gap} splits. */
  public static WindowSpec.Session session(org.joda.time.Duration gap) {
    return WindowSpec.session(millis(gap, "session gap"));
  }

  /** Session windows per key that a silence longer than {@code gap} splits. */
  public static WindowSpec.Session session(java.time.Duration gap) {
    return WindowSpec.session(millis(gap, "session gap"));
  }

  /** Session windows per key that a silence longer than {@code gapMillis} splits. */
  public static WindowSpec.Session session(long gapMillis) {
    return WindowSpec.session(gapMillis);
  }

  /** The size of hopping windows, waiting for their slide. */
  public static final class HoppingSize {
    private final long sizeMillis;

    private HoppingSize(long sizeMillis) {
      this.sizeMillis = sizeMillis;
    }

    /** A window of the size starting every {@code slide}. */
    public WindowSpec.Hopping every(org.joda.time.Duration slide) {
      return WindowSpec.hopping(millis(slide, "hopping window slide"), sizeMillis);
    }

    /** A window of the size starting every {@code slide}. */
    public WindowSpec.Hopping every(java.time.Duration slide) {
      return WindowSpec.hopping(millis(slide, "hopping window slide"), sizeMillis);
    }

    /** A window of the size starting every {@code slideMillis}. */
    public WindowSpec.Hopping every(long slideMillis) {
      return WindowSpec.hopping(slideMillis, sizeMillis);
    }
  }

  static long millis(org.joda.time.Duration d, String what) {
    if (d == null) {
      throw new IllegalArgumentException("the " + what + " is null: give a duration");
    }
    return d.getMillis();
  }

  static long millis(java.time.Duration d, String what) {
    if (d == null) {
      throw new IllegalArgumentException("the " + what + " is null: give a duration");
    }
    return d.toMillis();
  }
}
