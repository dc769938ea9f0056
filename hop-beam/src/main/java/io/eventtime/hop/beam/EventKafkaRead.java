package io.eventtime.hop.beam;

import io.eventtime.beam.KafkaRows;
import io.eventtime.beam.KafkaRowsArrivalStamps;
import io.eventtime.hop.kafkainput.EventKafkaInputMeta;
import io.eventtime.hop.kafkainput.KafkaRecords;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.TupleTagList;
import org.apache.kafka.clients.consumer.ConsumerConfig;

/**
 * The Beam read of an Event Kafka Input: {@link KafkaRows} reads the topic's records as they are
 * (raw values, with the key and Kafka timestamp), each stamped with its arrival ({@link
 * KafkaRowsArrivalStamps}), following the partitions until the job is cancelled or, with "stop
 * when caught up", up to the end offsets found at the start as a live stream that ends ({@link
 * KafkaRows#withLiveUntilAvailable()}); each record is read into a row by the Hop transform's own
 * {@link KafkaRecords} (so the values, types, key, Kafka timestamp and reasons are those of the
 * local engine). Each row's arrival position is its offset in its partition. Records that cannot
 * be read go to the error output when the transform has error handling, and are counted as
 * rejected in any case. A consumer group is told the offsets read, for monitoring ({@link
 * KafkaRows#withOffsetsCommittedTo}).
 */
final class EventKafkaRead extends PTransform<PBegin, PCollectionTuple> {
  static final TupleTag<Row> ROWS = new TupleTag<>("rows") {};
  static final TupleTag<Row> ERRORS = new TupleTag<>("errors") {};

  private final HopContext context;
  private final String transformName;
  private final String servers;
  private final String topic;
  private final boolean fromEarliest;
  private final boolean untilCaughtUp;
  private final String group;
  private final RowLayout rows;
  private final RowLayout errors;

  /** {@code errors}: the layout of error rows, or null without error handling. */
  EventKafkaRead(HopContext context, String transformName, String servers, String topic, boolean fromEarliest,
      boolean untilCaughtUp, String group, RowLayout rows, RowLayout errors) {
    this.context = context;
    this.transformName = transformName;
    this.servers = servers;
    this.topic = topic;
    this.fromEarliest = fromEarliest;
    this.untilCaughtUp = untilCaughtUp;
    this.group = group;
    this.rows = rows;
    this.errors = errors;
  }

  @Override
  public PCollectionTuple expand(PBegin begin) {
    // as the local engine reads: committed transactions only (KafkaRows' default), from the start position, and
    // the group, if any, only told the offsets read
    KafkaRows read = KafkaRows.read().withBootstrapServers(servers).withTopic(topic)
        .withStartPosition(fromEarliest ? KafkaRows.EARLIEST : KafkaRows.LATEST).withRawValues()
        .withConsumerProperty(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    if (group != null) {
      read = read.withOffsetsCommittedTo(group);
    }
    PCollectionTuple out = begin
        .apply("ReadTopic", untilCaughtUp ? read.withLiveUntilAvailable() : read).rows()
        .apply("ReadRecords", ParDo.of(new ReadFn(context, transformName, rows, errors))
            .withOutputTags(ROWS, TupleTagList.of(ERRORS)));
    out.get(ROWS).setRowSchema(rows.schema());
    out.get(ERRORS).setRowSchema((errors == null ? rows : errors).schema());
    return out;
  }

  private static final class ReadFn extends HopReadFn<Row> {
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
    public void process(@Element Row r, MultiOutputReceiver out) {
      long offset = r.getInt64(KafkaRows.OFFSET_FIELD);
      KafkaRecords.Record record = records.read(r.getInt32(KafkaRows.PARTITION_FIELD), offset,
          r.getInt64(KafkaRows.TIMESTAMP_FIELD), r.getBytes(KafkaRows.KEY_FIELD), r.getBytes(KafkaRows.VALUE_FIELD));
      handOn(record.isRejected(), record.values(), record.error(), record.errorField(), offset, out);
    }
  }
}
