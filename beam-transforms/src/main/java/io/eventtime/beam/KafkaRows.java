package io.eventtime.beam;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.io.Read;
import org.apache.beam.sdk.io.kafka.KafkaIO;
import org.apache.beam.sdk.io.kafka.KafkaRecord;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.schemas.Schema.FieldType;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.Reshuffle;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.apache.beam.sdk.transforms.display.DisplayData;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PInput;
import org.apache.beam.sdk.values.POutput;
import org.apache.beam.sdk.values.PValue;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.TupleTagList;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads the JSON values of a Kafka topic as rows, the way {@link NdjsonIO} reads the lines of
 * files: each record's value is one JSON object, read into a row of the given schema or of the
 * schema inferred from the topic's first records (the same core rules as NdjsonIO's); values that
 * are not UTF-8 text, not a JSON object, or do not fit their field go to the rejected output with
 * the partition, offset and reason, and the read goes on. Each row carries its partition in
 * {@value #PARTITION_FIELD} and its offset, the arrival position within the partition, in
 * {@value #OFFSET_FIELD} (the field {@link EventTimeWindow} reads arrival positions from).
 *
 * <pre>{@code
 * KafkaRows.Result read = pipeline.apply(KafkaRows.read()
 *     .withBootstrapServers("broker:9092")
 *     .withTopic("events")
 *     .withConsumerProperty("group.id", "windows"));
 * read.rows();      // Rows with the inferred (or given) schema, _partition and _arrival (the offset)
 * read.rejected();  // topic, partition, offset, field, text, reason
 * }</pre>
 *
 * <p>By default the read is unbounded: it follows the topic (with KafkaIO) until the pipeline is
 * stopped. {@link #withUntilAvailable()} makes it bounded: when the pipeline is built it finds
 * where each partition ends, reads up to there, and the read is done. {@link
 * #withLiveUntilAvailable()} reads up to the same ends as a live (unbounded) stream that ends, and
 * {@link #withLiveUntil} reads a live stream until a function of one's own says to stop.
 *
 * <p>Each row's element timestamp is its <b>arrival stamp</b>: the wall-clock time it was read,
 * never earlier than the stamp of the record before it in its partition; a partition's watermark
 * is its last stamp, or the clock when it is caught up. Event times are fields of the rows
 * ({@link EventTimeWindow#withTimeField}), never element timestamps: the stamps only tell a later
 * step which rows have arrived.
 *
 * <p>Reading starts, in each partition, at the consumer group's committed offset when the
 * consumer properties name a group that has one, else at the first offset ({@code earliest},
 * the default) or the end ({@code latest}): {@link #withStartPosition}. Records of open or
 * aborted transactions are not read ({@code isolation.level=read_committed}, unless a consumer
 * property says otherwise).
 */
public final class KafkaRows extends PTransform<PBegin, KafkaRows.Result> {
  /** The INT32 field of each row's partition. */
  public static final String PARTITION_FIELD = "_partition";
  /** The INT64 field of each row's offset in its partition: its arrival position, as {@link NdjsonIO}'s. */
  public static final String OFFSET_FIELD = EventTimeWindow.DEFAULT_ARRIVAL_FIELD;
  /** The BYTES field of each row's value with {@link #withRawValues()}, null for a record without one. */
  public static final String VALUE_FIELD = "_value";
  /** The BYTES field of each record's key with {@link #withRawValues()}, null for a record without one. */
  public static final String KEY_FIELD = "_key";
  /** The INT64 field of each record's Kafka timestamp (milliseconds, -1 for none) with {@link #withRawValues()}. */
  public static final String TIMESTAMP_FIELD = "_timestamp";
  /** The record's fields with {@link #withRawValues()}, before the partition and offset. */
  private static final Schema RAW_VALUES = Schema.builder().addNullableField(VALUE_FIELD, FieldType.BYTES)
      .addNullableField(KEY_FIELD, FieldType.BYTES).addInt64Field(TIMESTAMP_FIELD).build();
  /** Start each partition at its first offset (when the group has no committed offset). */
  public static final String EARLIEST = "earliest";
  /** Start each partition at its end: only records produced after the start are read. */
  public static final String LATEST = "latest";

  /** The fields of a rejected record. */
  public static final Schema REJECTED_SCHEMA = Schema.builder()
      .addStringField("topic")
      .addInt32Field("partition")
      .addInt64Field("offset")
      .addNullableField("field", FieldType.STRING)
      .addNullableField("text", FieldType.STRING)
      .addStringField("reason")
      .build();

  /** Consumer properties that KafkaRows sets from its own settings, and why. */
  private static final Map<String, String> OWN_PROPERTIES = Map.of(
      ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, "give the servers with withBootstrapServers",
      ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "give the start position with withStartPosition",
      ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, "KafkaRows reads keys and values as bytes",
      ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, "KafkaRows reads keys and values as bytes");

  private final String bootstrapServers;
  private final String topic;
  private final Map<String, Object> consumerProperties;
  private final String startPosition;
  private final Until until;
  /** Where partitions start over the group and the start position, by partition (a stored state's offsets). */
  private final Map<Integer, Long> startOffsets;
  private final Schema schema;
  private final int sampleSize;
  /** Under {@link #withLiveUntil}: whether to end a partition's read now, by partition; else null. */
  private final SerializableFunction<Integer, Boolean> stopReading;
  /** Under {@link #withOffsetsCommittedTo}: the group told each partition's read position; else null. */
  private final String commitGroup;

  private KafkaRows(String bootstrapServers, String topic, Map<String, Object> consumerProperties, String startPosition,
      Until until, Map<Integer, Long> startOffsets, Schema schema, int sampleSize,
      SerializableFunction<Integer, Boolean> stopReading, String commitGroup) {
    this.bootstrapServers = bootstrapServers;
    this.topic = topic;
    this.consumerProperties = consumerProperties;
    this.startPosition = startPosition;
    this.until = until;
    this.startOffsets = startOffsets;
    this.schema = schema;
    this.sampleSize = sampleSize;
    this.stopReading = stopReading;
    this.commitGroup = commitGroup;
  }

  /** A read to set up with {@link #withBootstrapServers} and {@link #withTopic}. */
  public static KafkaRows read() {
    return new KafkaRows(null, null, Map.of(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"), EARLIEST, Until.STOPPED,
        Map.of(), null, 1000, null, null);
  }

  /** The brokers to connect to first, {@code host:port[,host:port...]}. */
  public KafkaRows withBootstrapServers(String servers) {
    return new KafkaRows(servers, topic, consumerProperties, startPosition, until, startOffsets, schema, sampleSize, stopReading, commitGroup);
  }

  /** The topic to read, all of its partitions. */
  public KafkaRows withTopic(String name) {
    return new KafkaRows(bootstrapServers, name, consumerProperties, startPosition, until, startOffsets, schema, sampleSize, stopReading, commitGroup);
  }

  /**
   * A property of the Kafka consumer ({@code group.id}, {@code isolation.level}, security
   * settings...); the servers, start position and deserializers have their own settings.
   */
  public KafkaRows withConsumerProperty(String key, Object value) {
    if (OWN_PROPERTIES.containsKey(key)) {
      throw new IllegalArgumentException("the consumer property " + key + " is set by KafkaRows: " + OWN_PROPERTIES.get(key));
    }
    Map<String, Object> all = new LinkedHashMap<>(consumerProperties);
    all.put(key, value);
    return new KafkaRows(bootstrapServers, topic, Map.copyOf(all), startPosition, until, startOffsets, schema, sampleSize, stopReading, commitGroup);
  }

  /** Where a partition without a committed offset starts: {@value #EARLIEST} (default) or {@value #LATEST}. */
  public KafkaRows withStartPosition(String position) {
    String p = position == null ? "" : position.toLowerCase(Locale.ROOT);
    if (!p.equals(EARLIEST) && !p.equals(LATEST)) {
      throw new IllegalArgumentException("the start position '" + position + "' is unknown: give " + EARLIEST + " or " + LATEST);
    }
    return new KafkaRows(bootstrapServers, topic, consumerProperties, p, until, startOffsets, schema, sampleSize, stopReading, commitGroup);
  }

  /**
   * A bounded read: every partition up to the end offset it has when the pipeline is built, then
   * the read is done (the command line's {@code --until available}). Records produced later are
   * not read.
   */
  public KafkaRows withUntilAvailable() {
    return new KafkaRows(bootstrapServers, topic, consumerProperties, startPosition, Until.AVAILABLE, startOffsets, schema,
        sampleSize, stopReading, commitGroup);
  }

  /**
   * A live read that ends: every partition up to the end offset it has when the pipeline is
   * built, read as an <b>unbounded</b> collection (the runner in streaming mode, {@link
   * EventTimeWindow}'s live path: each window leaves as soon as the watermark closes it, several
   * partitions each with its own watermark), and the pipeline ends by itself once every
   * partition is read: the windows still open are emitted then (a drain), or handed to the state
   * with {@link EventTimeWindow#withState}. Spark's {@code AvailableNow} trigger, the command
   * line's {@code --until available} on a Beam runner. Records produced later are not read. On
   * the Flink runner with checkpoints on, also give {@code --shutdownSourcesAfterIdleMs=0}: else
   * Flink keeps the finished sources open for checkpoints and the job never ends.
   *
   * <pre>{@code
   * KafkaRows.Result in = p.apply(KafkaRows.read().withBootstrapServers("broker:9092")
   *     .withTopic("orders").withLiveUntilAvailable());
   * in.rows().apply(EventTimeWindow.of(WindowSpecs.tumbling(Duration.standardMinutes(1)))
   *     .withTimeField("event_time").withPartitionField(KafkaRows.PARTITION_FIELD)
   *     .withPartitions(in.partitions()));
   * p.run().waitUntilFinish(); // ends when every partition has reached its end offset
   * }</pre>
   */
  public KafkaRows withLiveUntilAvailable() {
    return new KafkaRows(bootstrapServers, topic, consumerProperties, startPosition, Until.LIVE_AVAILABLE, startOffsets, schema,
        sampleSize, stopReading, commitGroup);
  }

  /**
   * A live read that ends when told: every partition from its start, read as an <b>unbounded</b>
   * collection as with {@link #withLiveUntilAvailable()} (records produced while the pipeline runs
   * are read as they come), until {@code stopReading} returns true for the partition. It is asked
   * before each poll of the partition (at least every 200 ms); once it says stop, that partition's
   * read ends at the position it has reached, and the pipeline ends by itself when every partition's
   * read has ended: the windows still open are emitted then (a drain), or handed to the state with
   * {@link EventTimeWindow#withState}, whose next offsets are where each read ended. What a stop
   * signal does to a live run of the command line on a Beam runner; KafkaIO's {@code
   * withCheckStopReadingFn} in the terms of this read. The function runs on the workers: it is
   * serialized with the pipeline, so it reads something they can see (a file on a shared file
   * system, a flag in a store), not the driver's memory.
   *
   * <pre>{@code
   * // ends each partition's read once the file /shared/stop exists (a class of one's own, serializable)
   * KafkaRows.Result in = p.apply(KafkaRows.read().withBootstrapServers("broker:9092")
   *     .withTopic("orders").withLiveUntil(new StopWhenFileExists("/shared/stop")));
   * }</pre>
   */
  public KafkaRows withLiveUntil(SerializableFunction<Integer, Boolean> stopReading) {
    if (stopReading == null) {
      throw new IllegalArgumentException("withLiveUntil needs the function that says when a partition's read ends");
    }
    return new KafkaRows(bootstrapServers, topic, consumerProperties, startPosition, Until.LIVE_TOLD, startOffsets, schema,
        sampleSize, stopReading, commitGroup);
  }

  /**
   * Where each of the given partitions starts, over the consumer group's committed offset and the
   * start position: the next offsets a stored state holds, so that a run goes on where the last one
   * stopped. For the reads that end ({@link #withUntilAvailable()}, {@link
   * #withLiveUntilAvailable()}, {@link #withLiveUntil}); a partition the topic does not have is refused.
   */
  public KafkaRows withStartOffsets(Map<Integer, Long> offsets) {
    for (Map.Entry<Integer, Long> o : offsets.entrySet()) {
      if (o.getValue() == null || o.getValue() < 0) {
        throw new IllegalArgumentException("the start offset of partition " + o.getKey() + " is " + o.getValue()
            + ": give an offset from 0");
      }
    }
    return new KafkaRows(bootstrapServers, topic, consumerProperties, startPosition, until, Map.copyOf(offsets), schema,
        sampleSize, stopReading, commitGroup);
  }

  /**
   * Commits each partition's read position to the consumer group {@code group} as the read goes
   * on (at least every second while it reads, and where it ends), for monitoring: a lag tool shows
   * how far the pipeline has read. Where the read starts is not changed: a group given only here is
   * not asked for its offsets (give it as the consumer property {@code group.id} too for that). The
   * offsets are those read, not those whose windows have left: a stored state, not the group, is
   * what a restart goes on from. A failed commit is not the read's failure. A read that follows
   * the topic (no {@code withUntil...}) is then KafkaRows' own live read, as under {@link
   * #withLiveUntil} with no end, not KafkaIO's, which would start at the group's offsets.
   *
   * <pre>{@code
   * KafkaRows.Result in = p.apply(KafkaRows.read().withBootstrapServers("broker:9092")
   *     .withTopic("orders").withOffsetsCommittedTo("orders-windows"));
   * }</pre>
   */
  public KafkaRows withOffsetsCommittedTo(String group) {
    if (group == null || group.isBlank()) {
      throw new IllegalArgumentException("withOffsetsCommittedTo needs the consumer group to commit the offsets to");
    }
    return new KafkaRows(bootstrapServers, topic, consumerProperties, startPosition, until, startOffsets, schema,
        sampleSize, stopReading, group);
  }

  /** Where the read ends. */
  private enum Until {
    /** Never: it follows the topic until the pipeline is stopped (unbounded). */
    STOPPED,
    /** At the end offsets found when the pipeline is built, as a bounded read. */
    AVAILABLE,
    /** At the end offsets found when the pipeline is built, as an unbounded (live) read that ends. */
    LIVE_AVAILABLE,
    /** Where each partition is when the stop function says so, as an unbounded (live) read. */
    LIVE_TOLD
  }

  /**
   * Each record's value as it is, in the BYTES field {@value #VALUE_FIELD} (null for a record
   * without a value), its key in {@value #KEY_FIELD} (null for none) and its Kafka timestamp in
   * {@value #TIMESTAMP_FIELD}, beside the partition and offset: for a reader of its own after this
   * step, such as the command line's, which reads the values by its query's plan, or Hop's Event
   * Kafka Input's. Nothing is rejected here; no schema is inferred or given.
   *
   * <pre>{@code
   * PCollection<Row> raw = p.apply(KafkaRows.read().withBootstrapServers("broker:9092")
   *     .withTopic("orders").withRawValues()).rows(); // _value, _key, _timestamp, _partition, _arrival
   * }</pre>
   */
  public KafkaRows withRawValues() {
    return new KafkaRows(bootstrapServers, topic, consumerProperties, startPosition, until, startOffsets, RAW_VALUES,
        sampleSize, stopReading, commitGroup);
  }

  /** The schema of the values, instead of inferring it (without the partition and offset fields). */
  public KafkaRows withSchema(Schema s) {
    return new KafkaRows(bootstrapServers, topic, consumerProperties, startPosition, until, startOffsets, s, sampleSize, stopReading, commitGroup);
  }

  /** How many of the topic's first records the schema is inferred from (default 1000). */
  public KafkaRows withSampleSize(int records) {
    if (records < 1) {
      throw new IllegalArgumentException("the sample size must be at least 1 record, got " + records);
    }
    return new KafkaRows(bootstrapServers, topic, consumerProperties, startPosition, until, startOffsets, schema, records, stopReading, commitGroup);
  }

  /** The settings a runner's UI shows for this step. */
  @Override
  public void populateDisplayData(DisplayData.Builder builder) {
    super.populateDisplayData(builder);
    builder.addIfNotNull(DisplayData.item("bootstrapServers", bootstrapServers).withLabel("Bootstrap servers"));
    builder.addIfNotNull(DisplayData.item("topic", topic).withLabel("Topic"));
    builder.add(DisplayData.item("startPosition", startPosition).withLabel("Start position"));
    builder.add(DisplayData.item("until", switch (until) {
      case STOPPED -> "stopped";
      case AVAILABLE -> "available";
      case LIVE_AVAILABLE -> "available, live";
      case LIVE_TOLD -> "told, live";
    }).withLabel(switch (until) {
      case STOPPED -> "Reads until the pipeline is stopped";
      case AVAILABLE -> "Reads up to the end offsets found at start";
      case LIVE_AVAILABLE -> "Reads up to the end offsets found at start, as a live stream";
      case LIVE_TOLD -> "Reads as a live stream until the stop function says so";
    }));
    builder.add(DisplayData.item("consumerProperties", shownProperties()).withLabel("Consumer properties"));
    builder.addIfNotNull(DisplayData.item("commitGroup", commitGroup).withLabel("Read offsets committed to group"));
    if (schema != null) {
      builder.add(DisplayData.item("schema", schema.getFields().stream()
          .map(f -> f.getName() + " " + f.getType().getTypeName()).toList().toString()).withLabel("Schema"));
    } else {
      builder.add(DisplayData.item("schemaSampleSize", sampleSize).withLabel("Schema inferred from records"));
    }
    builder.add(DisplayData.item("partitionField", PARTITION_FIELD).withLabel("Partition field"));
    builder.add(DisplayData.item("arrivalField", OFFSET_FIELD).withLabel("Arrival position (offset) field"));
  }

  /** The consumer properties as a runner's UI may show them: secrets (passwords, JAAS settings, keys) hidden. */
  private String shownProperties() {
    Map<String, Object> shown = new java.util.TreeMap<>();
    consumerProperties.forEach((k, v) -> shown.put(k, k.matches("(?i).*(password|jaas|secret).*|.*\\.key") ? "(hidden)" : v));
    return shown.toString();
  }

  static final TupleTag<Row> ROWS = new TupleTag<>("rows") {};
  static final TupleTag<Row> REJECTED = new TupleTag<>("rejected") {};

  @Override
  public Result expand(PBegin begin) {
    Map<String, Object> config = consumerConfig();
    List<Integer> partitionNumbers = new ArrayList<>();
    Schema rowSchema;
    PCollectionTuple out;
    try (KafkaRowsTopic kafka = new KafkaRowsTopic(config, topic)) {
      List<TopicPartition> partitions = kafka.partitions();
      partitions.forEach(tp -> partitionNumbers.add(tp.partition()));
      rowSchema = withPositions(schema != null ? schema : kafka.inferSchema(partitions, sampleSize));
      KafkaRowsDecoder decoder = new KafkaRowsDecoder(topic, rowSchema);
      if (until == Until.STOPPED && !startOffsets.isEmpty()) {
        throw new IllegalArgumentException("withStartOffsets goes with a read that ends (withUntilAvailable,"
            + " withLiveUntilAvailable or withLiveUntil); a read that follows the topic starts at the group's offsets or the start position");
      }
      out = until != Until.STOPPED || commitGroup != null
          ? readRanges(begin, kafka, partitions, config, decoder)
          : begin.apply("ReadKafka", KafkaIO.<byte[], byte[]>read()
                  .withBootstrapServers(bootstrapServers)
                  .withTopicPartitions(partitions)
                  .withKeyDeserializer(ByteArrayDeserializer.class)
                  .withValueDeserializer(ByteArrayDeserializer.class)
                  .withConsumerConfigUpdates(config)
                  .withTimestampPolicyFactory(new KafkaRowsArrivalStamps.PolicyFactory()))
              .apply("DecodeValues", ParDo.of(new DecodeRecordFn(decoder)).withOutputTags(ROWS, TupleTagList.of(REJECTED)));
    }
    out.get(ROWS).setRowSchema(rowSchema);
    out.get(REJECTED).setRowSchema(REJECTED_SCHEMA);
    return new Result(out, partitionNumbers);
  }

  private PCollectionTuple readRanges(PBegin begin, KafkaRowsTopic kafka, List<TopicPartition> partitions,
      Map<String, Object> config, KafkaRowsDecoder decoder) {
    Map<Integer, Long> start = new java.util.TreeMap<>(kafka.startOffsets(partitions, EARLIEST.equals(startPosition),
        config.containsKey(ConsumerConfig.GROUP_ID_CONFIG)));
    for (Map.Entry<Integer, Long> given : startOffsets.entrySet()) {
      if (!start.containsKey(given.getKey())) {
        throw new IllegalArgumentException("a start offset is given for partition " + given.getKey() + ", which topic "
            + topic + " does not have (its partitions: " + start.keySet() + ")");
      }
      start.put(given.getKey(), given.getValue());
    }
    // a read until told (or that follows the topic) has no end offset: every partition is read, also one without records yet
    boolean openEnded = until == Until.LIVE_TOLD || until == Until.STOPPED;
    SerializableFunction<Integer, Boolean> stop = until == Until.STOPPED ? new NeverStop() : stopReading;
    Map<Integer, Long> end = openEnded ? null : kafka.endOffsets(partitions);
    List<KV<Integer, KV<Long, Long>>> ranges = new ArrayList<>();
    start.forEach((partition, from) -> {
      long to = end == null ? Long.MAX_VALUE : end.get(partition);
      if (from < to) {
        ranges.add(KV.of(partition, KV.of(from, to)));
      }
    });
    // a read until told is fed from a source that stays open until then (KafkaRowsOpenRanges says why)
    PCollection<KV<Integer, KV<Long, Long>>> offsetRanges = openEnded
        ? begin.apply("OffsetRanges", Read.from(new KafkaRowsOpenRanges(ranges, stop)))
        : begin.apply("OffsetRanges", Create.of(ranges)
            .withCoder(KvCoder.of(VarIntCoder.of(), KvCoder.of(VarLongCoder.of(), VarLongCoder.of()))));
    return offsetRanges
        .apply("SpreadPartitions", Reshuffle.viaRandomKey())
        .apply("ReadRanges", (until != Until.AVAILABLE
            ? ParDo.of(new KafkaRowsLiveRangeReadFn(new KafkaRowsRange(topic, config, decoder, commitGroup), stop))
            : ParDo.of(new KafkaRowsRangeReadFn(new KafkaRowsRange(topic, config, decoder, commitGroup))))
            .withOutputTags(ROWS, TupleTagList.of(REJECTED)));
  }

  /** The consumer's properties: ours, then the user's, refusing a read that is not set up. */
  private Map<String, Object> consumerConfig() {
    if (bootstrapServers == null || bootstrapServers.isBlank()) {
      throw new IllegalArgumentException("KafkaRows needs the Kafka brokers to connect to: give withBootstrapServers(\"host:port\")");
    }
    if (topic == null || topic.isBlank()) {
      throw new IllegalArgumentException("KafkaRows needs a topic to read: give withTopic(name)");
    }
    if (schema != null && !schema.equals(RAW_VALUES)) {
      for (Schema.Field f : schema.getFields()) {
        if (BeamValues.coreType(f.getType()) == null) {
          throw new IllegalArgumentException("field " + f.getName() + " of type " + f.getType()
              + " cannot be read from JSON: give it a type of " + BeamValues.class.getSimpleName() + "'s (STRING, INT64, DOUBLE, BOOLEAN, DATETIME...)");
        }
      }
    }
    Object startGroup = consumerProperties.get(ConsumerConfig.GROUP_ID_CONFIG);
    if (commitGroup != null && startGroup != null && !commitGroup.equals(startGroup)) {
      throw new IllegalArgumentException("the read starts at the offsets of group " + startGroup + " (group.id) but commits"
          + " to group " + commitGroup + " (withOffsetsCommittedTo): give one group");
    }
    Map<String, Object> config = new HashMap<>(consumerProperties);
    config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, startPosition);
    return config;
  }

  /** The stop function of a read that follows the topic until the pipeline is stopped: never. */
  private static final class NeverStop implements SerializableFunction<Integer, Boolean> {
    private static final long serialVersionUID = 1L;

    @Override
    public Boolean apply(Integer partition) {
      return false;
    }
  }

  private static Schema withPositions(Schema values) {
    if (values.hasField(VALUE_FIELD) && !values.equals(RAW_VALUES)) {
      throw new IllegalArgumentException("the schema has a field named '" + VALUE_FIELD + "', which KafkaRows uses for"
          + " the raw value (withRawValues): rename that field in the data");
    }
    for (String own : Set.of(PARTITION_FIELD, OFFSET_FIELD)) {
      if (values.hasField(own)) {
        throw new IllegalArgumentException("the rows already have a field named '" + own + "', which KafkaRows uses for the "
            + (own.equals(PARTITION_FIELD) ? "partition" : "offset") + ": rename that field in the data");
      }
    }
    return Schema.builder().addFields(values.getFields()).addInt32Field(PARTITION_FIELD).addInt64Field(OFFSET_FIELD).build();
  }

  /** Each record KafkaIO read, as a row or a rejected row; the element keeps its arrival stamp. */
  private static final class DecodeRecordFn extends DoFn<KafkaRecord<byte[], byte[]>, Row> {
    private final KafkaRowsDecoder decoder;
    private final org.apache.beam.sdk.metrics.Counter rowsIn = EventTimeMetrics.counter(EventTimeMetrics.ROWS_IN);
    private final org.apache.beam.sdk.metrics.Counter rowsRejected = EventTimeMetrics.counter(EventTimeMetrics.ROWS_REJECTED);

    DecodeRecordFn(KafkaRowsDecoder decoder) {
      this.decoder = decoder;
    }

    @ProcessElement
    public void process(@Element KafkaRecord<byte[], byte[]> record, MultiOutputReceiver out) {
      KafkaRowsDecoder.Decoded d = decoder.decode(record.getPartition(), record.getOffset(), record.getTimestamp(),
          record.getKV().getKey(), record.getKV().getValue());
      if (d.row() != null) {
        out.get(ROWS).output(d.row());
      } else {
        rowsIn.inc();
        rowsRejected.inc();
        out.get(REJECTED).output(d.rejected());
      }
    }
  }

  /** The rows read, the records rejected, and the topic's partitions when the pipeline was built. */
  public static final class Result implements POutput {
    private final PCollection<Row> rows;
    private final PCollection<Row> rejected;
    private final List<Integer> partitions;

    private Result(PCollectionTuple outputs, List<Integer> partitions) {
      this.rows = outputs.get(ROWS);
      this.rejected = outputs.get(REJECTED);
      this.partitions = List.copyOf(partitions);
    }

    /** The rows, with the partition in {@value #PARTITION_FIELD} and the offset in {@value #OFFSET_FIELD}. */
    public PCollection<Row> rows() {
      return rows;
    }

    /** The rejected records: topic, partition, offset, field, text and reason ({@link #REJECTED_SCHEMA}). */
    public PCollection<Row> rejected() {
      return rejected;
    }

    /** The topic's partition numbers, in order, as the read found them when the pipeline was built. */
    public List<Integer> partitions() {
      return partitions;
    }

    @Override
    public Pipeline getPipeline() {
      return rows.getPipeline();
    }

    @Override
    public Map<TupleTag<?>, PValue> expand() {
      Map<TupleTag<?>, PValue> outputs = new LinkedHashMap<>();
      outputs.put(ROWS, rows);
      outputs.put(REJECTED, rejected);
      return outputs;
    }

    @Override
    public void finishSpecifyingOutput(String name, PInput input, PTransform<?, ?> transform) {}
  }
}
