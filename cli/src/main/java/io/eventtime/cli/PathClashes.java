package io.eventtime.cli;

import io.eventtime.cli.output.OutputFile;
import io.eventtime.cli.source.SourceFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Refuses, before the run opens anything, a file the run would write over that it also reads or
 * writes otherwise: an output that is an input, an output in the state directory, one file for
 * both outputs, and an input in the state directory (whose files a run replaces). Paths are
 * compared by their real paths, so neither a link nor {@code ./} hides a clash.
 */
final class PathClashes {
  private PathClashes() {}

  /** Any of {@code stateDir}, {@code rows} (--output), {@code late} and {@code rejected} may be null. */
  static void refuse(List<SourceFile> inputs, Path stateDir, OutputFile rows, OutputFile late, OutputFile rejected) {
    Path state = stateDir == null ? null : real(stateDir, "--state " + stateDir);
    List<OutputFile> outputs = new ArrayList<>();
    for (OutputFile o : new OutputFile[] {rows, late, rejected}) {
      if (o == null) {
        continue;
      }
      for (OutputFile other : outputs) {
        if (other.target().equals(o.target())) {
          throw refused(other.described() + " and " + o.described() + " name one file, " + o.target()
              + ": give each its own file");
        }
      }
      outputs.add(o);
    }
    for (SourceFile input : inputs) {
      if (!Files.isRegularFile(input.file())) {
        continue; // a pipe such as /dev/stdin has no real path, and no output or state file can be it
      }
      Path in = real(input.file(), "--from " + input.uri());
      for (OutputFile out : outputs) {
        if (out.target().equals(in)) {
          throw refused(out.described() + " is the input --from " + input.uri() + " (both are " + in + "): writing"
              + " it would destroy the input; name another file");
        }
      }
      if (state != null && in.equals(state)) {
        throw refused("--state " + stateDir + " is the input --from " + input.uri() + ": give a directory for the state");
      }
      if (state != null && in.startsWith(state)) {
        throw refused("--from " + input.uri() + " is in the state directory " + state + ", whose files each run"
            + " replaces: move the input out of it, or give another --state");
      }
    }
    for (OutputFile out : outputs) {
      if (state != null && out.target().startsWith(state)) {
        throw refused(out.described() + (out.target().equals(state) ? " is the state directory " : " is in the state"
            + " directory ") + state + ", which is for the state's own files: name a file outside it");
      }
    }
  }

  private static Path real(Path path, String described) {
    try {
      return OutputFile.realPath(path);
    } catch (IOException e) {
      throw refused(described + ": cannot resolve the path (" + OutputFile.reason(e) + ")");
    }
  }

  private static CliException refused(String message) {
    return new CliException(ErrorCode.INVALID_ARGUMENT, message);
  }
}
