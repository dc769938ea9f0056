package io.eventtime.cli.output;

import io.eventtime.cli.CliException;
import io.eventtime.cli.ErrorCode;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * The file a {@code --late-output} or {@code --rejected-output} flag names, checked before the run
 * opens anything: a regular file, new or existing, in a directory that exists. {@link #target} is
 * its real path (links and {@code ./} resolved; for a new file, its directory's real path and its
 * name): the path the run replaces at its end, and the one clashes are compared by.
 */
public record OutputFile(String flag, String uri, Path target) {

  /** Reads a flag value, {@code file://path} or a plain path, refusing what cannot be such a file. */
  public static OutputFile parse(String flag, String uri) {
    if (uri.matches("^[a-zA-Z][a-zA-Z0-9+.-]*://.*") && !uri.startsWith("file://")) {
      throw refused(flag + " " + uri + ": only files are supported, e.g. " + flag + " file://late.ndjson");
    }
    String p = uri.startsWith("file://") ? uri.substring(7) : uri.startsWith("file:") ? uri.substring(5) : uri;
    if (p.isEmpty()) {
      throw refused(flag + " '" + uri + "' names no file: e.g. " + flag + " file://late.ndjson");
    }
    Path path;
    try {
      path = Path.of(p).toAbsolutePath();
    } catch (InvalidPathException e) {
      throw refused(flag + " " + uri + " is not a valid path: " + e.getReason());
    }
    if (Files.isDirectory(path)) {
      throw refused(flag + " " + uri + " is a directory: name a file, e.g. " + flag + " file://late.ndjson");
    }
    if (Files.exists(path) && !Files.isRegularFile(path)) {
      throw refused(flag + " " + uri + " is not a regular file (a device, a pipe or a socket): name a regular file,"
          + " new or existing; the run writes it beside the file and moves it into place");
    }
    Path dir = path.getParent();
    if (!Files.exists(path) && (dir == null || !Files.isDirectory(dir))) {
      throw refused(flag + " " + uri + ": the directory " + dir + " does not exist; create it or write the file"
          + " elsewhere");
    }
    try {
      return new OutputFile(flag, uri, realPath(path));
    } catch (IOException e) {
      throw refused(flag + " " + uri + ": cannot resolve the path (" + reason(e) + ")");
    }
  }

  /** How the flag was given, for messages: {@code --late-output file://late.ndjson}. */
  public String described() {
    return flag + " " + uri;
  }

  /**
   * The real path of {@code path}, which need not exist: the real path of its nearest existing
   * ancestor, then the rest of its names.
   */
  public static Path realPath(Path path) throws IOException {
    Path existing = path.toAbsolutePath();
    Deque<Path> missing = new ArrayDeque<>();
    int links = 0;
    while (existing.getParent() != null && !Files.exists(existing)) {
      if (Files.isSymbolicLink(existing) && links++ < 40) {
        // a link to a file not made yet: that file is the one the path names
        existing = existing.getParent().resolve(Files.readSymbolicLink(existing));
        continue;
      }
      missing.push(existing.getFileName());
      existing = existing.getParent();
    }
    Path real = existing.toRealPath();
    while (!missing.isEmpty()) {
      real = real.resolve(missing.pop());
    }
    return real.normalize();
  }

  /** What went wrong in words, where Java gives only the file's name (as NoSuchFileException does). */
  public static String reason(IOException e) {
    if (e instanceof AccessDeniedException) {
      return "permission denied";
    }
    if (e instanceof NoSuchFileException) {
      return "no such file or directory";
    }
    if (e instanceof FileSystemException fs && fs.getReason() != null) {
      return fs.getReason();
    }
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }

  private static CliException refused(String message) {
    return new CliException(ErrorCode.INVALID_ARGUMENT, message);
  }
}
