package io.eventtime.hop;

import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hop.core.HopEnvironment;
import org.apache.hop.core.exception.HopException;
import org.apache.hop.core.row.IRowMeta;
import org.apache.hop.core.row.RowMeta;
import org.apache.hop.core.row.value.ValueMetaString;

/** Starts Hop once per test JVM, its config folder under target/, with our plugins found on the class path. */
public final class HopTestEnvironment {
  private HopTestEnvironment() {}

  public static synchronized void init() {
    try {
      Path config = Path.of(System.getProperty("HOP_CONFIG_FOLDER", "target/hop-config"));
      Files.createDirectories(config);
      System.setProperty("HOP_CONFIG_FOLDER", config.toAbsolutePath().toString());
      HopEnvironment.init();
    } catch (HopException | java.io.IOException e) {
      throw new IllegalStateException("cannot start Hop for the tests: " + e.getMessage(), e);
    }
  }

  /** The input layout most refusal tests give a transform: one String field, event_time. */
  public static IRowMeta eventTimeLayout() {
    IRowMeta m = new RowMeta();
    m.addValueMeta(new ValueMetaString("event_time"));
    return m;
  }
}
