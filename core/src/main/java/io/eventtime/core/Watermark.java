package io.eventtime.core;

/**
 * The latest event time seen, less a fixed delay. Before the first row there is none; it never
 * moves back, since a row older than the latest one leaves the maximum where it was.
 */
public final class Watermark {
  private final long delayMillis;
  private boolean seen;
  private long maxEventTime;

  public Watermark(long delayMillis) {
    if (delayMillis < 0) {
      throw new IllegalArgumentException("the watermark delay must not be negative, got " + delayMillis
          + " ms: give 0 or a positive duration such as 5 MINUTE");
    }
    TimeRange.requireDuration("watermark delay", delayMillis);
    this.delayMillis = delayMillis;
  }

  /** Starts from a stored maximum event time, or from nothing when {@code maxEventTime} is null. */
  public Watermark(long delayMillis, Long maxEventTime) {
    this(delayMillis);
    if (maxEventTime != null) {
      observe(maxEventTime);
    }
  }

  /** Takes in a row's event time; returns whether the watermark moved forward. */
  public boolean observe(long eventTime) {
    if (!seen || eventTime > maxEventTime) {
      seen = true;
      maxEventTime = eventTime;
      return true;
    }
    return false;
  }

  /**
   * Moves the watermark forward to at least {@code watermark} without a row, as if a row of event
   * time {@code watermark + delay} had arrived; returns whether it moved. It never moves back.
   */
  public boolean advanceTo(long watermark) {
    long eventTime = watermark > Long.MAX_VALUE - delayMillis ? Long.MAX_VALUE : watermark + delayMillis;
    return observe(eventTime);
  }

  public boolean isSet() {
    return seen;
  }

  /** The watermark, or {@link Long#MIN_VALUE} while no row has been seen (it closes nothing). */
  public long current() {
    return after(seen ? maxEventTime : Long.MIN_VALUE, delayMillis);
  }

  /**
   * The watermark after rows whose latest event time is {@code maxEventTime} ({@link Long#MIN_VALUE}
   * when no row came), as {@link #current} gives it: for code that keeps the maximum itself, such
   * as a runner that works the maxima out in parallel.
   */
  public static long after(long maxEventTime, long delayMillis) {
    return maxEventTime == Long.MIN_VALUE ? Long.MIN_VALUE : maxEventTime - delayMillis;
  }

  /** The latest event time seen, or null before the first row. */
  public Long maxEventTime() {
    return seen ? maxEventTime : null;
  }

  public long delayMillis() {
    return delayMillis;
  }
}
