package io.eventtime.cli.output;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Creates the files the late and rejected rows are written to; tests put a failing disk in its place. */
@FunctionalInterface
public interface FileSink {
  /** The local disk: a new file, refused with FileAlreadyExistsException when one of that name exists. */
  FileSink DISK = file -> Files.newOutputStream(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);

  /** Creates {@code file}, which must not exist yet, and opens it for writing. */
  OutputStream create(Path file) throws IOException;
}
