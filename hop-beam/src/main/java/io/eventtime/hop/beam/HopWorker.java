package io.eventtime.hop.beam;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hop.core.HopEnvironment;
import org.apache.hop.core.exception.HopException;

/**
 * Starts Hop once in a JVM that runs translated steps: a Flink task manager or a Spark executor
 * has not started it. Plugins (Hop's value types, our transforms, any other transform on the
 * class path) are found through the jandex indexes of the jars.
 */
final class HopWorker {
  static final String CONFIG_FOLDER = "HOP_CONFIG_FOLDER";

  private HopWorker() {}

  static synchronized void init() {
    if (HopEnvironment.isInitialized()) {
      return;
    }
    try {
      if (System.getProperty(CONFIG_FOLDER) == null && System.getenv(CONFIG_FOLDER) == null) {
        // Hop wants a config folder; a worker keeps nothing in it
        Path folder = Files.createTempDirectory("eventtime-hop-config");
        System.setProperty(CONFIG_FOLDER, folder.toString());
      }
      HopEnvironment.init();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot make a Hop config folder on this worker: " + e.getMessage(), e);
    } catch (HopException e) {
      throw new IllegalStateException("cannot start Hop on this worker: " + e.getMessage(), e);
    }
  }
}
