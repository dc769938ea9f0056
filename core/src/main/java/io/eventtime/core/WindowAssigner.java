package io.eventtime.core;

/**
 * Decides which grid windows (tumbling or hopping) a row lands in, given the watermark at its
 * arrival and the late policy: of the windows that cover the row ({@link WindowSpec.Grid#startsOf}),
 * those {@link LatePolicy#admits} it. This one rule serves the single-pass processor and the
 * Beam transforms, which compute each row's watermark in parallel.
 */
public final class WindowAssigner {
  private final WindowSpec.Grid grid;
  private final LatePolicy policy;
  private final long size;

  public WindowAssigner(WindowSpec spec, LatePolicy policy) {
    if (!(spec instanceof WindowSpec.Grid g)) {
      throw new IllegalArgumentException("session windows are not on a grid: use SessionSet");
    }
    this.grid = g;
    this.policy = policy;
    this.size = g.sizeMillis();
  }

  /** The most windows one row can land in: the length {@link #landing}'s buffer needs. */
  public int maxWindowsPerRow() {
    return grid.maxWindowsPerRow();
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
    int covering = grid.startsOf(ts, starts);
    int landed = 0;
    for (int i = 0; i < covering; i++) {
      if (policy.admits(grid, ts, starts[i] + size, watermark)) {
        starts[landed++] = starts[i];
      }
    }
    return landed;
  }

  /** Why a row {@link #landing} found late was left out: {@link LatePolicy#lateReason}. */
  public static String lateReason(LatePolicy policy, long ts, long watermark) {
    return policy.lateReason(ts, watermark);
  }
}
