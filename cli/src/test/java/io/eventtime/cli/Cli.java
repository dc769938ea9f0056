package io.eventtime.cli;

import io.eventtime.cli.output.FileSink;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Runs the command in-process and keeps what it printed. */
public record Cli(int status, List<String> out, String err) {

  public static Cli run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = Main.run(args, out, new PrintStream(err, true, StandardCharsets.UTF_8));
    return of(status, out.toByteArray(), err);
  }

  /** Runs the command with stdout going to {@code out} and the late and rejected files made by {@code files}. */
  static Cli run(Faults.FailingStream out, FileSink files, String... args) {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = Main.run(args, out, new PrintStream(err, true, StandardCharsets.UTF_8), files);
    return of(status, out.taken(), err);
  }

  private static Cli of(int status, byte[] out, ByteArrayOutputStream err) {
    String text = new String(out, StandardCharsets.UTF_8);
    List<String> lines = text.isEmpty() ? List.of() : Arrays.asList(text.split("\n", -1));
    if (!lines.isEmpty() && lines.get(lines.size() - 1).isEmpty()) {
      lines = lines.subList(0, lines.size() - 1);
    }
    return new Cli(status, new ArrayList<>(lines), err.toString(StandardCharsets.UTF_8));
  }

  /** The result rows: every line but the last (the stats or the error). */
  List<String> rows() {
    return out.subList(0, out.size() - 1);
  }

  String last() {
    return out.get(out.size() - 1);
  }

  public static Path write(Path dir, String name, String... lines) {
    try {
      Path f = dir.resolve(name);
      Files.writeString(f, lines.length == 0 ? "" : String.join("\n", lines) + "\n");
      return f;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static String error(String code, String message) {
    return "{\"error\":{\"code\":\"" + code + "\",\"message\":\"" + message.replace("\\", "\\\\").replace("\"", "\\\"") + "\"}}";
  }

  static String stats(long in, long out, long late, long windows, long folded, long rejected) {
    return "{\"stats\":{\"rows_in\":" + in + ",\"rows_out\":" + out + ",\"late_dropped\":" + late + ",\"windows_closed\":"
        + windows + ",\"rows_folded\":" + folded + ",\"rows_rejected\":" + rejected + "}}";
  }
}
