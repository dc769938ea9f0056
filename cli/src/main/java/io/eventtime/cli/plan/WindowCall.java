package io.eventtime.cli.plan;

import io.eventtime.core.WindowSpec;
import java.io.Serializable;

/**
 * One window call of the SQL, checked: {@code TUMBLE(ts, size)}, {@code HOP(ts, slide, size)} or
 * {@code SESSION(ts, gap)}, projecting the window's start, or one of the {@code _END} forms
 * ({@code TUMBLE_END(ts, size)}) projecting its end. {@code timeColumn} is the column as written.
 */
public record WindowCall(Function function, boolean end, String timeColumn, boolean quoted, long slideMillis,
    long sizeMillis, String text) implements Serializable {

  /** The three window functions. */
  public enum Function {
    TUMBLE("a timestamp column and one INTERVAL", "TUMBLE(ts, INTERVAL '1 MINUTE')", 1),
    HOP("a timestamp column, a slide and a size", "HOP(ts, INTERVAL '30 SECOND', INTERVAL '1 MINUTE')", 2),
    SESSION("a timestamp column and a gap", "SESSION(ts, INTERVAL '5 MINUTE')", 1);

    private final String takes;
    private final String example;
    private final int intervals;

    Function(String takes, String example, int intervals) {
      this.takes = takes;
      this.example = example;
      this.intervals = intervals;
    }

    /** How many INTERVAL arguments follow the time column. */
    public int intervals() {
      return intervals;
    }

    /** The refusal of a call with the wrong arguments, naming the call as written. */
    public String arityMessage(String calledAs) {
      String example = this.example.replace(name() + "(", calledAs + "(");
      return calledAs + " takes " + takes + ": " + example;
    }
  }

  /** The window spec of the call, as the core takes it. */
  public WindowSpec spec() {
    switch (function) {
      case TUMBLE:
        return WindowSpec.tumbling(sizeMillis);
      case HOP:
        return WindowSpec.hopping(slideMillis, sizeMillis);
      default:
        return WindowSpec.session(sizeMillis);
    }
  }

  /** Whether two calls describe the same windows over the same column (start or end form alike). */
  public boolean sameWindows(WindowCall other) {
    return function == other.function && slideMillis == other.slideMillis && sizeMillis == other.sizeMillis
        && (quoted || other.quoted ? timeColumn.equals(other.timeColumn) : timeColumn.equalsIgnoreCase(other.timeColumn));
  }
}
