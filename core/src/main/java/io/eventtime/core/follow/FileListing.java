package io.eventtime.core.follow;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.List;

/**
 * The files a followed source reads, listed anew each time new files may have landed, in any
 * order ({@link FollowedFiles} reads them in name order). {@link #of(Path)} lists a file, every
 * file of a folder, or the files of a folder a glob on the file name matches ({@code in/*.ndjson});
 * files whose names start with '.' (a writer's temporary files) are never listed, nor followed
 * when another listing gives them.
 *
 * <pre>{@code
 * FileListing listing = FileListing.of(Path.of("in/*.ndjson"));
 * List<Path> now = listing.list(); // in/b.ndjson, in/a.ndjson, ...
 * }</pre>
 */
@FunctionalInterface
public interface FileListing {
  /** The files there now (in any order: they are read in name order). */
  List<Path> list() throws IOException;

  /** Whether {@code file} is a writer's temporary file, never followed: its name starts with '.'. */
  static boolean isTemporary(Path file) {
    Path name = file.getFileName();
    return name != null && name.toString().startsWith(".");
  }

  /** Whether the last part of {@code path} is a glob ({@code *}, {@code ?}, {@code [..]} or {@code {..}}). */
  static boolean isPattern(Path path) {
    Path name = path.getFileName();
    return name != null && name.toString().matches(".*[*?\\[{].*");
  }

  /**
   * The listing of {@code path}: a glob on the file names of its folder, a folder's files, or one
   * file (listed once it exists). The folder of a glob, and a folder, must exist when listed.
   */
  static FileListing of(Path path) {
    if (isPattern(path)) {
      Path folder = path.getParent() == null ? Path.of(".") : path.getParent();
      PathMatcher glob = folder.getFileSystem().getPathMatcher("glob:" + path.getFileName());
      return () -> filesOf(folder, glob);
    }
    return () -> {
      if (Files.isDirectory(path)) {
        return filesOf(path, name -> true);
      }
      return Files.exists(path) ? List.of(path) : List.of();
    };
  }

  private static List<Path> filesOf(Path folder, PathMatcher names) throws IOException {
    List<Path> files = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(folder)) {
      for (Path entry : entries) {
        if (!isTemporary(entry) && names.matches(entry.getFileName()) && Files.isRegularFile(entry)) {
          files.add(entry);
        }
      }
    } catch (NoSuchFileException e) {
      throw new NoSuchFileException(folder.toString(), null, "there is no folder " + folder);
    }
    return files;
  }
}
