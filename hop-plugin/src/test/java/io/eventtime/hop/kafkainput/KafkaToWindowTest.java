package io.eventtime.hop.kafkainput;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.core.AggregateKind;
import io.eventtime.core.AggregateSpec;
import io.eventtime.core.Key;
import io.eventtime.core.LatePolicy;
import io.eventtime.core.PartitionedWindowProcessor;
import io.eventtime.core.TimeText;
import io.eventtime.core.WindowQuery;
import io.eventtime.core.WindowResult;
import io.eventtime.core.WindowSpec;
import io.eventtime.hop.HopTestEnvironment;
import io.eventtime.hop.LocalRun;
import io.eventtime.hop.PipelineBuilder;
import io.eventtime.hop.Rows;
import io.eventtime.hop.window.EventTimeWindowData;
import io.eventtime.hop.window.EventTimeWindowMeta;
import io.eventtime.hop.window.GroupField;
import io.eventtime.hop.window.WindowAggregate;
import io.eventtime.testing.kafka.KafkaBroker;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Event Kafka Input into Event Time Window with its partition field, on the local engine: the
 * window rows and stats are exactly those of the core's PartitionedWindowProcessor fed each
 * partition's records in offset order (however the transform's polls interleave them).
 */
class KafkaToWindowTest {
  private static final long START = ExactlyOnceStreams.START;
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

  @ParameterizedTest
  @ValueSource(ints = {1, 3})
  void theWindowRowsAreThoseOfTheCoreOverEachPartitionInOffsetOrder(int partitions) throws Exception {
    String topic = "windowed-" + partitions;
    broker.createTopic(topic, partitions);
    List<List<ExactlyOnceStreams.Event>> stream = ExactlyOnceStreams.randomStream(partitions, 150, 42 + partitions);
    for (int p = 0; p < partitions; p++) {
      broker.produce(topic, p, stream.get(p).stream().map(ExactlyOnceStreams.Event::json).toArray(String[]::new));
    }

    EventKafkaInputMeta read = EventKafkaInputTest.input(broker.bootstrapServers(), topic,
        new KafkaField("user", "String", null), new KafkaField("amount", "Integer", null),
        new KafkaField("event_time", "Integer", null));
    EventTimeWindowMeta window = new EventTimeWindowMeta();
    window.setDefault();
    window.setTimeField("event_time");
    window.setWindowSize("10 SECONDS");
    window.setWatermarkDelay("5 SECONDS");
    window.setGroupFields(new ArrayList<>(List.of(new GroupField("user"))));
    window.setAggregates(new ArrayList<>(List.of(new WindowAggregate(null, "count", "events"),
        new WindowAggregate("amount", "sum", "total"))));
    window.setPartitionField("_partition");
    window.setPartitions(String.valueOf(partitions));
    LocalRun.Result r = new LocalRun(new PipelineBuilder("kafka-window").transform("read", read)
        .transform("window", window).dummy("out").hop("read", "window").hop("window", "out").build()).run("out");

    WindowQuery query = new WindowQuery(WindowSpec.tumbling(10_000), List.of("user"),
        List.of(new AggregateSpec(AggregateKind.COUNT_ALL, null, "events"),
            new AggregateSpec(AggregateKind.SUM, "amount", "total")), 5_000, LatePolicy.WINDOW);
    List<String> expected = new ArrayList<>();
    PartitionedWindowProcessor core = new PartitionedWindowProcessor(query, partitions, w -> expected.add(text(w)));
    for (int p = 0; p < partitions; p++) {
      for (ExactlyOnceStreams.Event e : stream.get(p)) {
        core.process(p, Key.of(e.user()), e.time(), new Object[] {null, e.amount()});
      }
    }
    core.finish();

    assertThat(r.errors()).isZero();
    assertThat(core.stats().lateDropped()).as("the stream has late rows").isPositive();
    assertThat(Rows.text(r.rows("out"))).containsExactlyElementsOf(expected);
    EventTimeWindowData data = (EventTimeWindowData) r.pipeline().getTransform("window", 0).getData();
    assertThat(data.processor().stats()).isEqualTo(core.stats());
  }

  @org.junit.jupiter.api.Test
  void aRowOfAPartitionBeyondPartitionsIsRejectedWithTheReason() throws Exception {
    broker.createTopic("beyond", 2);
    broker.produce("beyond", 0, new ExactlyOnceStreams.Event("ann", 1, START).json(), new ExactlyOnceStreams.Event("ann", 2, START + 20_000).json());
    broker.produce("beyond", 1, new ExactlyOnceStreams.Event("bob", 5, START + 1_000).json(), new ExactlyOnceStreams.Event("bob", 6, START + 21_000).json());
    EventKafkaInputMeta read = EventKafkaInputTest.input(broker.bootstrapServers(), "beyond",
        new KafkaField("user", "String", null), new KafkaField("amount", "Integer", null),
        new KafkaField("event_time", "Integer", null));
    EventTimeWindowMeta window = new EventTimeWindowMeta();
    window.setDefault();
    window.setTimeField("event_time");
    window.setWindowSize("10 SECONDS");
    window.setAggregates(new ArrayList<>(List.of(new WindowAggregate("amount", "sum", "total"))));
    window.setPartitionField("_partition");
    window.setPartitions("1");
    LocalRun.Result r = new LocalRun(new PipelineBuilder("beyond").transform("read", read).transform("window", window)
        .dummy("out").dummy("errors").hop("read", "window").hop("window", "out").errorHop("window", "errors").build())
        .run("out", "errors");

    assertThat(r.errors()).isZero();
    assertThat(Rows.text(r.rows("out"))).containsExactly(
        "2026-07-18 10:00:00|2026-07-18 10:00:10|1",
        "2026-07-18 10:00:20|2026-07-18 10:00:30|2");
    String reason = "|1|field '_partition': partition 1 is not one of the 1 partitions 0 to 0 set in Partitions: set"
        + " Partitions to the topic's partition count|_partition|EVENTTIME-REJECTED";
    assertThat(Rows.text(r.rows("errors"))).containsExactly(
        "bob|5|1784368801000|1|0" + reason,
        "bob|6|1784368821000|1|1" + reason);
  }

  private static String text(WindowResult w) {
    return w.key().get(0) + "|" + TimeText.format(w.start()) + "|" + TimeText.format(w.end()) + "|" + w.values()[0]
        + "|" + w.values()[1];
  }
}
