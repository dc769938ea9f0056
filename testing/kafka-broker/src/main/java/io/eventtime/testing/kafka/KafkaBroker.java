package io.eventtime.testing.kafka;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.tools.StorageTool;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.server.common.MetadataVersion;
import scala.jdk.javaapi.CollectionConverters;

/**
 * A single-node Kafka broker for tests: KRaft mode (broker and controller in one server), on
 * 127.0.0.1, in this JVM, with its log in a temporary folder. Settings are the fast ones for a
 * test: one replica everywhere, small segments, no initial rebalance delay for consumer groups,
 * and topics are never created by a client's request (create them with {@link #createTopic}).
 *
 * <pre>{@code
 * try (KafkaBroker broker = KafkaBroker.start()) {
 *   broker.createTopic("events", 3);
 *   long offset = broker.produce("events", 0, "{\"ts\":\"2024-01-01T00:00:00Z\"}").get(0);
 *   read(broker.bootstrapServers(), "events");
 * }
 * }</pre>
 *
 * <p>{@link #stop()} shuts the server down and keeps its log; {@link #restart()} starts it again
 * on the same ports and log, so a client sees the broker go away and come back with its topics
 * and records. {@link #close()} stops it and deletes the folder. Start the broker once per test
 * class: a start takes several seconds.
 */
public final class KafkaBroker implements AutoCloseable {
  /** How long a start may take before it is given up with an error. */
  public static final Duration START_TIMEOUT = Duration.ofSeconds(60);
  /** How long a produce, a topic creation or an offset query may take. */
  public static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

  private static final int NODE_ID = 1;

  private final Path folder;
  private final int brokerPort;
  private final int controllerPort;
  private final String clusterId = Uuid.randomUuid().toString();
  private KafkaRaftServer server;
  private Admin admin;
  private KafkaProducer<byte[], byte[]> producer;

  private KafkaBroker(Path folder, int brokerPort, int controllerPort) {
    this.folder = folder;
    this.brokerPort = brokerPort;
    this.controllerPort = controllerPort;
  }

  /** Starts a broker on free ports of 127.0.0.1, with its log in a new temporary folder. */
  public static KafkaBroker start() {
    Path folder;
    try {
      folder = Files.createTempDirectory("eventtime-kafka-");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a folder for the test broker's log: " + e.getMessage(), e);
    }
    int[] ports = freePorts(2);
    KafkaBroker broker = new KafkaBroker(folder, ports[0], ports[1]);
    try {
      broker.format();
      broker.startServer();
    } catch (RuntimeException e) {
      broker.close();
      throw e;
    }
    return broker;
  }

  /** The address clients connect to: {@code 127.0.0.1:PORT}. */
  public String bootstrapServers() {
    return "127.0.0.1:" + brokerPort;
  }

  /** Whether the server is running (between a start and a {@link #stop()}). */
  public boolean isRunning() {
    return server != null;
  }

  /** Creates a topic with {@code partitions} partitions and one replica, and waits until it is ready. */
  public void createTopic(String topic, int partitions) {
    requireRunning();
    await("create topic " + topic, admin().createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all());
    // a topic is created in the controller before the broker serves it: wait until its partitions have a leader
    long deadline = System.nanoTime() + REQUEST_TIMEOUT.toNanos();
    while (true) {
      if (isServed(topic, partitions) && isWritable(topic, partitions)) {
        // a producer that had metadata before the topic existed can wait out its delivery timeout on
        // the new topic's partitions (seen under Kafka 3.7): the next produce starts a fresh one
        closeProducer();
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("topic " + topic + " has no leader for every partition after " + REQUEST_TIMEOUT);
      }
      sleep(50);
    }
  }

  private boolean isServed(String topic, int partitions) {
    try {
      TopicDescription d = admin().describeTopics(List.of(topic)).allTopicNames()
          .get(REQUEST_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).get(topic);
      return d.partitions().size() == partitions && d.partitions().stream().allMatch(p -> p.leader() != null);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof UnknownTopicOrPartitionException) {
        return false;
      }
      throw new IllegalStateException("cannot describe topic " + topic + " on the test broker at " + bootstrapServers() + ": "
          + e.getCause().getMessage(), e.getCause());
    } catch (TimeoutException e) {
      throw new IllegalStateException("cannot describe topic " + topic + " on the test broker at " + bootstrapServers()
          + ": no answer within " + REQUEST_TIMEOUT, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for topic " + topic, e);
    }
  }

  /** Whether every partition's leader answers for its log (the leader in the metadata may not have opened it yet). */
  private boolean isWritable(String topic, int partitions) {
    Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
    for (int p = 0; p < partitions; p++) {
      latest.put(new TopicPartition(topic, p), OffsetSpec.latest());
    }
    try {
      admin().listOffsets(latest).all().get(REQUEST_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      return true;
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RetriableException) {
        return false;
      }
      throw new IllegalStateException("cannot list the offsets of topic " + topic + " on the test broker at "
          + bootstrapServers() + ": " + e.getCause().getMessage(), e.getCause());
    } catch (TimeoutException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for topic " + topic, e);
    }
  }

  /**
   * Writes {@code values} (UTF-8 text) to one partition of a topic, in order, each acknowledged
   * before this returns, and returns their offsets.
   */
  public List<Long> produce(String topic, int partition, String... values) {
    byte[][] bytes = new byte[values.length][];
    for (int i = 0; i < values.length; i++) {
      bytes[i] = values[i] == null ? null : values[i].getBytes(StandardCharsets.UTF_8);
    }
    return produce(topic, partition, bytes);
  }

  /** Writes {@code values} as they are (null: a record without a value), as {@link #produce(String, int, String...)}. */
  public List<Long> produce(String topic, int partition, byte[]... values) {
    requireRunning();
    List<java.util.concurrent.Future<RecordMetadata>> sent = new ArrayList<>();
    for (byte[] v : values) {
      sent.add(producer().send(new ProducerRecord<>(topic, partition, null, v)));
    }
    producer().flush();
    List<Long> offsets = new ArrayList<>();
    for (java.util.concurrent.Future<RecordMetadata> f : sent) {
      offsets.add(await("produce to " + topic + "-" + partition, f).offset());
    }
    return offsets;
  }

  /** The end offset of each partition of a topic (the offset the next record will get), by partition. */
  public Map<Integer, Long> endOffsets(String topic) {
    requireRunning();
    TopicDescription d = await("describe topic " + topic, admin().describeTopics(List.of(topic)).allTopicNames()).get(topic);
    Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
    d.partitions().forEach(p -> latest.put(new TopicPartition(topic, p.partition()), OffsetSpec.latest()));
    Map<Integer, Long> ends = new TreeMap<>();
    await("list the offsets of " + topic, admin().listOffsets(latest).all())
        .forEach((tp, info) -> ends.put(tp.partition(), info.offset()));
    return ends;
  }

  /** The offsets consumer group {@code group} has committed for {@code topic}, by partition: none for a partition without one. */
  public Map<Integer, Long> committedOffsets(String group, String topic) {
    requireRunning();
    Map<Integer, Long> committed = new TreeMap<>();
    await("list the offsets of group " + group, admin().listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata())
        .forEach((tp, o) -> {
          if (tp.topic().equals(topic) && o != null) {
            committed.put(tp.partition(), o.offset());
          }
        });
    return committed;
  }

  /** Shuts the server down, keeping its log and ports, so that {@link #restart()} brings it back. */
  public void stop() {
    closeClients();
    if (server != null) {
      server.shutdown();
      server.awaitShutdown();
      server = null;
    }
  }

  /** Starts a {@link #stop() stopped} server again on the same ports, with the topics and records it had. */
  public void restart() {
    if (server != null) {
      throw new IllegalStateException("the test broker at " + bootstrapServers() + " is running: stop it first");
    }
    startServer();
  }

  /** Stops the server and deletes its log. */
  @Override
  public void close() {
    try {
      stop();
    } finally {
      deleteFolder();
    }
  }

  private Map<String, Object> config() {
    Map<String, Object> c = new HashMap<>();
    c.put("process.roles", "broker,controller");
    c.put("node.id", String.valueOf(NODE_ID));
    c.put("controller.quorum.voters", NODE_ID + "@127.0.0.1:" + controllerPort);
    c.put("listeners", "PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort);
    c.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + brokerPort);
    c.put("controller.listener.names", "CONTROLLER");
    c.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
    c.put("inter.broker.listener.name", "PLAINTEXT");
    c.put("log.dirs", folder.resolve("log").toString());
    c.put("auto.create.topics.enable", "false");
    c.put("num.partitions", "1");
    c.put("default.replication.factor", "1");
    c.put("offsets.topic.replication.factor", "1");
    c.put("offsets.topic.num.partitions", "1");
    c.put("transaction.state.log.replication.factor", "1");
    c.put("transaction.state.log.min.isr", "1");
    c.put("transaction.state.log.num.partitions", "1");
    c.put("group.initial.rebalance.delay.ms", "0");
    c.put("log.segment.bytes", String.valueOf(1 << 20));
    c.put("log.cleaner.enable", "false");
    c.put("num.network.threads", "1");
    c.put("num.io.threads", "2");
    c.put("background.threads", "2");
    c.put("log.flush.interval.messages", String.valueOf(Long.MAX_VALUE));
    // a stopped broker must shut down at once, not wait for a controlled shutdown that has no one to hand over to
    c.put("controlled.shutdown.enable", "false");
    return c;
  }

  private void format() {
    KafkaConfig config = new KafkaConfig(config(), false);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int code = StorageTool.formatCommand(new PrintStream(out, true, StandardCharsets.UTF_8),
        CollectionConverters.asScala(List.of(folder.resolve("log").toString())).toSeq(),
        StorageTool.buildMetadataProperties(clusterId, config), MetadataVersion.LATEST_PRODUCTION, false);
    if (code != 0) {
      throw new IllegalStateException("cannot format the test broker's log in " + folder + ": "
          + out.toString(StandardCharsets.UTF_8));
    }
  }

  private void startServer() {
    KafkaRaftServer started = new KafkaRaftServer(new KafkaConfig(config(), false), Time.SYSTEM);
    started.startup();
    server = started;
    awaitReady();
  }

  /** Waits until the broker answers a client, or stops it and says why it did not. */
  private void awaitReady() {
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    Exception last = null;
    while (System.nanoTime() < deadline) {
      try {
        if (!admin().describeCluster().nodes().get(5, TimeUnit.SECONDS).isEmpty()) {
          return;
        }
      } catch (ExecutionException | TimeoutException e) {
        last = e;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
      sleep(100);
    }
    stop();
    throw new IllegalStateException("the test broker at " + bootstrapServers() + " did not start within " + START_TIMEOUT
        + (last == null ? "" : ": " + last.getMessage()), last);
  }

  private Admin admin() {
    if (admin == null) {
      Properties p = new Properties();
      p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
      p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) REQUEST_TIMEOUT.toMillis());
      p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) REQUEST_TIMEOUT.toMillis());
      admin = Admin.create(p);
    }
    return admin;
  }

  private KafkaProducer<byte[], byte[]> producer() {
    if (producer == null) {
      Properties p = new Properties();
      p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
      p.put(ProducerConfig.ACKS_CONFIG, "all");
      p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
      p.put(ProducerConfig.LINGER_MS_CONFIG, 0);
      p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) REQUEST_TIMEOUT.toMillis());
      p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) REQUEST_TIMEOUT.toMillis());
      producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
    }
    return producer;
  }

  private void closeProducer() {
    if (producer != null) {
      producer.close(Duration.ZERO);
      producer = null;
    }
  }

  private void closeClients() {
    closeProducer();
    if (admin != null) {
      admin.close(Duration.ZERO);
      admin = null;
    }
  }

  private void requireRunning() {
    if (server == null) {
      throw new IllegalStateException("the test broker at " + bootstrapServers() + " is stopped: restart it first");
    }
  }

  private <T> T await(String what, java.util.concurrent.Future<T> f) {
    try {
      return f.get(REQUEST_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw new IllegalStateException("cannot " + what + " on the test broker at " + bootstrapServers() + ": "
          + e.getCause().getMessage(), e.getCause());
    } catch (TimeoutException e) {
      throw new IllegalStateException("cannot " + what + " on the test broker at " + bootstrapServers() + ": no answer within "
          + REQUEST_TIMEOUT, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting to " + what, e);
    }
  }

  private void deleteFolder() {
    if (!Files.exists(folder)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(folder)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete the test broker's folder " + folder + ": " + e.getMessage(), e);
    }
  }

  /** Ports free on 127.0.0.1 now (the server binds them a moment later; a test machine rarely takes one meanwhile). */
  private static int[] freePorts(int count) {
    List<ServerSocket> sockets = new ArrayList<>();
    try {
      int[] ports = new int[count];
      for (int i = 0; i < count; i++) {
        ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        s.setReuseAddress(true);
        sockets.add(s);
        ports[i] = s.getLocalPort();
      }
      return ports;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot find a free port on 127.0.0.1 for the test broker: " + e.getMessage(), e);
    } finally {
      for (ServerSocket s : sockets) {
        try {
          s.close();
        } catch (IOException ignored) {
          // the port was only looked at
        }
      }
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for the test broker", e);
    }
  }
}
