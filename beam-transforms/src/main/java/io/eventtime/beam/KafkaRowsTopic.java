package io.eventtime.beam;

import io.eventtime.core.ndjson.MalformedLineException;
import io.eventtime.core.ndjson.NdjsonLines;
import io.eventtime.core.ndjson.SchemaInference;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * What {@link KafkaRows} learns of its topic when the pipeline is built, before the run: the
 * partitions, where each starts and ends now, and the first records, which the schema is inferred
 * from. A broker that does not answer within {@link #TIMEOUT} is an error that says so.
 */
final class KafkaRowsTopic implements AutoCloseable {
  /** How long the questions asked while the pipeline is built may wait for the brokers. */
  static final Duration TIMEOUT = Duration.ofSeconds(30);

  private final String servers;
  private final String topic;
  private final KafkaConsumer<byte[], byte[]> consumer;

  KafkaRowsTopic(Map<String, Object> consumerConfig, String topic) {
    this.servers = String.valueOf(consumerConfig.get(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG));
    this.topic = topic;
    Map<String, Object> config = new HashMap<>(consumerConfig);
    config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    this.consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
  }

  /** The topic's partitions, in partition order; a topic that does not exist is refused. */
  List<TopicPartition> partitions() {
    List<PartitionInfo> infos = ask("list the partitions of topic " + topic, () -> consumer.partitionsFor(topic, TIMEOUT));
    if (infos == null || infos.isEmpty()) {
      throw new IllegalArgumentException("topic " + topic + " does not exist on the Kafka brokers at " + servers
          + ": create it first, or check its name");
    }
    return infos.stream().map(p -> new TopicPartition(topic, p.partition()))
        .sorted(Comparator.comparingInt(TopicPartition::partition)).toList();
  }

  /** The offset each partition ends at now (with read_committed, the last stable offset), by partition. */
  Map<Integer, Long> endOffsets(List<TopicPartition> partitions) {
    return byPartition(ask("find the end offsets of topic " + topic, () -> consumer.endOffsets(partitions, TIMEOUT)));
  }

  /**
   * Where a read of the partitions starts: the consumer group's committed offset where it has
   * one, else the first offset ({@code earliest}) or the end offset ({@code latest}).
   */
  Map<Integer, Long> startOffsets(List<TopicPartition> partitions, boolean earliest, boolean hasGroup) {
    Map<Integer, Long> start = byPartition(earliest
        ? ask("find the first offsets of topic " + topic, () -> consumer.beginningOffsets(partitions, TIMEOUT))
        : ask("find the end offsets of topic " + topic, () -> consumer.endOffsets(partitions, TIMEOUT)));
    if (hasGroup) {
      Map<TopicPartition, OffsetAndMetadata> committed =
          ask("find the committed offsets of topic " + topic, () -> consumer.committed(Set.copyOf(partitions), TIMEOUT));
      committed.forEach((tp, o) -> {
        if (o != null) {
          start.put(tp.partition(), o.offset());
        }
      });
    }
    return start;
  }

  /**
   * The schema of the first {@code sampleSize} JSON objects among the partitions' first records
   * (partition 0's first, then partition 1's...), read up to the end offsets: the rule of
   * {@link NdjsonIO}'s inference, by the same core code. Values that are not JSON objects tell
   * nothing of the schema and are passed over (the read rejects them with their reason).
   */
  Schema inferSchema(List<TopicPartition> partitions, int sampleSize) {
    Map<Integer, Long> first = byPartition(ask("find the first offsets of topic " + topic,
        () -> consumer.beginningOffsets(partitions, TIMEOUT)));
    Map<Integer, Long> end = endOffsets(partitions);
    SchemaInference inference = new SchemaInference();
    int seen = 0;
    for (TopicPartition tp : partitions) {
      if (seen >= sampleSize) {
        break;
      }
      consumer.assign(List.of(tp));
      consumer.seek(tp, first.get(tp.partition()));
      long stop = end.get(tp.partition());
      long deadline = System.nanoTime() + TIMEOUT.toNanos();
      while (seen < sampleSize && consumer.position(tp, TIMEOUT) < stop) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("cannot read the first records of topic " + topic + ": partition "
              + tp.partition() + " gave none up to its end offset " + stop + " within " + TIMEOUT.toSeconds() + " s");
        }
        for (ConsumerRecord<byte[], byte[]> r : ask("read the first records of topic " + topic,
            () -> consumer.poll(Duration.ofMillis(500)))) {
          if (seen >= sampleSize || r.offset() >= stop) {
            break;
          }
          if (r.value() == null || KafkaRowsDecoder.notUtf8(r.value()) != null) {
            continue;
          }
          try {
            inference.observe(NdjsonLines.parse(new String(r.value(), StandardCharsets.UTF_8)));
            seen++;
          } catch (MalformedLineException passedOver) {
            // rejected with its reason when the topic is read; it tells nothing of the schema
          }
        }
      }
    }
    if (seen == 0) {
      throw new IllegalArgumentException("cannot infer the schema of topic " + topic + ": it has no JSON object to sample"
          + " yet; give the schema with withSchema");
    }
    Schema.Builder b = Schema.builder();
    inference.schema().forEach((name, type) -> b.addNullableField(name, BeamValues.beamType(type)));
    return b.build();
  }

  @Override
  public void close() {
    consumer.close(Duration.ZERO);
  }

  private <T> T ask(String what, java.util.function.Supplier<T> question) {
    try {
      return question.get();
    } catch (TimeoutException e) {
      throw new IllegalStateException("cannot " + what + ": the Kafka brokers at " + servers + " did not answer within "
          + TIMEOUT.toSeconds() + " s (" + e.getMessage() + ")", e);
    } catch (KafkaException e) {
      throw new IllegalStateException("cannot " + what + " on the Kafka brokers at " + servers + ": " + e.getMessage(), e);
    }
  }

  private static Map<Integer, Long> byPartition(Map<TopicPartition, Long> offsets) {
    Map<Integer, Long> m = new TreeMap<>();
    offsets.forEach((tp, o) -> m.put(tp.partition(), o));
    return m;
  }
}
