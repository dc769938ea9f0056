package io.eventtime.testing.kafka;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One {@link KafkaBroker} for a test class: started before its first test, closed after its last.
 *
 * <pre>{@code
 * @RegisterExtension
 * static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();
 * ... KAFKA.broker().createTopic("orders", 3);
 * }</pre>
 */
public final class KafkaBrokerExtension implements BeforeAllCallback, AfterAllCallback {
  private KafkaBroker broker;

  @Override
  public void beforeAll(ExtensionContext context) {
    broker = KafkaBroker.start();
  }

  @Override
  public void afterAll(ExtensionContext context) {
    broker.close();
  }

  /** The running broker. */
  public KafkaBroker broker() {
    if (broker == null) {
      throw new IllegalStateException("the broker starts before the class's first test: register this extension"
          + " in a static field with @RegisterExtension");
    }
    return broker;
  }
}
