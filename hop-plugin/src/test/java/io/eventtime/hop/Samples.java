package io.eventtime.hop;

import java.nio.file.Files;
import java.nio.file.Path;

/** Where the sample pipelines of samples/hop/ are, from the module's folder. */
public final class Samples {
  private Samples() {}

  public static Path folder() {
    Path p = Path.of("../samples/hop");
    if (!Files.isDirectory(p)) {
      throw new IllegalStateException("samples/hop not found from " + Path.of("").toAbsolutePath());
    }
    return p.toAbsolutePath().normalize();
  }

  public static Path pipeline(String name) {
    return folder().resolve(name);
  }
}
