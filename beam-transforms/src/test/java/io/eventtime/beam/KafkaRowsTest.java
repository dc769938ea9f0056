package io.eventtime.beam;

import static io.eventtime.core.contract.WorkedExamples.A;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.eventtime.core.AggregateSpec;
import io.eventtime.core.LatePolicy;
import io.eventtime.core.WindowSpec;
import io.eventtime.testing.kafka.KafkaBroker;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.beam.runners.direct.DirectOptions;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.schemas.Schema.FieldType;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.display.DisplayData;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.joda.time.Instant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link KafkaRows} against a real broker (KRaft, 127.0.0.1, started once for the class), on the Direct runner. */
class KafkaRowsTest {
  private static KafkaBroker broker;

  @TempDir
  Path dir;

  @BeforeAll
  static void startBroker() {
    broker = KafkaBroker.start();
  }

  @AfterAll
  static void closeBroker() {
    broker.close();
  }

  private static Pipeline pipeline() {
    return Pipeline.create(PipelineOptionsFactory.fromArgs("--runner=DirectRunner").create());
  }

  private static KafkaRows read(String topic) {
    return KafkaRows.read().withBootstrapServers(broker.bootstrapServers()).withTopic(topic);
  }

  @Test
  void untilAvailable_readsEveryPartitionUpToTheEndOffsetsFoundWhenThePipelineIsBuilt() {
    broker.createTopic("orders3", 3);
    broker.produce("orders3", 0, "{\"ts\":\"2026-03-01 00:01:00\",\"user\":\"ann\",\"amount\":3}",
        "{\"ts\":\"2026-03-01 00:02:00\",\"user\":\"bob\",\"amount\":4}");
    broker.produce("orders3", 2, "{\"ts\":\"2026-03-01 00:00:30\",\"user\":\"cy\",\"amount\":-1}");
    broker.produce("orders3", 0, "{\"ts\":\"2026-03-01 00:03:00\",\"user\":\"ann\",\"amount\":5}");

    Pipeline p = pipeline();
    KafkaRows.Result read = p.apply(read("orders3").withUntilAvailable());
    // produced after the pipeline was built: beyond the end offsets, so not read
    broker.produce("orders3", 1, "{\"ts\":\"2026-03-01 00:09:00\",\"user\":\"late\",\"amount\":9}");
    broker.produce("orders3", 0, "{\"ts\":\"2026-03-01 00:09:00\",\"user\":\"late\",\"amount\":9}");

    assertThat(read.partitions()).containsExactly(0, 1, 2);
    assertThat(read.rows().isBounded()).isEqualTo(PCollection.IsBounded.BOUNDED);
    assertThat(fields(read.rows().getSchema())).containsExactly(
        "ts DATETIME", "user STRING", "amount INT64", "_partition INT32", "_arrival INT64");
    PAssert.that(text(read.rows())).containsInAnyOrder(
        "2026-03-01T00:01:00.000Z|ann|3|0|0",
        "2026-03-01T00:02:00.000Z|bob|4|0|1",
        "2026-03-01T00:03:00.000Z|ann|5|0|2",
        "2026-03-01T00:00:30.000Z|cy|-1|2|0");
    PAssert.that(read.rejected()).empty();
    p.run().waitUntilFinish();
  }

  @Test
  void badRecordsAreRejectedWithPartitionOffsetAndReason_andTheReadGoesOn() {
    broker.createTopic("bad1", 1);
    byte[] notUtf8 = "{\"ts\":\"2026-03-01 00:01:00\",\"user\":\"caf\u00e9\"}".getBytes(StandardCharsets.ISO_8859_1);
    broker.produce("bad1", 0, "{\"ts\":\"2026-03-01 00:01:00\",\"user\":\"ann\",\"amount\":3}".getBytes(StandardCharsets.UTF_8),
        "{\"ts\":\"2026-03-01 00:02:00\",\"user\":".getBytes(StandardCharsets.UTF_8),
        notUtf8,
        "{\"ts\":\"2026-03-01 00:03:00\",\"user\":\"bob\",\"amount\":\"many\"}".getBytes(StandardCharsets.UTF_8),
        null,
        "[1,2]".getBytes(StandardCharsets.UTF_8),
        "{\"user\":\"cy\",\"amount\":7}".getBytes(StandardCharsets.UTF_8));

    Pipeline p = pipeline();
    // the schema from the first record alone (amount INT64): a larger sample would see "many" and make amount a STRING
    KafkaRows.Result read = p.apply(read("bad1").withSampleSize(1).withUntilAvailable());
    PAssert.that(text(read.rows())).containsInAnyOrder(
        "2026-03-01T00:01:00.000Z|ann|3|0|0",
        // the time is missing: the row goes on, and EventTimeWindow rejects it (see exampleA_...)
        "null|cy|7|0|6");
    PAssert.that(text(read.rejected())).containsInAnyOrder(
        "bad1|0|1|null|{\"ts\":\"2026-03-01 00:02:00\",\"user\":|offset 1 of partition 0 of topic bad1: "
            + reasonOf("{\"ts\":\"2026-03-01 00:02:00\",\"user\":"),
        "bad1|0|2|null|" + new String(notUtf8, StandardCharsets.UTF_8) + "|offset 2 of partition 0 of topic bad1: "
            + "the value is not UTF-8 text (0xe9 at byte 40 of the value)",
        "bad1|0|3|amount|{\"ts\":\"2026-03-01 00:03:00\",\"user\":\"bob\",\"amount\":\"many\"}|offset 3 of partition 0 "
            + "of topic bad1: field amount: 'many' is not a number (the column is INT64)",
        "bad1|0|4|null|null|offset 4 of partition 0 of topic bad1: the record has no value",
        "bad1|0|5|null|[1,2]|offset 5 of partition 0 of topic bad1: the line is not a JSON object (it starts with '[')");
    PipelineResult result = p.run();
    result.waitUntilFinish();
    assertThat(EventTimeMetrics.stats(result).rowsRejected()).isEqualTo(5);
  }

  /** The reason core's NDJSON parser gives for a line, as NdjsonIO writes it. */
  private static String reasonOf(String line) {
    try {
      io.eventtime.core.ndjson.NdjsonLines.parse(line);
      throw new AssertionError("the line parses: " + line);
    } catch (io.eventtime.core.ndjson.MalformedLineException e) {
      return (e.field() == null ? "" : "field " + e.field() + ": ") + e.getMessage();
    }
  }

  @Test
  void aFieldTheGivenSchemaRequiresIsRejectedWhenMissingOrNull() {
    broker.createTopic("required1", 1);
    broker.produce("required1", 0, "{\"ts\":\"2026-03-01 00:01:00\",\"n\":1}", "{\"n\":2}", "{\"ts\":null,\"n\":3}",
        "{\"ts\":\"2026-03-01 00:04:00\"}");
    Schema schema = Schema.builder().addDateTimeField("ts").addNullableField("n", FieldType.INT64).build();

    Pipeline p = pipeline();
    KafkaRows.Result read = p.apply(read("required1").withSchema(schema).withUntilAvailable());
    PAssert.that(text(read.rows())).containsInAnyOrder("2026-03-01T00:01:00.000Z|1|0|0", "2026-03-01T00:04:00.000Z|null|0|3");
    PAssert.that(text(read.rejected())).containsInAnyOrder(
        "required1|0|1|ts|{\"n\":2}|offset 1 of partition 0 of topic required1: field ts: the field is missing, and the schema requires it",
        "required1|0|2|ts|{\"ts\":null,\"n\":3}|offset 2 of partition 0 of topic required1: field ts: the value is null, and the schema requires it");
    p.run().waitUntilFinish();
  }

  @Test
  void theInferredSchemaIsNdjsonIOsForTheSameLines() throws IOException {
    List<String> lines = List.of(
        "{\"id\":1,\"ts\":\"2026-03-01T00:01:00Z\",\"price\":2,\"ok\":true}",
        "not json",
        "{\"id\":2,\"ts\":\"2026-03-01T00:02:00Z\",\"price\":2.5,\"tag\":\"x\"}",
        "{\"id\":\"three\",\"extra\":1}");
    broker.createTopic("infer1", 1);
    broker.produce("infer1", 0, lines.toArray(String[]::new));
    Path file = dir.resolve("lines.ndjson");
    Files.write(file, lines);

    for (int sample : new int[] {2, 1000}) {
      Pipeline p = pipeline();
      Schema fromKafka = p.apply("Kafka", read("infer1").withSampleSize(sample).withUntilAvailable()).rows().getSchema();
      Schema fromFile = p.apply("File", NdjsonIO.read(file.toString()).withSampleSize(sample)).rows().getSchema();
      List<String> kafkaFields = fields(fromKafka);
      List<String> fileFields = fields(fromFile);
      assertThat(kafkaFields.subList(0, kafkaFields.size() - 2)).as("sample " + sample)
          .isEqualTo(fileFields.subList(0, fileFields.size() - 1));
    }
    assertThat(fields(pipeline().apply(read("infer1").withSampleSize(2).withUntilAvailable()).rows().getSchema()))
        .containsExactly("id INT64", "ts DATETIME", "price DOUBLE", "ok BOOLEAN", "tag STRING", "_partition INT32", "_arrival INT64");
  }

  @Test
  void exampleA_throughEventTimeWindow_givesExampleAsRows() {
    broker.createTopic("exampleA", 1);
    broker.produce("exampleA", 0, A.times().stream().map(t -> "{\"event_time\":\"" + t + "\"}").toArray(String[]::new));
    broker.produce("exampleA", 0, "{\"no_time\":1}");

    Pipeline p = pipeline();
    KafkaRows.Result in = p.apply(read("exampleA").withUntilAvailable());
    EventTimeWindowResult tumbling = in.rows().apply("Tumbling", EventTimeWindow.of(WindowSpec.tumbling(A.tumbling().sizeMillis()))
        .withTimeField("event_time").withWatermarkDelay(java.time.Duration.ofMillis(A.delayMillis()))
        .withLatePolicy(LatePolicy.parse(A.policy())).withAggregates(AggregateSpec.countAll("events")));
    PAssert.that(ConformanceSuite.format("TumblingRows", tumbling.windows())).containsInAnyOrder(A.tumbling().texts());
    // the offsets are the arrival positions: example A's arrival n is offset n - 1 (rows: event_time, no_time, _partition, _arrival)
    PAssert.that(ConformanceSuite.format("TumblingLate", tumbling.late())).containsInAnyOrder(A.late().stream()
        .map(l -> l.time() + "|null|0|" + (l.arrival() - 1) + "|event_time|arrival " + (l.arrival() - 1) + ": event time " + l.time()
            + " is behind the watermark " + l.watermark() + " (late policy " + A.policy() + ")")
        .toList());
    int noTime = A.times().size();
    PAssert.that(ConformanceSuite.format("TumblingRejected", tumbling.rejected()))
        .containsInAnyOrder("null|1|0|" + noTime + "|event_time|arrival " + noTime + ", field event_time: the time is null");
    PipelineResult result = p.run();
    result.waitUntilFinish();
    io.eventtime.core.Stats a = A.tumbling().stats();
    assertThat(EventTimeMetrics.stats(result, "Tumbling")).isEqualTo(new io.eventtime.core.Stats(a.rowsIn() + 1,
        a.rowsOut(), a.lateDropped(), a.windowsClosed(), a.rowsFolded(), a.rowsRejected() + 1));
  }

  @Test
  void aConsumerGroupsCommittedOffsetsAreWhereABoundedReadStarts() {
    broker.createTopic("grouped2", 2);
    broker.produce("grouped2", 0, "{\"n\":0}", "{\"n\":1}", "{\"n\":2}");
    broker.produce("grouped2", 1, "{\"n\":10}", "{\"n\":11}");
    Properties props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
    props.put(ConsumerConfig.GROUP_ID_CONFIG, "second-run");
    try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      c.commitSync(Map.of(new TopicPartition("grouped2", 0), new OffsetAndMetadata(2)));
    }

    Pipeline p = pipeline();
    KafkaRows.Result read = p.apply(read("grouped2").withConsumerProperty("group.id", "second-run").withUntilAvailable());
    // partition 0 from its committed offset 2; partition 1 has none, so from the earliest
    PAssert.that(text(read.rows())).containsInAnyOrder("2|0|2", "10|1|0", "11|1|1");
    p.run().waitUntilFinish();
  }

  /**
   * {@link KafkaRows#withOffsetsCommittedTo}: the group is told where each partition's read got to,
   * by a bounded read, a live read that ends and a read that follows the topic (KafkaRows' own read
   * then, not KafkaIO's); and it is not where the reads start (the group's offset 2 in partition 0
   * is passed over: every read starts at the first offset).
   */
  @Test
  void withOffsetsCommittedTo_tellsTheGroupWhereEachReadGot_butTheReadsStartAtTheStartPosition() throws Exception {
    broker.createTopic("watched2", 2);
    broker.produce("watched2", 0, "{\"n\":0}", "{\"n\":1}", "{\"n\":2}");
    broker.produce("watched2", 1, "{\"n\":10}");
    commit("bounded", "watched2", 0, 2);
    Schema n = Schema.builder().addInt64Field("n").build();
    Pipeline p = pipeline();
    PAssert.that(text(p.apply("Bounded", read("watched2").withSchema(n).withUntilAvailable()
        .withOffsetsCommittedTo("bounded")).rows())).containsInAnyOrder("0|0|0", "1|0|1", "2|0|2", "10|1|0");
    PAssert.that(text(p.apply("Live", read("watched2").withSchema(n).withLiveUntilAvailable()
        .withOffsetsCommittedTo("live")).rows())).containsInAnyOrder("0|0|0", "1|0|1", "2|0|2", "10|1|0");
    p.run().waitUntilFinish();
    assertThat(broker.committedOffsets("bounded", "watched2")).isEqualTo(Map.of(0, 3L, 1, 1L));
    assertThat(broker.committedOffsets("live", "watched2")).isEqualTo(Map.of(0, 3L, 1, 1L));

    commit("following", "watched2", 0, 2);
    Collected.ROWS.clear();
    DirectOptions options = PipelineOptionsFactory.fromArgs("--runner=DirectRunner").as(DirectOptions.class);
    options.setBlockOnRun(false);
    Pipeline following = Pipeline.create(options);
    KafkaRows.Result read = following.apply(read("watched2").withSchema(n).withOffsetsCommittedTo("following"));
    assertThat(read.rows().isBounded()).isEqualTo(PCollection.IsBounded.UNBOUNDED);
    read.rows().apply(ParDo.of(new Collected()));
    PipelineResult result = following.run();
    try {
      awaitCollected(4);
      broker.produce("watched2", 1, "{\"n\":11}");
      awaitCollected(5);
      for (int i = 0; i < 300 && !broker.committedOffsets("following", "watched2").equals(Map.of(0, 3L, 1, 2L)); i++) {
        Thread.sleep(100);
      }
    } finally {
      result.cancel();
    }
    assertThat(Collected.ROWS.stream().map(r -> r.substring(0, r.indexOf('@'))).toList())
        .containsExactlyInAnyOrder("0|0|0", "1|0|1", "2|0|2", "10|1|0", "11|1|1");
    assertThat(broker.committedOffsets("following", "watched2")).isEqualTo(Map.of(0, 3L, 1, 2L));
  }

  private static Properties groupProperties(String group) {
    Properties props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
    props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
    return props;
  }

  private static void commit(String group, String topic, int partition, long offset) {
    try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(groupProperties(group), new ByteArrayDeserializer(),
        new ByteArrayDeserializer())) {
      c.commitSync(Map.of(new TopicPartition(topic, partition), new OffsetAndMetadata(offset)));
    }
  }

  @Test
  void unbounded_followsTheTopicWhileThePipelineRuns_stampsFollowTheOffsetsOfEachPartition() throws Exception {
    broker.createTopic("live3", 3);
    broker.produce("live3", 0, "{\"n\":0}", "{\"n\":1}");
    broker.produce("live3", 2, "{\"n\":20}");
    Collected.ROWS.clear();

    DirectOptions options = PipelineOptionsFactory.fromArgs("--runner=DirectRunner").as(DirectOptions.class);
    options.setBlockOnRun(false);
    Pipeline p = Pipeline.create(options);
    KafkaRows.Result read = p.apply(read("live3").withSchema(Schema.builder().addInt64Field("n").build()));
    assertThat(read.rows().isBounded()).isEqualTo(PCollection.IsBounded.UNBOUNDED);
    read.rows().apply(ParDo.of(new Collected()));
    read.rejected().apply("CollectRejected", ParDo.of(new Collected()));
    PipelineResult result = p.run();
    try {
      awaitCollected(3);
      broker.produce("live3", 1, "{\"n\":10}", "{\"n\":\"eleven\"}");
      broker.produce("live3", 0, "{\"n\":2}");
      awaitCollected(6);
    } finally {
      result.cancel();
    }
    List<String> rows = Collected.ROWS.stream().map(s -> s.substring(0, s.indexOf('@'))).toList();
    assertThat(rows).containsExactlyInAnyOrder("0|0|0", "1|0|1", "2|0|2", "20|2|0", "10|1|0",
        "live3|1|1|n|{\"n\":\"eleven\"}|offset 1 of partition 1 of topic live3: field n: 'eleven' is not a number (the column is INT64)");
    // within a partition, a later offset never has an earlier stamp
    Map<String, Instant> stampByPosition = new TreeMap<>();
    for (String s : Collected.ROWS) {
      String[] f = s.substring(0, s.indexOf('@')).split("\\|");
      stampByPosition.put(f[1] + "@" + f[2], Instant.parse(s.substring(s.indexOf('@') + 1)));
    }
    assertThat(stampByPosition.get("0@1")).isGreaterThanOrEqualTo(stampByPosition.get("0@0"));
    assertThat(stampByPosition.get("0@2")).isGreaterThanOrEqualTo(stampByPosition.get("0@1"));
    assertThat(stampByPosition.get("1@1")).isGreaterThanOrEqualTo(stampByPosition.get("1@0"));
  }

  /**
   * Example L2 of the contract from a two-partition topic, read unbounded while the pipeline runs,
   * through the live EventTimeWindow with the topic's partitions: each partition's late row leaves
   * with its partition in the reason, and window 00:00 leaves with 3 rows once both partitions'
   * watermarks have closed it (the windows still open stay in).
   */
  @Test
  void unbounded_twoPartitions_exampleL2_lateByOwnPartition_windowAtTheLeastWatermark() throws Exception {
    broker.createTopic("l2", 2);
    broker.produce("l2", 0, l2Values("00:01", "00:12", "00:03", "00:22"));
    broker.produce("l2", 1, l2Values("00:02", "00:05", "00:14", "00:08"));
    Collected.ROWS.clear();
    DirectOptions options = PipelineOptionsFactory.fromArgs("--runner=DirectRunner").as(DirectOptions.class);
    options.setBlockOnRun(false);
    Pipeline p = Pipeline.create(options);
    KafkaRows.Result read = p.apply(read("l2").withSchema(Schema.builder().addStringField("k")
        .addStringField("event_time").build()));
    assertThat(read.partitions()).containsExactly(0, 1);
    EventTimeWindowResult r = read.rows().apply(EventTimeWindow.of(WindowSpec.tumbling(600_000))
        .withTimeField("event_time").withKeys("k").withAggregates(AggregateSpec.countAll("n"))
        .withPartitionField(KafkaRows.PARTITION_FIELD).withPartitions(read.partitions()));
    r.windows().apply("CollectWindows", ParDo.of(new Collected()));
    r.late().apply("CollectLate", ParDo.of(new CollectedReasons()));
    PipelineResult result = p.run();
    try {
      awaitCollected(3);
    } finally {
      result.cancel();
    }
    List<String> rows = Collected.ROWS.stream().map(s -> s.substring(0, s.indexOf('@'))).toList();
    assertThat(rows).containsExactlyInAnyOrder("k|2026-03-01T00:00:00.000Z|2026-03-01T00:10:00.000Z|3",
        "partition 0, arrival 2: every window of event time 2026-03-01 00:03:00 had closed at watermark"
            + " 2026-03-01 00:12:00 (late policy window)",
        "partition 1, arrival 3: every window of event time 2026-03-01 00:08:00 had closed at watermark"
            + " 2026-03-01 00:14:00 (late policy window)");
  }

  /**
   * Example L2 read with {@link KafkaRows#withLiveUntilAvailable()}: an unbounded collection (the
   * live path) that ends by itself at the end offsets found when the pipeline was built; the end
   * drains, so the windows still open leave too, and the stats are the contract's for L2 drained.
   */
  @Test
  void liveUntilAvailable_isALiveStreamThatEnds_exampleL2DrainedAtItsEnd() {
    broker.createTopic("l2live", 2);
    broker.produce("l2live", 0, l2Values("00:01", "00:12", "00:03", "00:22"));
    broker.produce("l2live", 1, l2Values("00:02", "00:05", "00:14", "00:08"));
    Pipeline p = pipeline();
    KafkaRows.Result read = p.apply(read("l2live").withSchema(Schema.builder().addStringField("k")
        .addStringField("event_time").build()).withLiveUntilAvailable());
    broker.produce("l2live", 1, l2Values("00:30")); // after the ends were found: not read
    assertThat(read.rows().isBounded()).isEqualTo(PCollection.IsBounded.UNBOUNDED);
    EventTimeWindowResult r = read.rows().apply("Window", EventTimeWindow.of(WindowSpec.tumbling(600_000))
        .withTimeField("event_time").withKeys("k").withAggregates(AggregateSpec.countAll("n"))
        .withPartitionField(KafkaRows.PARTITION_FIELD).withPartitions(read.partitions()));
    PAssert.that(text(r.windows())).containsInAnyOrder("k|2026-03-01T00:00:00.000Z|2026-03-01T00:10:00.000Z|3",
        "k|2026-03-01T00:10:00.000Z|2026-03-01T00:20:00.000Z|2", "k|2026-03-01T00:20:00.000Z|2026-03-01T00:30:00.000Z|1");
    PAssert.that(r.late().apply("Reasons", org.apache.beam.sdk.transforms.MapElements
        .into(org.apache.beam.sdk.values.TypeDescriptors.strings()).via((Row l) -> l.getString(ProblemRows.REASON))))
        .containsInAnyOrder(
            "partition 0, arrival 2: every window of event time 2026-03-01 00:03:00 had closed at watermark"
                + " 2026-03-01 00:12:00 (late policy window)",
            "partition 1, arrival 3: every window of event time 2026-03-01 00:08:00 had closed at watermark"
                + " 2026-03-01 00:14:00 (late policy window)");
    PipelineResult result = p.run();
    assertThat(result.waitUntilFinish()).isEqualTo(PipelineResult.State.DONE);
    assertThat(EventTimeMetrics.stats(result, "Window")).isEqualTo(new io.eventtime.core.Stats(8, 3, 2, 3, 6, 0));
  }

  /**
   * Example L2 read with {@link KafkaRows#withLiveUntil}: the read follows the topic (rows produced
   * while the pipeline runs are read), window 00:00 and the late rows leave while it runs, and once
   * the stop function says so every partition's read ends where it is and the end drains the
   * windows still open: the contract's rows and stats for L2 drained.
   */
  @Test
  void liveUntil_followsTheTopicUntilTold_thenDrains_exampleL2() throws Exception {
    broker.createTopic("l2told", 2);
    broker.produce("l2told", 0, l2Values("00:01", "00:12", "00:03", "00:22"));
    broker.produce("l2told", 1, l2Values("00:02"));
    Collected.ROWS.clear();
    DirectOptions options = PipelineOptionsFactory.fromArgs("--runner=DirectRunner").as(DirectOptions.class);
    options.setBlockOnRun(false);
    Pipeline p = Pipeline.create(options);
    Path stop = dir.resolve("stop");
    KafkaRows.Result read = p.apply(read("l2told").withSchema(Schema.builder().addStringField("k")
        .addStringField("event_time").build()).withLiveUntil(new StopWhenFileExists(stop.toString())));
    assertThat(read.rows().isBounded()).isEqualTo(PCollection.IsBounded.UNBOUNDED);
    EventTimeWindowResult r = read.rows().apply("Window", EventTimeWindow.of(WindowSpec.tumbling(600_000))
        .withTimeField("event_time").withKeys("k").withAggregates(AggregateSpec.countAll("n"))
        .withPartitionField(KafkaRows.PARTITION_FIELD).withPartitions(read.partitions()));
    r.windows().apply("CollectWindows", ParDo.of(new Collected()));
    r.late().apply("CollectLate", ParDo.of(new CollectedReasons()));
    PipelineResult result = p.run();
    String first = "k|2026-03-01T00:00:00.000Z|2026-03-01T00:10:00.000Z|3";
    String late0 = "partition 0, arrival 2: every window of event time 2026-03-01 00:03:00 had closed at watermark"
        + " 2026-03-01 00:12:00 (late policy window)";
    String late1 = "partition 1, arrival 3: every window of event time 2026-03-01 00:08:00 had closed at watermark"
        + " 2026-03-01 00:14:00 (late policy window)";
    try {
      awaitCollected(1); // partition 0's late row; partition 1 holds every window back
      broker.produce("l2told", 1, l2Values("00:05", "00:14", "00:08"));
      awaitCollected(3);
      assertThat(Collected.ROWS.stream().map(s -> s.substring(0, s.indexOf('@'))))
          .containsExactlyInAnyOrder(first, late0, late1); // while the read goes on: 00:10 and 00:20 stay open
      Files.createFile(stop);
      assertThat(result.waitUntilFinish(org.joda.time.Duration.standardMinutes(2))).isEqualTo(PipelineResult.State.DONE);
    } finally {
      if (result.getState() != PipelineResult.State.DONE) {
        result.cancel();
      }
    }
    assertThat(Collected.ROWS.stream().map(s -> s.substring(0, s.indexOf('@')))).containsExactlyInAnyOrder(first, late0,
        late1, "k|2026-03-01T00:10:00.000Z|2026-03-01T00:20:00.000Z|2", "k|2026-03-01T00:20:00.000Z|2026-03-01T00:30:00.000Z|1");
    assertThat(EventTimeMetrics.stats(result, "Window")).isEqualTo(new io.eventtime.core.Stats(8, 3, 2, 3, 6, 0));
  }

  /** Ends every partition's read once a file exists: the stop function of {@link #liveUntil_followsTheTopicUntilTold_thenDrains_exampleL2}. */
  static final class StopWhenFileExists implements org.apache.beam.sdk.transforms.SerializableFunction<Integer, Boolean> {
    private final String file;

    StopWhenFileExists(String file) {
      this.file = file;
    }

    @Override
    public Boolean apply(Integer partition) {
      return Files.exists(Path.of(file));
    }
  }

  /** A committed transaction ends a partition with a marker, an offset without a record: the live read still ends. */
  @Test
  void liveUntilAvailable_endsAtATransactionMarker() throws InterruptedException {
    broker.createTopic("txlive", 1);
    Properties props = new Properties();
    props.put("bootstrap.servers", broker.bootstrapServers());
    props.put("transactional.id", "txlive-test");
    try (org.apache.kafka.clients.producer.KafkaProducer<byte[], byte[]> producer =
        new org.apache.kafka.clients.producer.KafkaProducer<>(props,
            new org.apache.kafka.common.serialization.ByteArraySerializer(),
            new org.apache.kafka.common.serialization.ByteArraySerializer())) {
      producer.initTransactions();
      producer.beginTransaction();
      for (String v : l2Values("00:01", "00:02")) {
        producer.send(new org.apache.kafka.clients.producer.ProducerRecord<>("txlive", 0, null,
            v.getBytes(StandardCharsets.UTF_8)));
      }
      producer.commitTransaction();
    }
    for (int i = 0; i < 300 && broker.endOffsets("txlive").get(0) < 3; i++) {
      Thread.sleep(100); // the coordinator writes the commit marker after the commit returns
    }
    assertThat(broker.endOffsets("txlive")).containsEntry(0, 3L); // two records and the commit marker
    Pipeline p = pipeline();
    KafkaRows.Result read = p.apply(read("txlive").withSchema(Schema.builder().addStringField("k")
        .addStringField("event_time").build()).withLiveUntilAvailable());
    PAssert.that(text(read.rows())).containsInAnyOrder("k|2026-03-01 00:01:00|0|0", "k|2026-03-01 00:02:00|0|1");
    assertThat(p.run().waitUntilFinish()).isEqualTo(PipelineResult.State.DONE);
  }

  private static String[] l2Values(String... times) {
    String[] values = new String[times.length];
    for (int i = 0; i < times.length; i++) {
      values[i] = "{\"k\":\"k\",\"event_time\":\"2026-03-01 " + times[i] + ":00\"}";
    }
    return values;
  }

  /** The reason of every late row seen, beside {@link Collected}'s rows. */
  static final class CollectedReasons extends DoFn<Row, Void> {
    @ProcessElement
    public void process(@Element Row row, @Timestamp Instant stamp) {
      Collected.ROWS.add(row.getString(ProblemRows.REASON) + "@" + stamp);
    }
  }

  /** Every element seen, as text with its element timestamp, across the runner's threads. */
  static final class Collected extends DoFn<Row, Void> {
    static final Collection<String> ROWS = new ConcurrentLinkedQueue<>();

    @ProcessElement
    public void process(@Element Row row, @Timestamp Instant stamp) {
      ROWS.add(textOf(row) + "@" + stamp);
    }
  }

  /** Waits for the rows to come (the test fails on its own timeout if they never do; nothing is timed). */
  private static void awaitCollected(int count) throws InterruptedException {
    for (int i = 0; i < 1200 && Collected.ROWS.size() < count; i++) {
      Thread.sleep(100);
    }
    assertThat(Collected.ROWS).hasSizeGreaterThanOrEqualTo(count);
  }

  @Test
  void badSettingsAreRefusedBeforeTheRun() {
    assertThatThrownBy(() -> pipeline().apply(KafkaRows.read().withTopic("t")))
        .hasMessage("KafkaRows needs the Kafka brokers to connect to: give withBootstrapServers(\"host:port\")");
    assertThatThrownBy(() -> pipeline().apply(KafkaRows.read().withBootstrapServers(broker.bootstrapServers())))
        .hasMessage("KafkaRows needs a topic to read: give withTopic(name)");
    assertThatThrownBy(() -> KafkaRows.read().withStartPosition("beginning"))
        .hasMessage("the start position 'beginning' is unknown: give earliest or latest");
    assertThatThrownBy(() -> KafkaRows.read().withConsumerProperty("auto.offset.reset", "earliest"))
        .hasMessage("the consumer property auto.offset.reset is set by KafkaRows: give the start position with withStartPosition");
    assertThatThrownBy(() -> KafkaRows.read().withSampleSize(0)).hasMessage("the sample size must be at least 1 record, got 0");
    assertThatThrownBy(() -> KafkaRows.read().withOffsetsCommittedTo(" "))
        .hasMessage("withOffsetsCommittedTo needs the consumer group to commit the offsets to");
    assertThatThrownBy(() -> pipeline().apply(read("t").withConsumerProperty("group.id", "a").withOffsetsCommittedTo("b")))
        .hasMessage("the read starts at the offsets of group a (group.id) but commits to group b (withOffsetsCommittedTo):"
            + " give one group");
    assertThatThrownBy(() -> pipeline().apply(read("no-such-topic")))
        .hasMessage("topic no-such-topic does not exist on the Kafka brokers at " + broker.bootstrapServers()
            + ": create it first, or check its name");
    broker.createTopic("empty1", 1);
    assertThatThrownBy(() -> pipeline().apply(read("empty1")))
        .hasMessage("cannot infer the schema of topic empty1: it has no JSON object to sample yet; give the schema with withSchema");
    assertThatThrownBy(() -> pipeline().apply(read("empty1").withSchema(Schema.builder().addInt64Field("_partition").build())))
        .hasMessage("the rows already have a field named '_partition', which KafkaRows uses for the partition: rename that field in the data");
  }

  @Test
  void brokersThatNeverAnswerAreAnErrorWithinTheTimeout_beforeTheRun() throws IOException {
    int nobody;
    try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      nobody = s.getLocalPort();
    }
    String servers = "127.0.0.1:" + nobody;
    assertThatThrownBy(() -> pipeline().apply(KafkaRows.read().withBootstrapServers(servers).withTopic("t")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("cannot list the partitions of topic t: the Kafka brokers at " + servers
            + " did not answer within " + KafkaRowsTopic.TIMEOUT.toSeconds() + " s (");
  }

  @Test
  void anEmptyTopicReadUntilAvailableGivesNoRows_andTheStartPositionLatestReadsNothingProducedBefore() {
    broker.createTopic("quiet1", 1);
    Schema n = Schema.builder().addInt64Field("n").build();
    Pipeline p = pipeline();
    PAssert.that(p.apply("Empty", read("quiet1").withSchema(n).withUntilAvailable()).rows()).empty();
    broker.createTopic("before1", 1);
    broker.produce("before1", 0, "{\"n\":1}");
    PAssert.that(p.apply("Latest", read("before1").withSchema(n).withStartPosition("LATEST").withUntilAvailable()).rows()).empty();
    p.run().waitUntilFinish();
  }

  @Test
  void displayDataNamesTheSettings() {
    DisplayData d = DisplayData.from(read("t").withConsumerProperty("group.id", "g").withUntilAvailable().withOffsetsCommittedTo("g")
        .withConsumerProperty("sasl.jaas.config", "org.apache.kafka.common.security.plain.PlainLoginModule required password=\"s3cret\";")
        .withConsumerProperty("ssl.key.password", "s3cret"));
    assertThat(d.items()).extracting(i -> i.getKey() + "=" + i.getValue()).contains(
        "bootstrapServers=" + broker.bootstrapServers(), "topic=t", "startPosition=earliest", "until=available",
        "consumerProperties={group.id=g, isolation.level=read_committed, sasl.jaas.config=(hidden), ssl.key.password=(hidden)}", "schemaSampleSize=1000",
        "partitionField=_partition", "arrivalField=_arrival", "commitGroup=g");
  }

  private static List<String> fields(Schema s) {
    return s.getFields().stream().map(f -> f.getName() + " " + f.getType().getTypeName()).toList();
  }

  private static PCollection<String> text(PCollection<Row> rows) {
    return rows.apply("Text" + rows.getName(), org.apache.beam.sdk.transforms.MapElements
        .into(org.apache.beam.sdk.values.TypeDescriptors.strings()).via(KafkaRowsTest::textOf));
  }

  private static String textOf(Row row) {
    List<String> values = new ArrayList<>();
    for (Object v : row.getValues()) {
      values.add(String.valueOf(v));
    }
    return String.join("|", values);
  }
}
