package io.eventtime.hop.beam;

import io.eventtime.beam.EventTimeWindow;
import io.eventtime.hop.Settings;
import io.eventtime.hop.kafkainput.EventKafkaInputMeta;
import io.eventtime.hop.kafkainput.KafkaInputSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.hop.i18n.BaseMessages;
import org.apache.hop.pipeline.transform.TransformMeta;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Event Kafka Input: the topic read live ({@link EventKafkaRead}), an unbounded stream that runs
 * until the job is cancelled or, with "stop when caught up", ends by itself at the end offsets
 * found at the start, each row's arrival position its offset. The
 * topic's partitions are found when the pipeline is translated, with the transform's connection
 * timeout, so that a run that cannot read fails before anything runs with the local engine's
 * words; they are fixed for the run, as on the local engine, and an Event Time Window downstream
 * with a partition field waits on each of them ({@link TranslationContext#liveSource}).
 *
 * <p>A consumer group gets the offsets read, for monitoring, as on the local engine: the reads
 * start at the start position all the same. Refused before the run: any Spark run (its runner
 * runs no event-time timers in streaming mode).
 */
final class EventKafkaInputTranslation implements TransformTranslation {
  /** Why a Spark run is refused: the reasoning of EventTimeWindow's, in one text. */
  static final String SPARK_REFUSAL = "it reads the topic live, as an unbounded input, which the Beam Spark (eventtime)"
      + " engine cannot run: " + EventTimeWindow.SPARK_REFUSAL;
  private static final Class<?> PKG = EventKafkaInputMeta.class;

  @Override
  public Set<String> pluginIds() {
    return Set.of(TransformTranslation.pluginId(EventKafkaInputMeta.class));
  }

  @Override
  public Map<String, HopStream> translate(TranslationContext context, TransformMeta t) {
    if (!context.hopsInto(t).isEmpty()) {
      context.problem(t, "it reads a topic and takes no rows: remove the hops into it");
      return null;
    }
    if (BeamRunner.isSpark(context.beam().getOptions())) {
      context.problem(t, SPARK_REFUSAL);
      return null;
    }
    context.refuseCopies(t);
    EventKafkaInputMeta m = (EventKafkaInputMeta) t.getTransform();
    KafkaInputSettings settings = context.checked(t, p -> m.resolve(context.variables(), p));
    if (settings == null) {
      return null;
    }
    String servers = Settings.resolve(context.variables(), m.getBootstrapServers());
    String topic = Settings.resolve(context.variables(), m.getTopic());
    String start = Settings.resolve(context.variables(), m.getStartPosition());
    String group = Settings.resolve(context.variables(), m.getConsumerGroup());
    String timeout = Settings.resolve(context.variables(), m.getConnectionTimeout());
    long timeoutMillis = timeout == null ? 30_000 : Settings.positiveDuration("Connection timeout", timeout, new ArrayList<>());
    List<TopicPartition> partitions = partitions(context, t, servers, topic, timeoutMillis);
    if (partitions == null) {
      return null;
    }
    Map<String, HopStream> out = new LinkedHashMap<>();
    List<TransformMeta> targets = context.mainTargets(t, Set.of());
    TransformMeta errorTarget = context.errorTarget(t);
    RowLayout rows = targets.isEmpty() ? context.layoutAlone(t) : context.layout(t, targets.get(0));
    RowLayout errors = errorTarget == null ? null : context.layout(t, errorTarget);
    if (rows == null || (errorTarget != null && errors == null)) {
      return null;
    }
    boolean fromEarliest = start == null || !start.toLowerCase(Locale.ROOT).equals("latest");
    PCollectionTuple read = context.beam().apply(t.getName(),
        new EventKafkaRead(context.workers(), t.getName(), servers, topic, fromEarliest, m.isStopWhenCaughtUp(), group,
            rows, errors));
    context.liveSource(t, partitions.stream().map(TopicPartition::partition).toList(),
        Settings.resolve(context.variables(), m.getPartitionField()));
    context.toMainTargets(t, targets, read.get(EventKafkaRead.ROWS), Arrivals.OFFSET_BITS, 0, out);
    if (errorTarget != null) {
      out.put(errorTarget.getName(), new HopStream(read.get(EventKafkaRead.ERRORS), errors, Arrivals.OFFSET_BITS, 0));
    }
    return out;
  }

  /**
   * The topic's partitions in order, asked of the brokers now; null, with the local engine's
   * reason, when no broker answers within the connection timeout or the topic does not exist.
   */
  private static List<TopicPartition> partitions(TranslationContext context, TransformMeta t, String servers,
      String topic, long timeoutMillis) {
    Map<String, Object> config = Map.of(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, servers,
        ConsumerConfig.CLIENT_ID_CONFIG, "eventtime-hop-beam-" + t.getName(),
        ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) Math.min(Integer.MAX_VALUE, timeoutMillis),
        ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) Math.min(Integer.MAX_VALUE, timeoutMillis));
    List<PartitionInfo> infos;
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(),
        new ByteArrayDeserializer())) {
      infos = consumer.partitionsFor(topic, Duration.ofMillis(timeoutMillis));
    } catch (TimeoutException e) {
      String waited = timeoutMillis % 1000 == 0 ? timeoutMillis / 1000 + " s" : timeoutMillis + " ms";
      context.problem(t, BaseMessages.getString(PKG, "EventKafkaInput.Problem.NoBroker", servers, waited, topic));
      return null;
    } catch (KafkaException e) {
      context.problem(t, BaseMessages.getString(PKG, "EventKafkaInput.Problem.Kafka", servers, e.getMessage()));
      return null;
    }
    if (infos == null || infos.isEmpty()) {
      context.problem(t, BaseMessages.getString(PKG, "EventKafkaInput.Problem.NoTopic", topic, servers));
      return null;
    }
    List<TopicPartition> found = new ArrayList<>();
    infos.forEach(i -> found.add(new TopicPartition(i.topic(), i.partition())));
    found.sort((a, b) -> Integer.compare(a.partition(), b.partition()));
    return found;
  }
}
