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
    int status = cli.execute(args);
    text.flush();
    return status;
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
