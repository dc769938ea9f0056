package io.eventtime.benchmarks.flink;

import io.eventtime.testing.kafka.KafkaBroker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;

/**
 * The broker JVM of the benchmark: starts the test broker ({@code testing/kafka-broker}), creates
 * a one-partition topic, produces {@link LiveEvents} into it once, writes {@code broker.properties}
 * (address, topic, event count) into the folder, and serves the topic until a file {@code stop}
 * appears there. The broker runs apart from the jobs so that a job JVM's CPU time is the job's.
 *
 * <pre>{@code
 * java -cp ... io.eventtime.benchmarks.flink.LiveTopic 1000000 /tmp/bench &
 * }</pre>
 */
public final class LiveTopic {
  static final String TOPIC = "live-bench";
  static final String PROPERTIES = "broker.properties";
  private static final int BATCH = 10_000;

  private LiveTopic() {}

  public static void main(String[] args) throws IOException, InterruptedException {
    if (args.length != 2) {
      System.err.println("usage: LiveTopic <events> <folder>");
      System.exit(2);
    }
    int events = Integer.parseInt(args[0]);
    Path folder = Files.createDirectories(Path.of(args[1]));
    Files.deleteIfExists(folder.resolve("stop"));
    LiveEvents topic = LiveEvents.of(events);
    try (KafkaBroker broker = KafkaBroker.start()) {
      broker.createTopic(TOPIC, 1);
      long started = System.nanoTime();
      for (int from = 0; from < topic.records(); from += BATCH) {
        byte[][] values = new byte[Math.min(BATCH, topic.records() - from)][];
        for (int i = 0; i < values.length; i++) {
          values[i] = topic.value(from + i);
        }
        broker.produce(TOPIC, 0, values);
      }
      Map<Integer, Long> end = broker.endOffsets(TOPIC);
      if (end.get(0) != topic.records()) {
        throw new IllegalStateException("the topic ends at offset " + end.get(0) + ", not " + topic.records());
      }
      System.err.printf("produced %,d records into %s in %.1f s%n", topic.records(), TOPIC,
          (System.nanoTime() - started) / 1e9);
      Properties p = new Properties();
      p.setProperty("bootstrap.servers", broker.bootstrapServers());
      p.setProperty("topic", TOPIC);
      p.setProperty("events", String.valueOf(events));
      Path tmp = folder.resolve(PROPERTIES + ".tmp");
      try (var out = Files.newBufferedWriter(tmp)) {
        p.store(out, "the benchmark's topic");
      }
      Files.move(tmp, folder.resolve(PROPERTIES), java.nio.file.StandardCopyOption.ATOMIC_MOVE,
          java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      while (!Files.exists(folder.resolve("stop"))) {
        Thread.sleep(200);
      }
      Files.delete(folder.resolve(PROPERTIES));
    }
  }
}
