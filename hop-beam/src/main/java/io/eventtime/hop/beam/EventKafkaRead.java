package io.eventtime.hop.beam;

import io.eventtime.beam.KafkaRowsArrivalStamps;
import io.eventtime.hop.kafkainput.EventKafkaInputMeta;
import io.eventtime.hop.kafkainput.KafkaRecords;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.io.kafka.KafkaIO;
import org.apache.beam.sdk.io.kafka.KafkaRecord;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.TupleTagList;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The Beam read of an Event Kafka Input: KafkaIO follows the topic's partitions (unbounded, until
 * the job is cancelled), each record stamped with its arrival ({@link KafkaRowsArrivalStamps}) and read
 * into a row by the Hop transform's own {@link KafkaRecords} (so the values, types, key, Kafka
 * timestamp and reasons are those of the local engine). Each row's arrival position is its offset
 * in its partition. Records that cannot be read go to the error output when the transform has
 * error handling, and are counted as rejected in any case.
 */
final class EventKafkaRead extends PTransform<PBegin, PCollectionTuple> {
  static final TupleTag<Row> ROWS = new TupleTag<>("rows") {};
  static final TupleTag<Row> ERRORS = new TupleTag<>("errors") {};

  private final HopContext context;
  private final String transformName;
  private final String servers;
  private final List<TopicPartition> partitions;
  private final Map<String, Object> consumerConfig;
  private final RowLayout rows;
  private final RowLayout errors;

  /** {@code errors}: the layout of error rows, or null without error handling. */
  EventKafkaRead(HopContext context, String transformName, String servers, List<TopicPartition> partitions,
      boolean fromEarliest, RowLayout rows, RowLayout errors) {
    this.context = context;
    this.transformName = transformName;
    this.servers = servers;
    this.partitions = List.copyOf(partitions);
    // as the local engine reads: committed transactions only, from the start position, no group (nothing committed)
    this.consumerConfig = Map.of(
        ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, fromEarliest ? "earliest" : "latest",
        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    this.rows = rows;
    this.errors = errors;
  }

  @Override
  public PCollectionTuple expand(PBegin begin) {
    PCollectionTuple out = begin
        .apply("ReadTopic", KafkaIO.<byte[], byte[]>read()
            .withBootstrapServers(servers)
            .withTopicPartitions(partitions)
            .withKeyDeserializer(ByteArrayDeserializer.class)
            .withValueDeserializer(ByteArrayDeserializer.class)
            .withConsumerConfigUpdates(consumerConfig)
            .withTimestampPolicyFactory(new KafkaRowsArrivalStamps.PolicyFactory()))
        .apply("ReadRecords", ParDo.of(new ReadFn(context, transformName, rows, errors))
            .withOutputTags(ROWS, TupleTagList.of(ERRORS)));
    out.get(ROWS).setRowSchema(rows.schema());
    out.get(ERRORS).setRowSchema((errors == null ? rows : errors).schema());
    return out;
  }

  private static final class ReadFn extends HopReadFn<KafkaRecord<byte[], byte[]>> {
    private transient KafkaRecords records;

    ReadFn(HopContext context, String transformName, RowLayout rows, RowLayout errors) {
      super(context, transformName, rows, errors, ROWS, ERRORS);
    }

    @Setup
    public void setup() {
      List<String> problems = new ArrayList<>();
      records = new KafkaRecords(resolved(((EventKafkaInputMeta) transform().getTransform())
          .resolve(context.variables(), problems), problems));
    }

    @ProcessElement
    public void process(@Element KafkaRecord<byte[], byte[]> r, MultiOutputReceiver out) {
      KafkaRecords.Record record = records.read(r.getPartition(), r.getOffset(), r.getTimestamp(),
          r.getKV().getKey(), r.getKV().getValue());
      handOn(record.isRejected(), record.values(), record.error(), record.errorField(), r.getOffset(), out);
    }
  }
}
