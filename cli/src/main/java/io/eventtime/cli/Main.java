package io.eventtime.cli;

import io.eventtime.cli.output.FileSink;
import io.eventtime.cli.output.ResultWriter;
import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;

/** The entry point of the {@code eventtime} command. */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    // stdout itself, not System.out: a PrintStream swallows write errors (a full disk, a closed pipe)
    OutputStream out = new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16);
    System.exit(run(args, out, System.err));
  }

  /**
   * Runs the command with its results and error line written to {@code out} and diagnostics to
   * {@code err}; returns the exit status.
   */
  public static int run(String[] args, OutputStream out, PrintStream err) {
    return run(args, out, err, FileSink.DISK);
  }

  /**
   * As {@link #run(String[], OutputStream, PrintStream)}, with the late and rejected files created
   * by {@code files}. An error line that {@code out} cannot take (it is what failed) goes to
   * {@code err}.
   */
  public static int run(String[] args, OutputStream out, PrintStream err, FileSink files) {
    CommandLine cli = new CommandLine(new EventtimeCommand(out, err, files));
    PrintWriter text = new PrintWriter(new java.io.OutputStreamWriter(out, StandardCharsets.UTF_8), true);
    cli.setOut(text);
    cli.setErr(new PrintWriter(err, true));
    cli.setParameterExceptionHandler((e, a) -> {
      String message = e.getMessage();
      return error(out, err, ErrorCode.INVALID_ARGUMENT,
          message + (message.endsWith(".") ? "" : ".") + " Run eventtime --help for the flags and examples");
    });
    cli.setExecutionExceptionHandler((e, c, parsed) -> {
      if (e instanceof CliException ce) {
        return error(out, err, ce.code(), ce.getMessage());
      }
      int status = error(out, err, ErrorCode.INTERNAL_ERROR, "unexpected " + e + " (please report it)");
      e.printStackTrace(err);
      return status;
    });
    int status = cli.execute(queriesNotFlags(args));
    text.flush();
    if (status == 0 && text.checkError()) { // --help or --version could not be printed
      return error(out, err, ErrorCode.IO_ERROR, "cannot write the help or version text to stdout");
    }
    return status;
  }

  private static int error(OutputStream out, PrintStream err, ErrorCode code, String message) {
    if (!ResultWriter.writeError(out, code, message)) {
      err.println(ResultWriter.errorLine(code, message));
    }
    return code.exitStatus();
  }

  /**
   * A query that starts with a {@code --} comment looks like a flag to picocli. A flag's name has
   * no blanks, so an argument that starts with {@code --} and has a blank before any {@code =} is
   * the query: it is passed on behind a space, which SQL skips.
   */
  static String[] queriesNotFlags(String[] args) {
    String[] out = args.clone();
    for (int i = 0; i < out.length; i++) {
      String a = out[i];
      int name = a.indexOf('=') < 0 ? a.length() : a.indexOf('=');
      if (a.startsWith("--") && a.substring(0, name).chars().anyMatch(Character::isWhitespace)) {
        out[i] = " " + a;
      }
    }
    return out;
  }

  /** The version, from the jar's manifest. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String v = Main.class.getPackage().getImplementationVersion();
      return new String[] {"eventtime " + (v == null ? "(development build)" : v)};
    }
  }
}
