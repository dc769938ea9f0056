package io.eventtime.cli.source;

import io.eventtime.cli.CliException;
import io.eventtime.cli.ErrorCode;
import io.eventtime.core.ndjson.TextEncoding;
import java.io.IOException;
import java.io.InputStream;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * One {@code --from} source: an NDJSON file named {@code file://path} (relative or absolute) or
 * by its plain path. Its table name is its base name without the extension. A source that
 * cannot be read twice (a pipe) may be read from {@code spool}, a copy of it (see
 * {@link Spool}); it is still named by its own path.
 */
public record SourceFile(String uri, String path, String spool) implements Serializable {

  /** Reads a {@code --from} value, refusing other schemes. */
  public static SourceFile parse(String uri) {
    String path = uri;
    if (uri.startsWith("file://")) {
      path = uri.substring("file://".length());
    } else if (uri.startsWith("file:")) {
      path = uri.substring("file:".length());
    } else if (uri.matches("^[a-zA-Z][a-zA-Z0-9+.-]*://.*")) {
      throw new CliException(ErrorCode.INVALID_ARGUMENT, "--from " + uri + ": only files are supported, as"
          + " file://events.ndjson, file:///data/events.ndjson or a plain path");
    }
    if (path.isEmpty()) {
      throw new CliException(ErrorCode.INVALID_ARGUMENT, "--from " + uri + " names no file: write file://events.ndjson");
    }
    try {
      Path.of(path);
    } catch (InvalidPathException e) {
      throw new CliException(ErrorCode.INVALID_ARGUMENT, "--from " + uri + " is not a valid path: " + e.getReason());
    }
    return new SourceFile(uri, path, null);
  }

  /** The file to read: the source, or its spooled copy. */
  public Path file() {
    return Path.of(spool != null ? spool : path);
  }

  /** This source, read from the copy {@code copy} of it. */
  public SourceFile spooledTo(Path copy) {
    return new SourceFile(uri, path, copy.toString());
  }

  /** The name the file is shown by in messages and late/rejected rows: as given on the command line. */
  public String displayName() {
    return path;
  }

  /** The table the file is queried as: {@code events} for {@code data/events.ndjson}. */
  public String tableName() {
    Path own = Path.of(path);
    String base = own.getFileName() == null ? path : own.getFileName().toString();
    int dot = base.indexOf('.');
    return dot > 0 ? base.substring(0, dot) : base;
  }

  /**
   * Refuses a file that is missing, a directory, unreadable, or not UTF-8 text by its first bytes
   * (UTF-16, compressed: {@link TextEncoding}), before any work: on every runner, before any file is
   * read (a pipe's first bytes are looked at as it is read).
   */
  public void checkReadable() {
    Path f = file();
    if (!Files.exists(f)) {
      throw new CliException(ErrorCode.UNREADABLE_SOURCE, "cannot read " + uri + ": there is no file " + f.toAbsolutePath()
          + " (give an NDJSON file, e.g. --from file://events.ndjson)");
    }
    if (Files.isDirectory(f)) {
      throw new CliException(ErrorCode.UNREADABLE_SOURCE, "cannot read " + uri + ": it is a directory; name its files"
          + " with one --from each");
    }
    if (!Files.isReadable(f)) {
      throw new CliException(ErrorCode.UNREADABLE_SOURCE, "cannot read " + uri + ": permission denied");
    }
    if (Files.isRegularFile(f)) {
      String notUtf8;
      try (InputStream in = Files.newInputStream(f)) {
        byte[] head = in.readNBytes(4);
        notUtf8 = TextEncoding.notUtf8(head, head.length);
      } catch (IOException e) {
        throw new CliException(ErrorCode.UNREADABLE_SOURCE, "cannot read " + this + ": " + e.getMessage(), e);
      }
      if (notUtf8 != null) {
        throw new CliException(ErrorCode.UNREADABLE_SOURCE, "cannot read " + this + ": " + notUtf8);
      }
    }
  }

  @Override
  public String toString() {
    return uri.toLowerCase(Locale.ROOT).startsWith("file") ? uri : "file://" + uri;
  }
}
