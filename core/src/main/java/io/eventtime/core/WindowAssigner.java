package io.eventtime.core;

/**
 * Decides which grid windows (tumbling or hopping) a row lands in, given the watermark at its
 * arrival and the late policy. This one rule serves the single-pass processor and the Beam
 * transforms, which compute each row's watermark in parallel.
 */
public final class WindowAssigner {
  private final WindowSpec spec;
  private final LatePolicy policy;
  private final long size;
  private final WindowSpec.Tumbling tumbling;
  private final WindowSpec.Hopping hopping;

  public WindowAssigner(WindowSpec spec, LatePolicy policy) {
    this.spec = spec;
    this.policy = policy;
    if (spec instanceof WindowSpec.Tumbling t) {
      tumbling = t;
      hopping = null;
      size = t.sizeMillis();
    } else if (spec instanceof WindowSpec.Hopping h) {
      tumbling = null;
      hopping = h;
      size = h.sizeMillis();
    } else {
      throw new IllegalArgumentException("session windows are not on a grid: use SessionSet");
    }
  }

  /** The most windows one row can land in: the length {@link #landing}'s buffer needs. */
  public int maxWindowsPerRow() {
    return hopping == null ? 1 : hopping.maxWindowsPerRow();
  }

  public long sizeMillis() {
    return size;
  }

  /**
   * Writes into {@code starts} the starts of the windows the row lands in and returns how many:
   * zero means the row is late. {@code watermark} is the watermark before the row
   * ({@link Long#MIN_VALUE} when there is none).
   */
  public int landing(long ts, long watermark, long[] starts) {
    if (policy == LatePolicy.EVENT && ts < watermark) {
      return 0;
    }
    if (tumbling != null) {
      long start = tumbling.startOf(ts);
      if (spec.isClosed(start + size, watermark)) {
        return 0;
      }
      starts[0] = start;
      return 1;
    }
    int all = hopping.startsOf(ts, starts);
    int open = 0;
    for (int i = 0; i < all; i++) {
      if (!spec.isClosed(starts[i] + size, watermark)) {
        starts[open++] = starts[i];
      }
    }
    return open;
  }

  /** Why a row {@link #landing} found late was left out. */
  public static String lateReason(LatePolicy policy, long ts, long watermark) {
    return policy == LatePolicy.EVENT
        ? "event time " + TimeText.format(ts) + " is behind the watermark " + TimeText.format(watermark)
            + " (late policy event)"
        : "every window of event time " + TimeText.format(ts) + " had closed at watermark "
            + TimeText.format(watermark) + " (late policy window)";
  }
}
