package io.eventtime.core;

/**
 * The arrival position of a row read from files: a whole number whose order is the order the
 * rows arrived in, file after file, line after line, and where one line gives several rows, those
 * rows one after another (its fan-out). Every reader that numbers the lines of files encodes with
 * it (Beam's {@code NdjsonIO} and {@code ArrivalPositions.ofLines}, the command's Beam runner,
 * Hop's Event File Input on Beam), and every place that tells a row by file and line decodes with
 * it, so that a position means the same on every surface.
 *
 * <p>A position is the file's index (in the reader's file order, from 0) above {@value #LINE_BITS}
 * bits of its line number, in a non-negative long: {@value #FILE_BITS} bits of file index, so at
 * most {@value #MAX_FILES} files and {@value #MAX_LINE} lines a file. A fan-out shifts a position
 * by {@value #FAN_OUT_BITS} bits and adds the index of the row (at most {@value #MAX_FAN_OUT}
 * rows a position); fanned-out positions fan out again, so a position that is fanned out must
 * leave {@value #FAN_OUT_BITS} bits free.
 *
 * <p>Why {@value #LINE_BITS} bits of line: Hop pipelines on Beam fan positions out once for each
 * run of other transforms between a file read and a window, and a window needs the whole
 * position in 62 bits, so the fewer bits the file and line take, the more runs fit. 36 bits
 * number 68 billion lines, far more than one worker reads from one file in order (a file is
 * never split), and leave 27 bits, 134 million files, to a read that does not fan out.
 */
public final class ArrivalPosition {
  /** Bits of a position that hold the line number; the file's index sits above them. */
  public static final int LINE_BITS = 36;
  /** Bits of a position above the line number: a non-negative long's 63 bits less the line's. */
  public static final int FILE_BITS = Long.SIZE - 1 - LINE_BITS;
  /** The highest line number a position holds. */
  public static final long MAX_LINE = (1L << LINE_BITS) - 1;
  /** How many files positions can number: their indexes run from 0 to this less one. */
  public static final int MAX_FILES = 1 << FILE_BITS;
  /** Bits a fan-out adds below a position for the index of each row it gave. */
  public static final int FAN_OUT_BITS = 8;
  /** How many rows one position can fan out to. */
  public static final int MAX_FAN_OUT = 1 << FAN_OUT_BITS;

  private ArrivalPosition() {}

  /**
   * The position of line {@code line} (1-based; 0 for a row before the first line) of the
   * {@code file}-th file (from 0).
   */
  public static long of(int file, long line) {
    if (file < 0 || file >= MAX_FILES) {
      throw new IllegalArgumentException("file index " + file + " is not an arrival position's: positions number at most "
          + MAX_FILES + " files (indexes 0 to " + (MAX_FILES - 1) + "): read fewer files at once");
    }
    if (line < 0 || line > MAX_LINE) {
      throw new IllegalArgumentException("line " + line + " of file index " + file + " is beyond the " + MAX_LINE
          + " lines an arrival position numbers in one file: split the file into smaller ones");
    }
    return ((long) file << LINE_BITS) | line;
  }

  /** Refuses {@code count} files before a read starts when their positions would not fit. */
  public static void requireFiles(int count) {
    if (count > MAX_FILES) {
      throw new IllegalArgumentException(count + " files are more than the " + MAX_FILES
          + " an arrival position numbers: read fewer files at once");
    }
  }

  /** The index of the file a position ({@link #of}) is in. */
  public static int file(long position) {
    return (int) (position >>> LINE_BITS);
  }

  /** The line number a position ({@link #of}) is at. */
  public static long line(long position) {
    return position & MAX_LINE;
  }

  /**
   * The position of the {@code index}-th row (from 0) that the row at {@code position} gave: after
   * every row of a smaller position, before every row of a larger one.
   */
  public static long fanOut(long position, int index) {
    if (index < 0 || index >= MAX_FAN_OUT) {
      throw new IllegalArgumentException("row " + index + " of one arrival position is beyond the " + MAX_FAN_OUT
          + " rows a position fans out to (indexes 0 to " + (MAX_FAN_OUT - 1) + ")");
    }
    if (position < 0 || position >>> (Long.SIZE - 1 - FAN_OUT_BITS) != 0) {
      throw new IllegalArgumentException("the arrival position " + position + " takes more than the "
          + (Long.SIZE - 1 - FAN_OUT_BITS) + " bits that leave room for a fan-out of " + FAN_OUT_BITS + " bits");
    }
    return (position << FAN_OUT_BITS) | index;
  }

  /** The position a fanned-out position ({@link #fanOut}) came from. */
  public static long fannedFrom(long position) {
    return position >>> FAN_OUT_BITS;
  }

  /** The index of a fanned-out position ({@link #fanOut}) among the rows of the position it came from. */
  public static int fanOutIndex(long position) {
    return (int) (position & (MAX_FAN_OUT - 1));
  }
}
