package io.eventtime.cli;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * SIGINT and SIGTERM during a live run: a shutdown hook stops the source, lets the run end as if
 * its input had ended (the row in hand finished, the window rows and the late and rejected files
 * written, the state stored when there is one, the stats line printed), and then ends the process
 * with the run's own exit status (0 after a clean stop), not the signal's.
 */
final class StopSignal {
  /** How long the hook waits for the run to end before the JVM exits anyway. */
  private static final long GRACE_SECONDS = 60;
  private static final CountDownLatch EXITING = new CountDownLatch(1);
  private static volatile int exitStatus;

  private StopSignal() {}

  /** Called by {@code main} once the command has returned, just before it exits. */
  static void exiting(int status) {
    exitStatus = status;
    EXITING.countDown();
  }

  /** What {@link #onStop} returns: closing it ends the watch (the run is over). */
  interface Watch extends AutoCloseable {
    @Override
    void close();
  }

  /** Runs {@code stop} on a stop signal until the returned handle is closed (when the run ends). */
  static Watch onStop(Runnable stop) {
    Thread hook = new Thread(() -> {
      stop.run();
      try {
        if (EXITING.await(GRACE_SECONDS, TimeUnit.SECONDS)) {
          System.err.flush();
          Runtime.getRuntime().halt(exitStatus); // the run's status: the signal's would say it failed
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "eventtime-stop");
    Runtime.getRuntime().addShutdownHook(hook);
    return () -> {
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException shuttingDown) {
        // the signal came: the hook is running and ends the process with the run's status
      }
    };
  }
}
