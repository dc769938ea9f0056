package io.eventtime.hop.kafkainput;

import io.eventtime.core.AggregateKind;
import io.eventtime.core.AggregateSpec;
import io.eventtime.core.Key;
import io.eventtime.core.LatePolicy;
import io.eventtime.core.PartitionedWindowProcessor;
import io.eventtime.core.TimeText;
import io.eventtime.core.WindowQuery;
import io.eventtime.core.WindowResult;
import io.eventtime.core.WindowSpec;
import io.eventtime.hop.PipelineBuilder;
import io.eventtime.hop.fileoutput.EventFileOutputMeta;
import io.eventtime.hop.window.EventTimeWindowMeta;
import io.eventtime.hop.window.GroupField;
import io.eventtime.hop.window.WindowAggregate;
import io.eventtime.testing.kafka.KafkaBroker;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hop.pipeline.PipelineMeta;

/**
 * The random streams and the pipeline of the exactly-once tests: Event Kafka Input, Event Time
 * Window with a partition field, an offset field and a state folder, Event File Output; and the
 * file one uninterrupted run writes, by core's processor.
 */
final class ExactlyOnceStreams {
  static final long START = 1_784_368_800_000L; // 2026-07-18 10:00:00

  private ExactlyOnceStreams() {}

  /** One record: a user, an amount and an event time that is mostly in order. */
  record Event(String user, long amount, long time) {
    String json() {
      return "{\"user\":\"" + user + "\",\"amount\":" + amount + ",\"event_time\":" + time + "}";
    }
  }

  static List<List<Event>> randomStream(int partitions, int perPartition, long seed) {
    Random random = new Random(seed);
    List<List<Event>> stream = new ArrayList<>();
    for (int p = 0; p < partitions; p++) {
      List<Event> events = new ArrayList<>();
      long clock = START + random.nextInt(5_000);
      for (int i = 0; i < perPartition; i++) {
        clock += random.nextInt(2_000);
        // now and then a row from up to 20 s back: late when it is past the delay of 5 s
        long time = random.nextInt(10) == 0 ? clock - random.nextInt(20_000) : clock;
        events.add(new Event("u" + random.nextInt(4), random.nextInt(100), time));
      }
      stream.add(events);
    }
    return stream;
  }

  /** Produces rows {@code from} to {@code to} (exclusive) of each partition. */
  static void produce(KafkaBroker broker, String topic, List<List<Event>> stream, int from, int to) {
    for (int p = 0; p < stream.size(); p++) {
      List<Event> part = stream.get(p).subList(Math.min(from, stream.get(p).size()), Math.min(to, stream.get(p).size()));
      if (!part.isEmpty()) {
        broker.produce(topic, p, part.stream().map(Event::json).toArray(String[]::new));
      }
    }
  }

  /** The pipeline; {@code caughtUp} ends it at the end offsets found at its start, else it runs until stopped. */
  static PipelineMeta pipeline(String servers, String topic, int partitions, Path state, Path output,
      boolean caughtUp) {
    EventKafkaInputMeta read = EventKafkaInputTest.input(servers, topic, new KafkaField("user", "String", null),
        new KafkaField("amount", "Integer", null), new KafkaField("event_time", "Integer", null));
    read.setStopWhenCaughtUp(caughtUp);
    EventTimeWindowMeta window = new EventTimeWindowMeta();
    window.setDefault();
    window.setTimeField("event_time");
    window.setWindowSize("10 SECONDS");
    window.setWatermarkDelay("5 SECONDS");
    window.setGroupFields(new ArrayList<>(List.of(new GroupField("user"))));
    window.setAggregates(new ArrayList<>(List.of(new WindowAggregate(null, "count", "events"),
        new WindowAggregate("amount", "sum", "total"))));
    window.setPartitionField("_partition");
    window.setOffsetField("_offset");
    window.setPartitions(String.valueOf(partitions));
    window.setStateFolder(state.toString());
    EventFileOutputMeta write = new EventFileOutputMeta();
    write.setDefault();
    write.setFilename(output.toString());
    return new PipelineBuilder("kafka-exactly-once").transform("read", read).transform("window", window)
        .transform("write", write).hop("read", "window").hop("window", "write").build();
  }

  /** The file one uninterrupted run writes: each window its watermark closed, as core's processor emits it. */
  static String expectedFile(List<List<Event>> stream) {
    WindowQuery query = new WindowQuery(WindowSpec.tumbling(10_000), List.of("user"),
        List.of(new AggregateSpec(AggregateKind.COUNT_ALL, null, "events"),
            new AggregateSpec(AggregateKind.SUM, "amount", "total")), 5_000, LatePolicy.WINDOW);
    StringBuilder out = new StringBuilder();
    PartitionedWindowProcessor core = new PartitionedWindowProcessor(query, stream.size(), w -> out.append(line(w)));
    for (int p = 0; p < stream.size(); p++) {
      for (Event e : stream.get(p)) {
        core.process(p, Key.of(e.user()), e.time(), new Object[] {null, e.amount()});
      }
    }
    core.hold();
    return out.toString();
  }

  private static String line(WindowResult w) {
    return "{\"user\":\"" + w.key().get(0) + "\",\"window_start\":\"" + TimeText.format(w.start())
        + "\",\"window_end\":\"" + TimeText.format(w.end()) + "\",\"events\":" + w.values()[0] + ",\"total\":"
        + w.values()[1] + "}\n";
  }

  static int total(List<List<Event>> stream) {
    return stream.stream().mapToInt(List::size).sum();
  }
}
