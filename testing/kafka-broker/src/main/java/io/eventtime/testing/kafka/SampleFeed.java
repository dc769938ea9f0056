package io.eventtime.testing.kafka;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * A broker for the live sample (scripts/live-sample.sh): starts a {@link KafkaBroker}, creates a
 * one-partition topic, prints {@code bootstrap.servers=127.0.0.1:PORT}, then produces one order
 * after another at a steady rate until it is stopped. The orders are {@link #value(long)}: three
 * merchants, event times 5 s apart, every tenth order three minutes behind (a late row for a
 * window with a delay under three minutes).
 *
 * <pre>
 * java io.eventtime.testing.kafka.SampleFeed [orders per second (5)] [topic (orders)]
 * </pre>
 */
public final class SampleFeed {
  public static final String TOPIC = "orders";
  /** The event time of the first order. */
  public static final Instant START = Instant.parse("2026-07-18T10:00:00Z");
  private static final String[] MERCHANTS = {"acme", "globex", "initech"};
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss'Z'").withZone(ZoneOffset.UTC);

  private SampleFeed() {}

  /** The order at {@code offset}: its merchant. */
  public static String merchant(long offset) {
    return MERCHANTS[(int) (offset % MERCHANTS.length)];
  }

  /** The order at {@code offset}: its amount. */
  public static long amount(long offset) {
    return offset * 37 % 500 + 1;
  }

  /** The order at {@code offset}: its event time, 5 s after the one before, or three minutes behind for every tenth. */
  public static Instant eventTime(long offset) {
    Instant t = START.plusSeconds(5 * offset);
    return offset % 10 == 9 ? t.minusSeconds(180) : t;
  }

  /** The order at {@code offset} as the JSON value produced. */
  public static String value(long offset) {
    return "{\"merchant\":\"" + merchant(offset) + "\",\"amount\":" + amount(offset) + ",\"event_time\":\""
        + TIME.format(eventTime(offset)) + "\"}";
  }

  public static void main(String[] args) throws InterruptedException {
    double perSecond = args.length > 0 ? Double.parseDouble(args[0]) : 5;
    String topic = args.length > 1 ? args[1] : TOPIC;
    if (!(perSecond > 0)) {
      throw new IllegalArgumentException("orders per second must be a positive number, not " + args[0]);
    }
    KafkaBroker broker = KafkaBroker.start();
    Runtime.getRuntime().addShutdownHook(new Thread(broker::close));
    broker.createTopic(topic, 1);
    System.out.println("bootstrap.servers=" + broker.bootstrapServers());
    System.out.println("topic=" + topic);
    System.out.flush();
    long pauseMillis = Math.round(1000 / perSecond);
    for (long offset = 0; ; offset++) {
      broker.produce(topic, 0, value(offset));
      Thread.sleep(pauseMillis);
    }
  }
}
