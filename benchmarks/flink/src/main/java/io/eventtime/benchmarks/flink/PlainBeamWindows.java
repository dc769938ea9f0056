package io.eventtime.benchmarks.flink;

import io.eventtime.benchmarks.CountSumFn;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.Serializable;
import java.util.Map;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.coders.AtomicCoder;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.io.kafka.CustomTimestampPolicyWithLimitedDelay;
import org.apache.beam.sdk.io.kafka.KafkaIO;
import org.apache.beam.sdk.io.kafka.KafkaRecord;
import org.apache.beam.sdk.transforms.Combine;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.FixedWindows;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.transforms.windowing.Window;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.joda.time.Duration;
import org.joda.time.Instant;

/**
 * The peer: plain Beam streaming windowing, as a Beam user writes it for this topic. KafkaIO reads
 * each value into an {@link Event} (Jackson, once per record) and stamps it with its event time,
 * the watermark following KafkaIO's {@link CustomTimestampPolicyWithLimitedDelay} (the latest
 * event time less the delay, per partition); {@code Window.into(FixedWindows)} and
 * {@code Combine.perKey} of count and sum; Beam's default trigger emits each window once, when
 * the watermark passes its end.
 */
final class PlainBeamWindows {
  private PlainBeamWindows() {}

  /** One record's value. */
  static final class Event implements Serializable {
    final String key;
    final long amount;
    final long eventTime;

    Event(String key, long amount, long eventTime) {
      this.key = key;
      this.amount = amount;
      this.eventTime = eventTime;
    }
  }

  /** Kafka's deserializer of a value into an {@link Event}. */
  public static final class EventDeserializer implements Deserializer<Event> {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Override
    public Event deserialize(String topic, byte[] data) {
      try {
        JsonNode n = JSON.readTree(data);
        return new Event(n.get("key").asText(), n.get("amount").asLong(),
            java.time.Instant.parse(n.get("event_time").asText()).toEpochMilli());
      } catch (IOException e) {
        throw new IllegalArgumentException("a value of " + topic + " is not JSON: " + e.getMessage(), e);
      }
    }
  }

  static final class EventCoder extends AtomicCoder<Event> {
    static final EventCoder INSTANCE = new EventCoder();

    @Override
    public void encode(Event e, OutputStream out) throws IOException {
      StringUtf8Coder.of().encode(e.key, out);
      VarLongCoder.of().encode(e.amount, out);
      VarLongCoder.of().encode(e.eventTime, out);
    }

    @Override
    public Event decode(InputStream in) throws IOException {
      return new Event(StringUtf8Coder.of().decode(in), VarLongCoder.of().decode(in), VarLongCoder.of().decode(in));
    }
  }

  static final class Tap extends LiveProbe.ReadTap<KafkaRecord<byte[], Event>> {
    Tap(long[] closingOffsets) {
      super(closingOffsets);
    }

    @Override
    long offset(KafkaRecord<byte[], Event> r) {
      return r.getOffset();
    }
  }

  static final class KeyAmountFn extends DoFn<KafkaRecord<byte[], Event>, KV<String, Long>> {
    @ProcessElement
    public void process(@Element KafkaRecord<byte[], Event> r, OutputReceiver<KV<String, Long>> out) {
      Event e = r.getKV().getValue();
      out.output(KV.of(e.key, e.amount));
    }
  }

  static final class SinkFn extends DoFn<KV<String, KV<Long, Long>>, Void> {
    @ProcessElement
    public void process(@Element KV<String, KV<Long, Long>> w, BoundedWindow window) {
      LiveProbe.windowRow(w.getKey(), ((IntervalWindow) window).start().getMillis(), w.getValue().getKey(),
          w.getValue().getValue());
    }
  }

  /** Adds the read, the windowing and the probe's sink to {@code p}. */
  static void addTo(Pipeline p, String bootstrapServers, String topic, long[] closingOffsets) {
    PCollection<KafkaRecord<byte[], Event>> records = p.apply("ReadKafka", KafkaIO.<byte[], Event>read()
        .withBootstrapServers(bootstrapServers)
        .withTopic(topic)
        .withKeyDeserializer(ByteArrayDeserializer.class)
        .withValueDeserializerAndCoder(EventDeserializer.class, EventCoder.INSTANCE)
        .withConsumerConfigUpdates(Map.of(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
            ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"))
        .withTimestampPolicyFactory((partition, previous) -> new CustomTimestampPolicyWithLimitedDelay<>(
            r -> new Instant(r.getKV().getValue().eventTime), Duration.millis(LiveEvents.DELAY_MILLIS), previous)));
    records.apply("ReadTap", ParDo.of(new Tap(closingOffsets))).setCoder(records.getCoder())
        .apply("KeyAndAmount", ParDo.of(new KeyAmountFn()))
        .setCoder(KvCoder.of(StringUtf8Coder.of(), VarLongCoder.of()))
        .apply("Minutes", Window.into(FixedWindows.of(Duration.millis(LiveEvents.WINDOW_MILLIS))))
        .apply("CountAndSum", Combine.perKey(new CountSumFn()))
        .apply("Sink", ParDo.of(new SinkFn()));
  }
}
