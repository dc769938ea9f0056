package io.eventtime.cli;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * SIGINT and SIGTERM during a live run: the first signal stops the source, and the run ends as if
 * its input had ended (the row in hand finished, the window rows and the late and rejected files
 * written, the state stored when there is one, the stats line printed), with the run's own exit
 * status (0 after a clean stop). The signal is handled, not left to the JVM's shutdown: shutdown
 * hooks would run beside the stop, and an embedded engine's hooks (Flink's) tear the engine down
 * while the stopped job still drains. A second signal ends the process the JVM's way at once.
 */
public final class StopSignal {
  private static final Set<Runnable> WATCHED = ConcurrentHashMap.newKeySet();
  private static final AtomicBoolean STOPPING = new AtomicBoolean();
  private static SignalHandler jvmInt;
  private static SignalHandler jvmTerm;
  private static boolean installed;

  private StopSignal() {}

  /** What {@link #onStop} returns: closing it ends the watch (the run is over). */
  public interface Watch extends AutoCloseable {
    @Override
    void close();
  }

  /** Runs {@code stop} on the first stop signal until the returned handle is closed (when the run ends). */
  public static Watch onStop(Runnable stop) {
    install();
    Runnable watched = stop::run; // an object of its own, so that the same stop may be watched twice
    WATCHED.add(watched);
    return () -> WATCHED.remove(watched);
  }

  private static synchronized void install() {
    if (installed) {
      return;
    }
    installed = true;
    try {
      jvmInt = Signal.handle(new Signal("INT"), StopSignal::signalled);
      jvmTerm = Signal.handle(new Signal("TERM"), StopSignal::signalled);
    } catch (IllegalArgumentException reserved) {
      // the JVM keeps the signals (-Xrs): a signal ends the process, and a state stays as last committed
    }
  }

  private static void signalled(Signal signal) {
    List<Runnable> stops = List.copyOf(WATCHED);
    if (!stops.isEmpty() && !STOPPING.getAndSet(true)) {
      stops.forEach(Runnable::run);
      return;
    }
    // no run to stop, or a second signal: the JVM's own way (its shutdown hooks, then the exit)
    SignalHandler jvm = signal.getName().equals("INT") ? jvmInt : jvmTerm;
    try {
      jvm.handle(signal);
    } catch (UnsupportedOperationException nativeHandler) {
      System.exit(128 + signal.getNumber());
    }
  }
}
