package io.eventtime.hop.kafkainput;

import io.eventtime.core.ndjson.MalformedLineException;
import io.eventtime.core.ndjson.NdjsonLines;
import io.eventtime.core.ndjson.SchemaInference;
import io.eventtime.hop.Settings;
import io.eventtime.hop.fileinput.FieldGuesser;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.hop.core.exception.HopException;
import org.apache.hop.core.variables.IVariables;
import org.apache.hop.i18n.BaseMessages;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.KafkaException;

/**
 * Proposes the fields of an Event Kafka Input from the first records of its topic (every
 * partition from its earliest offset, up to the end offsets of now, taken in partition order and
 * then offset order), with the core's schema
 * inference, as Event File Input's Get fields does from the first lines of a file. Records that
 * are not UTF-8 JSON objects tell nothing of the types and are passed over.
 */
public final class KafkaFieldGuesser {
  private static final Class<?> PKG = EventKafkaInputMeta.class;

  private KafkaFieldGuesser() {}

  /** The fields of the first {@code records} records of the topic, in the order the inference found them. */
  public static List<KafkaField> guess(EventKafkaInputMeta meta, IVariables variables, int records)
      throws HopException {
    EventKafkaInputMeta sampling = meta.clone();
    sampling.setValueFormat("raw");
    sampling.setFields(new ArrayList<>());
    sampling.setValueField("value");
    sampling.setStartPosition("earliest");
    sampling.setStopWhenCaughtUp(true);
    sampling.setConsumerGroup(null);
    sampling.setPartitionField(null);
    sampling.setOffsetField(null);
    sampling.setTimestampField(null);
    sampling.setKeyField(null);
    List<String> problems = Settings.problems();
    KafkaInputSettings settings = sampling.resolve(variables, problems);
    if (settings == null) {
      throw new HopException(String.join("\n", problems));
    }
    List<ConsumerRecord<byte[], byte[]>> sample = new ArrayList<>();
    try (TopicReader reader = new TopicReader(settings, "eventtime-hop-get-fields")) {
      reader.open();
      long deadline = System.nanoTime() + Duration.ofMillis(settings.timeoutMillis).toNanos();
      while (sample.size() < records && !reader.isCaughtUp() && System.nanoTime() < deadline) {
        sample.addAll(reader.poll(Duration.ofMillis(200)));
      }
    } catch (KafkaException e) {
      throw new HopException(BaseMessages.getString(PKG, "EventKafkaInput.Problem.Kafka", settings.servers,
          e.getMessage()), e);
    }
    // in partition order, then offset order, so that the fields come in the same order however the polls went
    sample.sort(Comparator.comparingInt((ConsumerRecord<byte[], byte[]> r) -> r.partition())
        .thenComparingLong(ConsumerRecord::offset));
    SchemaInference inference = new SchemaInference();
    int seen = Math.min(records, sample.size());
    sample.subList(0, seen).forEach(r -> observe(inference, r.value()));
    if (inference.schema().isEmpty()) {
      throw new HopException(BaseMessages.getString(PKG, "EventKafkaInput.Problem.NothingToGuess", settings.topic,
          seen));
    }
    List<KafkaField> fields = new ArrayList<>();
    inference.schema().forEach((name, type) -> fields.add(new KafkaField(name, FieldGuesser.hopType(type), null)));
    return fields;
  }

  private static void observe(SchemaInference inference, byte[] value) {
    if (value == null) {
      return;
    }
    try {
      inference.observe(NdjsonLines.parse(KafkaRecords.text(value, "value")));
    } catch (KafkaRecords.NotText | MalformedLineException e) {
      // rejected with its reason when the topic is read
    }
  }
}
