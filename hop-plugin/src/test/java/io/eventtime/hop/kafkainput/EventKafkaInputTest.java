package io.eventtime.hop.kafkainput;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.eventtime.hop.HopTestEnvironment;
import io.eventtime.hop.LocalRun;
import io.eventtime.hop.PipelineBuilder;
import io.eventtime.hop.Rows;
import io.eventtime.testing.kafka.KafkaBroker;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.hop.core.exception.HopException;
import org.apache.hop.core.logging.LogLevel;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Event Kafka Input on Hop's local engine against a real broker (KRaft, in this JVM). */
class EventKafkaInputTest {
  private static KafkaBroker broker;

  @BeforeAll
  static void start() {
    HopTestEnvironment.init();
    broker = KafkaBroker.start();
  }

  @AfterAll
  static void stop() {
    broker.close();
  }

  static EventKafkaInputMeta input(String servers, String topic, KafkaField... fields) {
    EventKafkaInputMeta m = new EventKafkaInputMeta();
    m.setDefault();
    m.setBootstrapServers(servers);
    m.setTopic(topic);
    m.setStopWhenCaughtUp(true);
    m.setFields(new ArrayList<>(List.of(fields)));
    m.setTimestampField(null);
    m.setKeyField(null);
    return m;
  }

  private static final KafkaField[] EVENT_FIELDS = {new KafkaField("user", "String", null),
      new KafkaField("amount", "Integer", null), new KafkaField("event_time", "Timestamp", null)};

  private static LocalRun.Result run(EventKafkaInputMeta m) throws HopException {
    return new LocalRun(new PipelineBuilder("read").transform("read", m).dummy("out").dummy("errors")
        .hop("read", "out").errorHop("read", "errors").build()).run("out", "errors");
  }

  @Test
  void onePartitionIsReadInOffsetOrderWithTypedFieldsAndItsBadRecordsRejectedWithPartitionAndOffset()
      throws Exception {
    broker.createTopic("one", 1);
    broker.produce("one", 0, "{\"user\":\"ann\",\"amount\":250,\"event_time\":\"2026-07-18T10:00:03Z\"}".getBytes(StandardCharsets.UTF_8),
        "{\"user\":\"bob\", oops}".getBytes(StandardCharsets.UTF_8),
        bytes("{\"user\":\"c", 0xff, "d\"}"),
        "{\"user\":\"cat\",\"amount\":\"lots\",\"event_time\":\"2026-07-18 10:00:09\"}".getBytes(StandardCharsets.UTF_8),
        null,
        "{\"user\":\"dan\",\"amount\":7.0,\"event_time\":1784368812000}".getBytes(StandardCharsets.UTF_8));
    LocalRun.Result r = run(input(broker.bootstrapServers(), "one", EVENT_FIELDS));

    assertThat(r.errors()).isZero();
    assertThat(r.layout("out").getFieldNames()).containsExactly("user", "amount", "event_time", "_partition", "_offset");
    assertThat(r.layout("out").getValueMeta(1).getTypeDesc()).isEqualTo("Integer");
    assertThat(r.layout("out").getValueMeta(2).getTypeDesc()).isEqualTo("Timestamp");
    assertThat(Rows.text(r.rows("out"))).containsExactly(
        "ann|250|2026-07-18 10:00:03|0|0",
        "dan|7|2026-07-18 10:00:12|0|5");
    assertThat(Rows.text(r.rows("errors"))).containsExactly(
        "null|null|null|0|1|1|offset 1 of partition 0 of topic one: malformed JSON: Unexpected character ('o' (code"
            + " 111)): was expecting double-quote to start field name||EVENTTIME-UNREADABLE",
        "null|null|null|0|2|1|offset 2 of partition 0 of topic one: the value is not UTF-8 text (0xff at byte 11 of"
            + " the value)||EVENTTIME-UNREADABLE",
        "cat|null|null|0|3|1|offset 3 of partition 0 of topic one: field 'amount': 'lots' is not an Integer|amount"
            + "|EVENTTIME-UNREADABLE",
        "null|null|null|0|4|1|offset 4 of partition 0 of topic one: the record has no value||EVENTTIME-UNREADABLE");
    assertThat(r.metric("read", LocalRun.INPUT)).isEqualTo(6);
  }

  @Test
  void threePartitionsAreEachReadInOffsetOrder() throws Exception {
    broker.createTopic("three", 3);
    List<List<String>> expected = new ArrayList<>();
    for (int p = 0; p < 3; p++) {
      List<String> rows = new ArrayList<>();
      String[] values = new String[20];
      for (int i = 0; i < values.length; i++) {
        values[i] = "{\"user\":\"u" + p + "\",\"amount\":" + (p * 100 + i) + ",\"event_time\":\"2026-07-18T10:00:"
            + String.format("%02d", i) + "Z\"}";
        rows.add("u" + p + "|" + (p * 100 + i) + "|2026-07-18 10:00:" + String.format("%02d", i) + "|" + p + "|" + i);
      }
      broker.produce("three", p, values);
      expected.add(rows);
    }
    LocalRun.Result r = run(input(broker.bootstrapServers(), "three", EVENT_FIELDS));

    assertThat(r.errors()).isZero();
    assertThat(r.rows("errors")).isEmpty();
    assertThat(r.rows("out")).hasSize(60);
    for (int p = 0; p < 3; p++) {
      long partition = p;
      assertThat(Rows.text(r.rows("out").stream().filter(row -> row[3].equals(partition)).toList()))
          .as("partition " + p).containsExactlyElementsOf(expected.get(p));
    }
  }

  @Test
  void rawValuesComeWithTheirKeyAndKafkaTimestamp() throws Exception {
    broker.createTopic("raw", 1);
    try (KafkaProducer<byte[], byte[]> producer = producer()) {
      producer.send(new ProducerRecord<>("raw", 0, 1784368800000L, "k1".getBytes(StandardCharsets.UTF_8),
          "hello, world".getBytes(StandardCharsets.UTF_8))).get();
      producer.send(new ProducerRecord<byte[], byte[]>("raw", 0, 1784368801000L, (byte[]) null, (byte[]) null)).get();
      producer.send(new ProducerRecord<>("raw", 0, 1784368802000L, bytes("", 0xff, ""),
          "x".getBytes(StandardCharsets.UTF_8))).get();
    }
    EventKafkaInputMeta m = input(broker.bootstrapServers(), "raw");
    m.setValueFormat("raw");
    m.setTimestampField("_kafka_timestamp");
    m.setKeyField("_key");
    LocalRun.Result r = run(m);

    assertThat(r.layout("out").getFieldNames())
        .containsExactly("value", "_partition", "_offset", "_kafka_timestamp", "_key");
    assertThat(Rows.text(r.rows("out"))).containsExactly(
        "hello, world|0|0|2026-07-18 10:00:00|k1",
        "null|0|1|2026-07-18 10:00:01|null");
    assertThat(Rows.text(r.rows("errors"))).containsExactly(
        "null|0|2|2026-07-18 10:00:02|null|1|offset 2 of partition 0 of topic raw: the key is not UTF-8 text (0xff at"
            + " byte 1 of the key)||EVENTTIME-UNREADABLE");
  }

  @Test
  void withoutStopWhenCaughtUpItReadsRowsAsTheyComeUntilThePipelineIsStopped() throws Exception {
    broker.createTopic("live", 2);
    broker.produce("live", 0, "{\"user\":\"ann\",\"amount\":1,\"event_time\":\"2026-07-18T10:00:01Z\"}");
    EventKafkaInputMeta m = input(broker.bootstrapServers(), "live", EVENT_FIELDS);
    m.setStopWhenCaughtUp(false);
    m.setConsumerGroup("hop-live-test");
    LocalRun.Started run = new LocalRun(new PipelineBuilder("read").transform("read", m).dummy("out")
        .hop("read", "out").build()).start("out");
    run.await("the first row", Duration.ofSeconds(30), () -> run.result().rows("out").size() == 1);
    broker.produce("live", 1, "{\"user\":\"bob\",\"amount\":2,\"event_time\":\"2026-07-18T10:00:02Z\"}");
    broker.produce("live", 0, "{\"user\":\"cat\",\"amount\":3,\"event_time\":\"2026-07-18T10:00:03Z\"}");
    run.await("the rows produced while it runs", Duration.ofSeconds(30), () -> run.result().rows("out").size() == 3);
    assertThat(run.result().pipeline().isFinished()).isFalse();
    run.result().pipeline().stopAll();
    run.result().pipeline().waitUntilFinished();

    assertThat(run.result().errors()).isZero();
    assertThat(Rows.text(run.result().rows("out"))).containsExactlyInAnyOrder(
        "ann|1|2026-07-18 10:00:01|0|0",
        "bob|2|2026-07-18 10:00:02|1|0",
        "cat|3|2026-07-18 10:00:03|0|1");
  }

  @Test
  void fromLatestAndCaughtUpThereIsNoRow() throws Exception {
    broker.createTopic("latest", 1);
    broker.produce("latest", 0, "{\"user\":\"ann\",\"amount\":1,\"event_time\":\"2026-07-18T10:00:01Z\"}");
    EventKafkaInputMeta m = input(broker.bootstrapServers(), "latest", EVENT_FIELDS);
    m.setStartPosition("latest");
    LocalRun.Result r = run(m);
    assertThat(r.errors()).isZero();
    assertThat(r.rows("out")).isEmpty();
  }

  @Test
  void aBrokerNeverReachableFailsTheStartWithinTheConnectionTimeout() throws Exception {
    EventKafkaInputMeta m = input("127.0.0.1:1", "events", EVENT_FIELDS);
    m.setConnectionTimeout("2 SECONDS");
    LocalRun run = new LocalRun(new PipelineBuilder("read").transform("read", m).dummy("out").hop("read", "out").build());
    long start = System.nanoTime();
    assertThatThrownBy(() -> run.run("out")).isInstanceOf(HopException.class).hasMessageContaining("failed to initialize");
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(20));
    assertThat(refusals(run)).containsExactly("read: The settings of transform 'read' are not valid:\n  - Bootstrap"
        + " servers: no broker at 127.0.0.1:1 answered within 2 s (asking for topic events): check the servers, the"
        + " network, and that the brokers run; a longer connection timeout waits longer");
  }

  @Test
  void aTopicThatDoesNotExistIsRefusedAtTheStart() throws Exception {
    EventKafkaInputMeta m = input(broker.bootstrapServers(), "no-such-topic", EVENT_FIELDS);
    m.setConnectionTimeout("5 SECONDS");
    LocalRun run = new LocalRun(new PipelineBuilder("read").transform("read", m).dummy("out").hop("read", "out").build());
    assertThatThrownBy(() -> run.run("out")).isInstanceOf(HopException.class).hasMessageContaining("failed to initialize");
    assertThat(refusals(run)).containsExactly("read: The settings of transform 'read' are not valid:\n  - Topic:"
        + " 'no-such-topic' does not exist on " + broker.bootstrapServers() + ": create it, or check its name");
  }

  @Test
  void getFieldsProposesTheFieldsOfTheFirstRecordsInPartitionOrder() throws Exception {
    broker.createTopic("guess", 2);
    broker.produce("guess", 0, "{\"user\":\"ann\",\"amount\":250,\"event_time\":\"2026-07-18T10:00:03Z\"}", "not json");
    broker.produce("guess", 1, "{\"user\":\"bob\",\"amount\":2.5,\"ok\":true,\"event_time\":\"2026-07-18T10:00:04Z\"}");
    EventKafkaInputMeta m = input(broker.bootstrapServers(), "guess");
    List<KafkaField> fields = KafkaFieldGuesser.guess(m, new org.apache.hop.core.variables.Variables(), 100);
    assertThat(fields).extracting(f -> f.getName() + ":" + f.getType())
        .containsExactly("user:String", "amount:Number", "event_time:Timestamp", "ok:Boolean");
  }

  static List<String> refusals(LocalRun run) {
    return run.messages(LogLevel.ERROR).stream().filter(msg -> msg.contains("The settings of transform")).toList();
  }

  /** The UTF-8 bytes of {@code before}, one raw byte, and those of {@code after}. */
  static byte[] bytes(String before, int raw, String after) {
    byte[] a = before.getBytes(StandardCharsets.UTF_8);
    byte[] b = after.getBytes(StandardCharsets.UTF_8);
    byte[] out = new byte[a.length + 1 + b.length];
    System.arraycopy(a, 0, out, 0, a.length);
    out[a.length] = (byte) raw;
    System.arraycopy(b, 0, out, a.length + 1, b.length);
    return out;
  }

  private static KafkaProducer<byte[], byte[]> producer() {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
    return new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
  }
}
