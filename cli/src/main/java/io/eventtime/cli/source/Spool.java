package io.eventtime.cli.source;

import io.eventtime.cli.CliException;
import io.eventtime.cli.ErrorCode;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Copies each source that cannot be read twice (a pipe such as {@code /dev/stdin}, a FIFO, a
 * device) to a temporary file, for the Beam runners: they read a source once to infer the schema
 * and again in the pipeline, and the second read of a pipe would miss the rows the first one
 * took. The local runner reads every source once and needs no copy. Closing deletes the copies.
 */
public final class Spool implements Closeable {
  private final List<SourceFile> files;
  private final List<Path> copies;

  private Spool(List<SourceFile> files, List<Path> copies) {
    this.files = files;
    this.copies = copies;
  }

  /** The sources, those that are not regular files read from a copy made now. */
  public static Spool of(List<SourceFile> sources) {
    List<SourceFile> files = new ArrayList<>();
    List<Path> copies = new ArrayList<>();
    Spool spool = new Spool(files, copies);
    for (SourceFile f : sources) {
      if (Files.isRegularFile(f.file())) {
        files.add(f);
        continue;
      }
      Path copy;
      try {
        copy = Files.createTempFile("eventtime-spool-", ".ndjson");
      } catch (IOException e) {
        spool.close();
        throw new CliException(ErrorCode.IO_ERROR, "cannot make a temporary file to copy " + f + " into (it is not a"
            + " regular file, and the Beam runners read a source twice): " + e.getMessage(), e);
      }
      copies.add(copy);
      try (InputStream in = Files.newInputStream(f.file())) {
        Files.copy(in, copy, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      } catch (IOException e) {
        spool.close();
        throw new CliException(ErrorCode.IO_ERROR, "cannot copy " + f + " to the temporary file " + copy + " (it is not"
            + " a regular file, and the Beam runners read a source twice): " + e.getMessage(), e);
      }
      files.add(f.spooledTo(copy));
    }
    return spool;
  }

  public List<SourceFile> files() {
    return List.copyOf(files);
  }

  @Override
  public void close() {
    for (Path copy : copies) {
      try {
        Files.deleteIfExists(copy);
      } catch (IOException ignored) {
        // a copy left in the temporary directory harms nothing but space
      }
    }
  }
}
