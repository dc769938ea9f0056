package io.eventtime.cli.source;

import io.eventtime.cli.CliException;
import io.eventtime.cli.ErrorCode;
import io.eventtime.core.OpenState;
import io.eventtime.core.state.StateSource;
import java.io.Closeable;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * A {@code --from kafka://HOST:PORT/TOPIC} source: every partition of the topic, assigned to one
 * consumer (no group rebalancing: this run reads them all), each a partition of the contract
 * (Kafka partition {@code p} is partition {@code p}), its record values given as lines with the
 * offset as the line number. Reads {@code read_committed} unless told otherwise, so that rows of
 * aborted transactions never count.
 *
 * <p>Each partition starts at the offset the state stored for it, or else at the earliest or
 * latest offset ({@code --kafka-start}). With {@code untilAvailable} it reads every partition up
 * to the end offset it found at start (the last stable offset under {@code read_committed}) and
 * then ends; otherwise it waits for records until {@link #stop} (a stop signal). Every request
 * to the broker before the first record is bounded by the consumer's {@code default.api.timeout.ms}
 * ({@value #DEFAULT_TIMEOUT_MS} ms unless a {@code --kafka-option} says otherwise), so a broker that
 * never answers is a clear error, not a wait.
 *
 * <p>One thread reads ({@link #sample}, {@link #next}); {@link #stop} and {@link #commitToGroup}
 * may be called from any other. The consumer group, when given, is told the offsets the state
 * stored, or in a run without a state the offsets read ({@link #commitReadOffsets}), for
 * monitoring only: the state is what a restart goes on from.
 */
public final class KafkaSource implements LiveFeed, Closeable {
  /** How long a request to the broker may take before the run is given up, unless told otherwise. */
  public static final int DEFAULT_TIMEOUT_MS = 30_000;
  private static final Duration POLL = Duration.ofMillis(200);

  /** Where the records are: the bootstrap servers and the topic of a {@code kafka://} URI. */
  public record Address(String uri, String servers, String topic) {
    /** Reads {@code kafka://HOST:PORT[,HOST:PORT...]/TOPIC}. */
    public static Address parse(String uri) {
      String rest = uri.substring("kafka://".length());
      int slash = rest.indexOf('/');
      String servers = slash < 0 ? rest : rest.substring(0, slash);
      String topic = slash < 0 ? "" : rest.substring(slash + 1);
      if (servers.isEmpty() || !servers.matches("[^/\\s]+:\\d+(,[^/\\s]+:\\d+)*")) {
        throw badFlag("--from " + uri + " names no broker HOST:PORT: write kafka://127.0.0.1:9092/orders");
      }
      if (!topic.matches("[A-Za-z0-9._-]{1,249}")) {
        throw badFlag("--from " + uri + (topic.isEmpty() ? " names no topic" : ": '" + topic + "' is not a Kafka topic"
            + " name (letters, digits, '.', '_' and '-')") + ": write kafka://127.0.0.1:9092/orders");
      }
      return new Address(uri, servers, topic);
    }

    /** The table the topic is queried as: the topic's name, its '.' and '-' as '_'. */
    public String tableName() {
      return topic.replaceAll("[^A-Za-z0-9_]", "_");
    }
  }

  /** A record read ahead while sampling, replayed by {@link #next}. */
  private record Sampled(int partition, long offset, byte[] value) {}

  private final Address address;
  private final KafkaConsumer<byte[], byte[]> consumer;
  private final boolean hasGroup;
  private final List<TopicPartition> partitions;
  private final long[] startOffsets;
  /** The end offset of each partition found at start: where {@code untilAvailable} stops. */
  private final long[] endOffsets;
  private final boolean untilAvailable;
  private final Duration timeout;
  private final boolean[] done;
  private final ArrayDeque<Sampled> replay = new ArrayDeque<>();
  private final AtomicReference<Map<TopicPartition, OffsetAndMetadata>> toCommit = new AtomicReference<>();
  /** Under {@link #commitReadOffsets}: each partition's next offset after the records handed on, else null. */
  private long[] read;
  private volatile boolean stopped;
  /** With {@code --until idle=D}: D in nanoseconds, else 0; and when the last record came. */
  private long idleNanos;
  private long lastRecordAt = System.nanoTime();

  private List<ConsumerRecord<byte[], byte[]>> polled = List.of();
  private int nextPolled;
  private int currentPartition;
  private long currentOffset;
  private byte[] currentValue;
  private boolean currentHasValue;

  private KafkaSource(Address address, KafkaConsumer<byte[], byte[]> consumer, boolean hasGroup,
      List<TopicPartition> partitions, long[] startOffsets, long[] endOffsets, boolean untilAvailable,
      Duration timeout) {
    this.timeout = timeout;
    this.address = address;
    this.consumer = consumer;
    this.hasGroup = hasGroup;
    this.partitions = partitions;
    this.startOffsets = startOffsets;
    this.endOffsets = endOffsets;
    this.untilAvailable = untilAvailable;
    this.done = new boolean[partitions.size()];
  }

  /** What a state of a run over {@code address} names as its source, so that a state of another topic is refused. */
  public static StateSource stateSource(Address address) {
    return StateSource.of("kafka", "servers", address.servers(), "topic", address.topic());
  }

  /**
   * The consumer's properties: bytes for keys and values, no automatic commit, {@code read_committed},
   * the start position and the group, then every {@code --kafka-option} over them.
   */
  public static Properties properties(Address address, String group, String start, Map<String, String> options) {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, address.servers());
    p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, start);
    p.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, String.valueOf(DEFAULT_TIMEOUT_MS));
    p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "2000"); // a parse batch's worth (500 by default)
    if (group != null) {
      p.put(ConsumerConfig.GROUP_ID_CONFIG, group);
    }
    for (Map.Entry<String, String> o : options.entrySet()) {
      String key = o.getKey();
      if (key.equals(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG)
          || key.equals(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG)) {
        throw badFlag("--kafka-option " + key + " cannot be set: the values are read as bytes, decoded as UTF-8"
            + " JSON by the command");
      }
      p.put(key, o.getValue());
    }
    return p;
  }

  /**
   * Connects, assigns every partition of the topic, and positions each at the start the
   * properties name (earliest or latest; {@link #seekTo} moves them to a state's offsets).
   * Refuses a topic that does not exist and a broker that does not answer within the timeout.
   */
  public static KafkaSource open(Address address, Properties properties, boolean untilAvailable) {
    Duration timeout = Duration.ofMillis(timeoutMillis(properties));
    KafkaConsumer<byte[], byte[]> consumer;
    try {
      consumer = new KafkaConsumer<>(properties, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    } catch (KafkaException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      throw badFlag("--from " + address.uri() + ": the Kafka consumer cannot be made from these settings ("
          + cause.getMessage() + "): check the --kafka-option values");
    }
    try {
      List<PartitionInfo> infos;
      try {
        infos = consumer.partitionsFor(address.topic(), timeout);
      } catch (TimeoutException e) {
        throw unreachable(address, timeout, "for the partitions of topic " + address.topic());
      }
      if (infos == null || infos.isEmpty()) {
        throw new CliException(ErrorCode.UNREADABLE_SOURCE, "cannot read " + address.uri() + ": the broker at "
            + address.servers() + " has no topic " + address.topic() + " (create it, or name another)");
      }
      List<TopicPartition> partitions = new ArrayList<>();
      for (int p = 0; p < infos.size(); p++) {
        partitions.add(new TopicPartition(address.topic(), p));
      }
      consumer.assign(partitions);
      boolean latest = "latest".equals(properties.getProperty(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG));
      if (latest) {
        consumer.seekToEnd(partitions);
      } else {
        consumer.seekToBeginning(partitions);
      }
      long[] ends = new long[partitions.size()];
      try {
        Map<TopicPartition, Long> end = consumer.endOffsets(partitions, timeout);
        for (int p = 0; p < partitions.size(); p++) {
          ends[p] = end.get(partitions.get(p));
        }
      } catch (TimeoutException e) {
        throw unreachable(address, timeout, "for the offsets of topic " + address.topic());
      }
      KafkaSource source = new KafkaSource(address, consumer, properties.containsKey(ConsumerConfig.GROUP_ID_CONFIG),
          partitions, new long[partitions.size()], ends, untilAvailable, timeout);
      source.positioned();
      return source;
    } catch (RuntimeException e) {
      consumer.close(Duration.ZERO);
      if (e instanceof KafkaException k && !(e instanceof TimeoutException)) {
        throw new CliException(ErrorCode.UNREADABLE_SOURCE, "cannot read " + address.uri() + ": " + k.getMessage(), k);
      }
      throw e;
    }
  }

  /**
   * Moves every partition to {@code nextOffsets} (by partition: the offsets a state stored), before
   * the run reads; what {@link #sample} read ahead is dropped. Refuses a state of another number of
   * partitions than the topic has now.
   */
  public void seekTo(long[] nextOffsets) {
    if (nextOffsets.length != partitions.size()) {
      throw new CliException(ErrorCode.STATE_REFUSED, "the state holds " + nextOffsets.length + " partitions of topic "
          + address.topic() + ", which now has " + partitions.size() + ": a state goes on only over the partitions"
          + " it was written for; give another --state directory to start again");
    }
    replay.clear();
    polled = List.of();
    nextPolled = 0;
    consumer.resume(partitions);
    java.util.Arrays.fill(done, false);
    for (int p = 0; p < partitions.size(); p++) {
      consumer.seek(partitions.get(p), nextOffsets[p]);
    }
    positioned();
  }

  /** Reads where each partition starts, and under {@code untilAvailable} marks those already at their end. */
  private void positioned() {
    try {
      for (int p = 0; p < partitions.size(); p++) {
        startOffsets[p] = consumer.position(partitions.get(p), timeout);
      }
    } catch (TimeoutException e) {
      throw unreachable(address, timeout, "for the positions of topic " + address.topic());
    }
    if (untilAvailable) {
      for (int p = 0; p < partitions.size(); p++) {
        markDoneWhenAtEnd(p, startOffsets[p]);
      }
    }
  }

  private static long timeoutMillis(Properties p) {
    String value = p.getProperty(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG);
    try {
      long millis = Long.parseLong(value.trim());
      if (millis > 0) {
        return millis;
      }
    } catch (NumberFormatException e) {
      // refused below
    }
    throw badFlag("--kafka-option " + ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG + "=" + value + " is not a positive"
        + " number of milliseconds: e.g. --kafka-option " + ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG + "=30000");
  }

  private static CliException unreachable(Address address, Duration timeout, String what) {
    return new CliException(ErrorCode.UNREADABLE_SOURCE, "cannot read " + address.uri() + ": the Kafka broker at "
        + address.servers() + " gave no answer within " + (timeout.toMillis() % 1000 == 0 ? timeout.toSeconds() + " s"
        : timeout.toMillis() + " ms") + " when asked " + what + ": check the"
        + " address and that the broker runs (--kafka-option " + ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG
        + "=MILLIS waits longer)");
  }

  public Address address() {
    return address;
  }

  /**
   * Ends the reading once no record has come for {@code millis} (counted from now, and from each
   * poll that brought records): {@code --until idle=DURATION}.
   */
  public void endWhenIdleFor(long millis) {
    idleNanos = Math.multiplyExact(millis, 1_000_000L);
    lastRecordAt = System.nanoTime();
  }

  private boolean idleEnded() {
    return idleNanos > 0 && System.nanoTime() - lastRecordAt >= idleNanos;
  }

  /** How many partitions the topic has: the partitions of the contract, 0 to this less one. */
  @Override
  public int partitions() {
    return partitions.size();
  }

  /** The offset each partition starts at in this run, by partition. */
  @Override
  public OpenState.Position[] startPositions() {
    OpenState.Position[] positions = new OpenState.Position[startOffsets.length];
    for (int p = 0; p < positions.length; p++) {
      positions[p] = new OpenState.NextOffset(startOffsets[p]);
    }
    return positions;
  }

  /** The next offset after the record at offset {@code line}. */
  @Override
  public OpenState.Position positionAfter(int partition, String source, long line, long byteEnd) {
    return new OpenState.NextOffset(line + 1);
  }

  @Override
  public boolean namedByPartition() {
    return true;
  }

  /** Each partition's next offset in {@code positions} (as {@link #positionAfter} gives them). */
  public static long[] offsets(OpenState.Position[] positions) {
    long[] offsets = new long[positions.length];
    for (int p = 0; p < positions.length; p++) {
      offsets[p] = ((OpenState.NextOffset) positions[p]).nextOffset();
    }
    return offsets;
  }

  /**
   * Reads ahead up to {@code n} records, for the schema, and returns their values; {@link #next}
   * gives them again first. It stops early once every partition has reached the end offset it
   * had at start, unless none had a record then: a live run waits for the first.
   */
  public List<byte[]> sample(int n) {
    List<byte[]> values = new ArrayList<>();
    while (values.size() < n) {
      if (nextPolled < polled.size()) {
        ConsumerRecord<byte[], byte[]> r = polled.get(nextPolled++);
        byte[] value = r.value();
        replay.add(new Sampled(r.partition(), r.offset(), value));
        if (value != null) {
          values.add(value);
        }
        continue;
      }
      if (stopped || idleEnded() || (caughtUp() && (untilAvailable || !replay.isEmpty()))) {
        break;
      }
      poll();
    }
    return values;
  }

  /** Whether every partition is at or past the end offset it had at start. */
  private boolean caughtUp() {
    for (int p = 0; p < partitions.size(); p++) {
      if (!done[p] && consumer.position(partitions.get(p)) < endOffsets[p]) {
        return false;
      }
    }
    return true;
  }

  @Override
  public boolean next() {
    Sampled s = replay.poll();
    if (s != null) {
      take(s.partition(), s.offset(), s.value());
      return true;
    }
    while (true) {
      if (nextPolled < polled.size()) {
        ConsumerRecord<byte[], byte[]> r = polled.get(nextPolled++);
        take(r.partition(), r.offset(), r.value());
        return true;
      }
      if (stopped || (untilAvailable && allDone()) || idleEnded()) {
        return false;
      }
      poll();
    }
  }

  private void take(int partition, long offset, byte[] value) {
    if (read != null) {
      read[partition] = offset + 1;
    }
    currentPartition = partition;
    currentOffset = offset;
    currentHasValue = value != null;
    currentValue = value == null ? new byte[0] : value;
  }

  /** One poll: the records up to each partition's end offset under {@code untilAvailable}. */
  private void poll() {
    if (read != null) {
      commitToGroup(read);
    }
    Map<TopicPartition, OffsetAndMetadata> commit = toCommit.getAndSet(null);
    if (commit != null) {
      consumer.commitAsync(commit, null); // monitoring only: a failed commit is not the run's failure
    }
    ConsumerRecords<byte[], byte[]> records;
    try {
      records = consumer.poll(POLL);
    } catch (WakeupException e) {
      stopped = true;
      records = ConsumerRecords.empty();
    } catch (KafkaException e) {
      // not a broker that is away (the consumer waits for it), but one that refuses: authorization, a deleted topic
      throw new CliException(ErrorCode.UNREADABLE_SOURCE, "cannot read " + address.uri() + ": " + e.getMessage(), e);
    }
    List<ConsumerRecord<byte[], byte[]>> kept = new ArrayList<>(records.count());
    for (ConsumerRecord<byte[], byte[]> r : records) {
      if (!untilAvailable || r.offset() < endOffsets[r.partition()]) {
        kept.add(r);
      }
    }
    polled = kept;
    nextPolled = 0;
    if (!records.isEmpty()) {
      lastRecordAt = System.nanoTime();
    }
    if (untilAvailable && !stopped) {
      for (int p = 0; p < partitions.size(); p++) {
        if (!done[p]) {
          markDoneWhenAtEnd(p, consumer.position(partitions.get(p)));
        }
      }
    }
  }

  private void markDoneWhenAtEnd(int partition, long position) {
    if (position >= endOffsets[partition]) {
      done[partition] = true;
      consumer.pause(List.of(partitions.get(partition)));
    }
  }

  private boolean allDone() {
    for (boolean d : done) {
      if (!d) {
        return false;
      }
    }
    return true;
  }

  @Override
  public boolean lastAtHand() {
    return replay.isEmpty() && nextPolled >= polled.size();
  }

  @Override
  public String source() {
    return address.uri();
  }

  @Override
  public long lineNumber() {
    return currentOffset;
  }

  @Override
  public int partition() {
    return currentPartition;
  }

  @Override
  public boolean hasValue() {
    return currentHasValue;
  }

  @Override
  public String unit() {
    return "value";
  }

  @Override
  public byte[] buffer() {
    return currentValue;
  }

  @Override
  public int offset() {
    return 0;
  }

  @Override
  public int length() {
    return currentValue.length;
  }

  /** Ends the reading at the next record (from any thread): what a stop signal does. */
  public void stop() {
    stopped = true;
    consumer.wakeup();
  }

  /**
   * Tells the consumer group (when there is one) {@code nextOffsets}, each partition's next
   * offset as the state stored it; sent by the reading thread at its next poll.
   */
  public void commitToGroup(long[] nextOffsets) {
    if (!hasGroup) {
      return;
    }
    Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
    for (int p = 0; p < nextOffsets.length; p++) {
      offsets.put(partitions.get(p), new OffsetAndMetadata(nextOffsets[p]));
    }
    toCommit.set(offsets);
  }

  /**
   * Tells the consumer group {@code properties} name (if any) the next offsets {@code stored} holds, for
   * monitoring, with a consumer of its own: a Beam runner's run, whose reads commit nothing, once
   * its state is stored. A failure is not the run's: the state holds the truth.
   */
  public static void commitToGroup(Properties properties, String topic, OpenState stored) {
    if (!properties.containsKey(ConsumerConfig.GROUP_ID_CONFIG)) {
      return;
    }
    Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
    for (OpenState.Partition p : stored.partitions()) {
      if (p.position() instanceof OpenState.NextOffset next) { // none for a partition no record was read from yet
        offsets.put(new TopicPartition(topic, Integer.parseInt(p.id())), new OffsetAndMetadata(next.nextOffset()));
      }
    }
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(properties, new ByteArrayDeserializer(),
        new ByteArrayDeserializer())) {
      consumer.commitSync(offsets, Duration.ofSeconds(5));
    } catch (KafkaException e) {
      // monitoring only
    }
  }

  /**
   * Tells the consumer group (when there is one), at each poll and at the close, each partition's
   * next offset after the records {@link #next} handed on: for a run without a state, whose
   * offsets the group would otherwise never be told.
   */
  public void commitReadOffsets() {
    if (hasGroup) {
      read = startOffsets.clone();
    }
  }

  /** Commits what is still to be told to the group, then closes the consumer. */
  @Override
  public void close() {
    if (read != null) {
      commitToGroup(read);
    }
    try {
      Map<TopicPartition, OffsetAndMetadata> commit = toCommit.getAndSet(null);
      if (commit != null) {
        consumer.commitSync(commit, Duration.ofSeconds(5));
      }
    } catch (KafkaException e) {
      // the group's offsets are for monitoring only: the state holds the truth
    } finally {
      consumer.close(Duration.ofSeconds(5));
    }
  }

  /** {@code earliest} or {@code latest}, or a refusal. */
  public static String startPosition(String value) {
    String v = value.trim().toLowerCase(Locale.ROOT);
    if (!v.equals("earliest") && !v.equals("latest")) {
      throw badFlag("--kafka-start " + value + " is not a start position: use earliest (the default) or latest; with"
          + " a --state that holds offsets, those win");
    }
    return v;
  }

  private static CliException badFlag(String message) {
    return new CliException(ErrorCode.INVALID_ARGUMENT, message);
  }
}
