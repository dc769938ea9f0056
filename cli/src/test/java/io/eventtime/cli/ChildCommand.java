package io.eventtime.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * The command in a child JVM on the test class path, for the tests that send it signals, kill it
 * or feed it while it runs, and its stdout read line by line as it comes.
 */
final class ChildCommand {
  private ChildCommand() {}

  /** Starts {@code eventtime ARGS}, its stderr sent to {@code stderr}, with the JVM options given. */
  static Process start(List<String> args, ProcessBuilder.Redirect stderr, String... jvmOptions) throws IOException {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m", "-cp", System.getProperty("java.class.path")));
    command.addAll(List.of(jvmOptions));
    command.add(Main.class.getName());
    command.addAll(args);
    return new ProcessBuilder(command).redirectError(stderr).start();
  }

  /** The process's stdout lines as they come, read on a daemon thread. */
  static BlockingQueue<String> lines(Process p) {
    BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    Thread t = new Thread(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = r.readLine()) != null) {
          lines.add(line);
        }
      } catch (IOException e) {
        // the process ended
      }
    });
    t.setDaemon(true);
    t.start();
    return lines;
  }
}
