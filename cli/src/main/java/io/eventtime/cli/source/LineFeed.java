package io.eventtime.cli.source;

/**
 * The lines (or record values) of a source, one at a time, each with where it came from: what
 * the local runner's readers take, whether the lines are a file's ({@link LineSource}) or a
 * Kafka topic's record values ({@link KafkaSource}). The current line's bytes are valid until the
 * next call of {@link #next}.
 */
public interface LineFeed {
  /** Moves to the next line, waiting for one when the source is live; false at the end. */
  boolean next();

  /** The source the line came from, as messages and the late and rejected rows name it. */
  String source();

  /** The line's number in its file, or the record's offset in its Kafka partition. */
  long lineNumber();

  /** The partition of the contract the line belongs to: 0 for files, the Kafka partition's index. */
  default int partition() {
    return 0;
  }

  /** False for a Kafka record that has no value (its bytes are empty): it is rejected. */
  default boolean hasValue() {
    return true;
  }

  /**
   * Whether the current line is the last one at hand, so that the next {@link #next} may wait:
   * a reader sends what it has gathered on at once, so that windows close while a live source is
   * quiet. Files always have more at hand.
   */
  default boolean lastAtHand() {
    return false;
  }

  /** The byte of the line's file after it, where reading goes on (followed files); -1 when it has none. */
  default long byteEnd() {
    return -1;
  }

  /** What a line is called in a reason: {@code line}, or {@code value} for Kafka records. */
  default String unit() {
    return "line";
  }

  byte[] buffer();

  int offset();

  int length();
}
