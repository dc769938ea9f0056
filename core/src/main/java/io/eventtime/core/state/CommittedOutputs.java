package io.eventtime.core.state;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;

/**
 * The output files a run appends to, as its state commits them: each file's length in bytes
 * when the state was committed ({@link io.eventtime.core.OpenState#outputs}). A run that starts
 * from a state cuts each file back to that length, so that what a run wrote after its last commit
 * (and was cut off before committing) is not there twice once the rows are read again.
 */
public final class CommittedOutputs {
  private CommittedOutputs() {}

  /**
   * Cuts each file of {@code committed} (path, as the run gave it, to length in bytes) back to
   * its committed length, and forces it to disk. Every file is checked first and nothing is cut
   * when one is refused (StateException): a file shorter than its committed length, or missing
   * when its committed length is more than 0, lost rows the state says were written. A missing
   * file of committed length 0 is left missing.
   */
  public static void cutBack(Map<String, Long> committed) {
    committed.forEach((name, length) -> {
      Path file = Path.of(name);
      long actual = lengthOf(file);
      if (Math.max(actual, 0) < length) {
        throw new StateException("the output file " + file + (actual < 0 ? " is missing" : " is " + actual
            + " bytes long") + ", but the state holds " + length + " bytes of it as written by the runs before: the"
            + " file was cut, replaced or removed since; restore it, or give another state directory to start again");
      }
    });
    committed.forEach((name, length) -> {
      Path file = Path.of(name);
      if (lengthOf(file) > length) {
        try (FileChannel out = FileChannel.open(file, StandardOpenOption.WRITE)) {
          out.truncate(length);
          out.force(true);
        } catch (IOException e) {
          throw new StateException("cannot cut the output file " + file + " back to the " + length + " bytes the"
              + " state holds as written (" + e.getMessage() + "): make it writable, then start again", e);
        }
      }
    });
  }

  /** The length of {@code file} in bytes, or -1 when there is none. */
  private static long lengthOf(Path file) {
    if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
      return -1;
    }
    if (!Files.isRegularFile(file)) {
      throw new StateException("the output file " + file + " is not a regular file: give an output file, not a"
          + " directory");
    }
    try {
      return Files.size(file);
    } catch (IOException e) {
      throw new StateException("cannot read the length of the output file " + file + " (" + e.getMessage() + ")", e);
    }
  }
}
