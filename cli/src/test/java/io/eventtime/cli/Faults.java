package io.eventtime.cli;

import io.eventtime.cli.output.FileSink;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/** Stand-ins for outputs that fail as a full disk or a closed pipe does, from one write on. */
final class Faults {
  static final String FULL = "No space left on device";
  static final String CLOSED = "Broken pipe";

  private Faults() {}

  /**
   * An output that takes its first {@code failAt - 1} writes and fails every write from the
   * {@code failAt}-th on (1 for the first), with {@code reason}; {@code halfOfTheFailingWrite}
   * lets half of the failing write's bytes through first, as a disk that fills up mid-write does.
   */
  static final class FailingStream extends OutputStream {
    private final OutputStream target;
    private final int failAt;
    private final String reason;
    private final boolean halfOfTheFailingWrite;
    private final List<Integer> sizes = new ArrayList<>();

    FailingStream(OutputStream target, int failAt, String reason, boolean halfOfTheFailingWrite) {
      this.target = target;
      this.failAt = failAt;
      this.reason = reason;
      this.halfOfTheFailingWrite = halfOfTheFailingWrite;
    }

    /** Stdout as a byte buffer that fails from its {@code failAt}-th write on, none of whose bytes it takes. */
    static FailingStream stdout(int failAt, String reason) {
      return new FailingStream(new ByteArrayOutputStream(), failAt, reason, false);
    }

    /** An output that never fails, counting its writes. */
    static FailingStream counting() {
      return stdout(Integer.MAX_VALUE, "");
    }

    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      if (sizes.size() + 1 >= failAt) {
        sizes.add(0);
        if (halfOfTheFailingWrite) {
          target.write(b, off, len / 2);
        }
        throw new IOException(reason);
      }
      sizes.add(len);
      target.write(b, off, len);
    }

    @Override
    public void flush() throws IOException {
      target.flush();
    }

    @Override
    public void close() throws IOException {
      target.close();
    }

    /** The bytes taken, when the target is a byte buffer. */
    byte[] taken() {
      return ((ByteArrayOutputStream) target).toByteArray();
    }

    /** The size of each write, 0 for a failed one. */
    List<Integer> sizes() {
      return sizes;
    }
  }

  /**
   * A disk on which the files whose (temporary) names match {@code which} fill up at their
   * {@code failAt}-th write, half of which reaches the file; other files are written as usual.
   */
  static FileSink fullDisk(Predicate<String> which, int failAt) {
    return file -> {
      OutputStream real = FileSink.DISK.create(file);
      return which.test(file.getFileName().toString()) ? new FailingStream(real, failAt, FULL, true) : real;
    };
  }

  /** A disk that runs {@code before} when the run creates its first file (the late or rejected file). */
  static FileSink onFirstFile(Runnable before) {
    boolean[] done = {false};
    return (Path file) -> {
      if (!done[0]) {
        done[0] = true;
        before.run();
      }
      return FileSink.DISK.create(file);
    };
  }
}
