package io.eventtime.cli;

import io.eventtime.cli.output.ResultWriter;
import java.io.BufferedOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;

/** The entry point of the {@code eventtime} command. */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    OutputStream out = new BufferedOutputStream(System.out, 1 << 16);
    int status = run(args, out, System.err);
    System.exit(status);
  }

  /**
   * Runs the command with its results and error line written to {@code out} and diagnostics to
   * {@code err}; returns the exit status.
   */
  public static int run(String[] args, OutputStream out, PrintStream err) {
    CommandLine cli = new CommandLine(new EventtimeCommand(out, err));
    PrintWriter text = new PrintWriter(new java.io.OutputStreamWriter(out, StandardCharsets.UTF_8), true);
    cli.setOut(text);
    cli.setErr(new PrintWriter(err, true));
    cli.setParameterExceptionHandler((e, a) -> {
      String message = e.getMessage();
      ResultWriter.writeError(out, ErrorCode.INVALID_ARGUMENT,
          message + (message.endsWith(".") ? "" : ".") + " Run eventtime --help for the flags and examples");
      return ErrorCode.INVALID_ARGUMENT.exitStatus();
    });
    cli.setExecutionExceptionHandler((e, c, parsed) -> {
      if (e instanceof CliException ce) {
        ResultWriter.writeError(out, ce.code(), ce.getMessage());
        return ce.code().exitStatus();
      }
      ResultWriter.writeError(out, ErrorCode.INTERNAL_ERROR, "unexpected " + e + " (please report it)");
      e.printStackTrace(err);
      return ErrorCode.INTERNAL_ERROR.exitStatus();
    });
    int status = cli.execute(queriesNotFlags(args));
    text.flush();
    return status;
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
