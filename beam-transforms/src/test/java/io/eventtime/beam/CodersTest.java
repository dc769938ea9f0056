package io.eventtime.beam;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.eventtime.core.Accumulator;
import io.eventtime.core.AggregateKind;
import io.eventtime.core.AggregateSpec;
import io.eventtime.core.Aggregates;
import io.eventtime.core.PartialAggregate;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.List;
import io.eventtime.core.Key;
import io.eventtime.core.OpenState;
import io.eventtime.core.WindowSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.CoderException;
import org.apache.beam.sdk.coders.SerializableCoder;
import org.apache.beam.sdk.coders.StructuredCoder;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.runners.TransformHierarchy;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.schemas.Schema.FieldType;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PValue;
import org.apache.beam.sdk.values.Row;
import org.junit.jupiter.api.io.TempDir;
import org.apache.beam.sdk.util.CoderUtils;
import org.junit.jupiter.api.Test;

class CodersTest {
  @TempDir
  Path dir;

  /**
   * A live batch's coder read back from its serialized form equals the original, as Flink's
   * flatten of the releases with the buckets' start markers (withState on a live input) requires.
   */
  @Test
  void aLiveBatchCoderEqualsItsSerializedCopy() {
    Schema schema = Schema.builder().addStringField("k").addInt64Field("_arrival").build();
    Coder<LiveBatch> coder = LiveBatch.coder(schema);
    assertThat(org.apache.beam.sdk.util.SerializableUtils.clone(coder)).isEqualTo(coder).isEqualTo(LiveBatch.coder(schema));
  }

  @Test
  void accumulatorsOfEveryAggregateKeepTheirStateThroughTheCoder() throws CoderException {
    List<AggregateSpec> specs = List.of(AggregateSpec.countAll("n"), AggregateSpec.of(AggregateKind.COUNT, "v", "c"),
        AggregateSpec.of(AggregateKind.COUNT_DISTINCT, "v", "d"), AggregateSpec.of(AggregateKind.SUM, "v", "s"),
        AggregateSpec.of(AggregateKind.MIN, "v", "lo"), AggregateSpec.of(AggregateKind.MAX, "v", "hi"),
        AggregateSpec.of(AggregateKind.AVG, "v", "mean"), AggregateSpec.of(AggregateKind.FIRST, "v", "first"),
        AggregateSpec.of(AggregateKind.LAST, "v", "last"));
    Aggregates aggregates = new Aggregates(specs);
    AccumulatorsCoder coder = AccumulatorsCoder.of(specs);
    Object[][] rows = {
        {"a", "b"}, {2L, -7L}, {2.5, 1L}, {Instant.parse("2026-03-01T00:00:00.123Z"), Instant.parse("2026-03-01T00:01:00Z")},
        {true, false}, {null, null}, {Long.MAX_VALUE, 1L}};
    for (Object[] values : rows) {
      Accumulator[] accs = aggregates.create();
      assertThat(states(CoderUtils.clone(coder, accs))).as("empty").isEqualTo(states(accs));
      for (int i = 0; i < values.length; i++) {
        Object[] inputs = new Object[specs.size()];
        Arrays.fill(inputs, values[i]);
        if (!(values[i] instanceof Number)) {
          inputs[3] = null; // sum and avg take numbers only
          inputs[6] = null;
        }
        aggregates.add(accs, inputs, 40L + i);
      }
      Accumulator[] copy = CoderUtils.clone(coder, accs);
      assertThat(states(copy)).as(Arrays.toString(values)).isEqualTo(states(accs));
      assertThat(aggregates.results(copy)).isEqualTo(aggregates.results(accs));
    }
  }

  /**
   * The live path's bucket state: a run of two partitions of sessions with first and last, held
   * with sessions waiting to be joined, goes through {@link OpenStateCoder} and on as if it had not
   * stopped (merging partitions' first and last needs the event time of their rows).
   */
  @Test
  void aHeldStateOfSeveralPartitionsGoesOnThroughTheCoderAsIfItHadNotStopped() throws CoderException {
    io.eventtime.core.WindowQuery query = io.eventtime.core.WindowQuery.of(WindowSpec.session(300_000))
        .withKeys("k").withAggregates(AggregateSpec.countAll("n"), AggregateSpec.of(AggregateKind.FIRST, "v", "first"),
            AggregateSpec.of(AggregateKind.LAST, "v", "last"));
    OpenStateCoder coder = OpenStateCoder.of(query.aggregates());
    Object[][] before = {{0, "acme", "00:01"}, {0, "globex", "00:02"}, {0, "acme", "00:04"}, {0, "globex", "00:20"},
        {1, "globex", "00:06"}};
    Object[][] after = {{1, "globex", "00:09"}, {1, "acme", "00:07"}, {1, "globex", "00:30"}};
    List<String> uninterrupted = new ArrayList<>();
    io.eventtime.core.PartitionedWindowProcessor whole = new io.eventtime.core.PartitionedWindowProcessor(query, 2,
        w -> uninterrupted.add(w.toString()));
    feed(whole, before);
    feed(whole, after);
    whole.finish();
    List<String> resumed = new ArrayList<>();
    io.eventtime.core.PartitionedWindowProcessor first = new io.eventtime.core.PartitionedWindowProcessor(query, 2,
        w -> resumed.add(w.toString()));
    feed(first, before);
    OpenState held = first.hold();
    assertThat(held.waiting()).as("sessions waiting to be joined").isNotEmpty();
    assertThat(held.windows()).as("open windows").isNotEmpty();
    OpenState decoded = CoderUtils.clone(coder, held);
    assertThat(decoded.partitions()).isEqualTo(held.partitions());
    assertThat(decoded.waiting().stream().map(OpenState.OpenWindow::partition).toList())
        .isEqualTo(held.waiting().stream().map(OpenState.OpenWindow::partition).toList());
    io.eventtime.core.PartitionedWindowProcessor second = io.eventtime.core.PartitionedWindowProcessor.resume(query,
        w -> resumed.add(w.toString()), decoded);
    feed(second, after);
    second.finish();
    assertThat(resumed).isEqualTo(uninterrupted).hasSize(4);
  }

  private static void feed(io.eventtime.core.PartitionedWindowProcessor p, Object[][] rows) {
    for (Object[] r : rows) {
      long ts = Instant.parse("2026-03-01T" + r[2] + ":00Z").toEpochMilli();
      p.process((Integer) r[0], Key.of((String) r[1]), ts, new Object[] {null, r[1] + "@" + r[2], r[1] + "@" + r[2]});
    }
  }

  @Test
  void accumulatorCodersOfTheSameAggregatesAreEqual() {
    List<AggregateSpec> specs = List.of(AggregateSpec.countAll("n"), AggregateSpec.of(AggregateKind.SUM, "v", "s"));
    assertThat(AccumulatorsCoder.of(specs)).isEqualTo(AccumulatorsCoder.of(List.copyOf(specs)))
        .hasSameHashCodeAs(AccumulatorsCoder.of(specs))
        .isNotEqualTo(AccumulatorsCoder.of(List.of(AggregateSpec.countAll("n"))));
  }

  /**
   * Flink's union of a Flatten compares its inputs' coders: the idle timeout's start markers and
   * the rows each get an {@link ArrivedRow.ArrivedRowCoder} of their own, which must be equal.
   */
  @Test
  void theLivePathsCodersOfOneSchemaAreEqual() {
    Schema schema = Schema.builder().addStringField("event_time").addInt64Field(EventTimeWindow.DEFAULT_ARRIVAL_FIELD).build();
    Schema same = Schema.builder().addStringField("event_time").addInt64Field(EventTimeWindow.DEFAULT_ARRIVAL_FIELD).build();
    Schema other = Schema.builder().addStringField("time").addInt64Field(EventTimeWindow.DEFAULT_ARRIVAL_FIELD).build();
    assertThat(new ArrivedRow.ArrivedRowCoder(schema)).isEqualTo(new ArrivedRow.ArrivedRowCoder(schema))
        .isEqualTo(new ArrivedRow.ArrivedRowCoder(same)).hasSameHashCodeAs(new ArrivedRow.ArrivedRowCoder(same))
        .isNotEqualTo(new ArrivedRow.ArrivedRowCoder(other));
    assertThat(org.apache.beam.sdk.coders.NullableCoder.of(new ArrivedRow.ArrivedRowCoder(schema)))
        .isEqualTo(org.apache.beam.sdk.coders.NullableCoder.of(new ArrivedRow.ArrivedRowCoder(same)));
    assertThat(LiveBatch.coder(schema)).isEqualTo(LiveBatch.coder(same)).hasSameHashCodeAs(LiveBatch.coder(same))
        .isNotEqualTo(LiveBatch.coder(other));
    List<AggregateSpec> specs = List.of(AggregateSpec.countAll("n"), AggregateSpec.of(AggregateKind.LAST, "v", "l"));
    assertThat(OpenWindowCoder.of(specs)).isEqualTo(OpenWindowCoder.of(List.copyOf(specs)))
        .hasSameHashCodeAs(OpenWindowCoder.of(specs)).isNotEqualTo(OpenWindowCoder.of(specs.subList(0, 1)));
    assertThat(OpenStateCoder.of(specs)).isEqualTo(OpenStateCoder.of(List.copyOf(specs)))
        .hasSameHashCodeAs(OpenStateCoder.of(specs)).isNotEqualTo(OpenStateCoder.of(specs.subList(0, 1)));
    ArrivedRowBatch.BatchCoder batches = new ArrivedRowBatch.BatchCoder(new ArrivedRow.ArrivedRowCoder(schema));
    assertThat(org.apache.beam.sdk.util.SerializableUtils.clone(batches)).isEqualTo(batches)
        .isEqualTo(new ArrivedRowBatch.BatchCoder(new ArrivedRow.ArrivedRowCoder(same)))
        .hasSameHashCodeAs(batches).isNotEqualTo(new ArrivedRowBatch.BatchCoder(new ArrivedRow.ArrivedRowCoder(other)))
        .isNotEqualTo(new ArrivedRow.ArrivedRowCoder(schema));
    assertThat(List.<Object>copyOf(batches.getCoderArguments())).containsExactly(new ArrivedRow.ArrivedRowCoder(same));
  }

  @Test
  void aWrongNumberOfAccumulatorsIsRefused() {
    AccumulatorsCoder coder = AccumulatorsCoder.of(List.of(AggregateSpec.countAll("n")));
    assertThatThrownBy(() -> CoderUtils.encodeToByteArray(coder, new Accumulator[0]))
        .isInstanceOf(CoderException.class).hasMessage("expected 1 accumulators, got 0");
  }

  @Test
  void aBatchOfRowsComesBackEqualAndGoesOutAgainAsTheSameBytesWithoutBeingRead() throws CoderException {
    Schema schema = Schema.builder().addStringField("k").addNullableField("amount", FieldType.INT64)
        .addInt64Field("_arrival").build();
    ArrivedRowBatch.BatchCoder coder = new ArrivedRowBatch.BatchCoder(new ArrivedRow.ArrivedRowCoder(schema));
    List<ArrivedRow> batch = List.of(
        new ArrivedRow(7, 60_000, ArrivedRow.NO_WATERMARK, Row.withSchema(schema)
            .addValues("a", 5L, 7L).build()),
        new ArrivedRow(8, -1, 59_000, Row.withSchema(schema).addValues("b", null, 8L).build()));
    byte[] bytes = CoderUtils.encodeToByteArray(coder, batch);

    List<ArrivedRow> unread = CoderUtils.decodeFromByteArray(coder, bytes);
    assertThat(unread).hasSize(2);
    assertThat(CoderUtils.encodeToByteArray(coder, unread)).isEqualTo(bytes);
    assertThat(unread).isEqualTo(batch);
    assertThat(CoderUtils.encodeToByteArray(coder, unread)).isEqualTo(bytes);
    assertThat(CoderUtils.clone(coder, List.<ArrivedRow>of())).isEmpty();
    assertThatThrownBy(() -> CoderUtils.decodeFromByteArray(coder, Arrays.copyOf(bytes, bytes.length - 1)))
        .isInstanceOf(CoderException.class).hasMessageContaining("a batch of 2 rows ended after");
    assertThatThrownBy(() -> unread.set(0, batch.get(1))).isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void intervalSetsKeepEveryIntervalThroughTheCoderAndAShortOneIsRefused() throws CoderException {
    CountWindowsClosed.IntervalSetCoder coder = CountWindowsClosed.IntervalSetCoder.of();
    Set<KV<Long, Long>> intervals = new HashSet<>(List.of(
        KV.of(Long.MIN_VALUE, -1L), KV.of(0L, 60_000L),
        KV.of(1_780_000_000_000L, Long.MAX_VALUE)));
    assertThat(CoderUtils.clone(coder, intervals)).isEqualTo(intervals);
    assertThat(CoderUtils.clone(coder, new HashSet<>())).isEmpty();
    byte[] bytes = CoderUtils.encodeToByteArray(coder, intervals);
    assertThatThrownBy(() -> CoderUtils.decodeFromByteArray(coder, Arrays.copyOf(bytes, bytes.length - 1)))
        .isInstanceOf(CoderException.class).hasMessageContaining("a set of 3 intervals ended after 47 bytes");
    Set<KV<Long, Long>> unread = CoderUtils.decodeFromByteArray(coder, bytes);
    assertThat(CoderUtils.encodeToByteArray(coder, unread)).as("unread, out as the same bytes").isEqualTo(bytes);
    assertThat(unread).isEqualTo(intervals).hasSize(3);
    assertThat(CoderUtils.encodeToByteArray(coder, unread)).isEqualTo(bytes);
    assertThatThrownBy(() -> unread.add(KV.of(1L, 2L))).isInstanceOf(UnsupportedOperationException.class);
  }

  /** A partial read back from its coder is copied, not changed, when one more window joins it. */
  @Test
  void aDecodedPartialOfTheWindowCountTakesMoreWindows() throws CoderException {
    CountWindowsClosed.CountDistinctFn count = new CountWindowsClosed.CountDistinctFn("window_start", "window_end");
    Schema schema = Schema.builder().addDateTimeField("window_start").addDateTimeField("window_end").build();
    Set<KV<Long, Long>> decoded = CoderUtils.clone(CountWindowsClosed.IntervalSetCoder.of(),
        new HashSet<>(List.of(KV.of(0L, 60_000L))));
    Set<KV<Long, Long>> more = count.addInput(decoded, Row.withSchema(schema)
        .addValues(new org.joda.time.Instant(60_000L), new org.joda.time.Instant(120_000L)).build());
    more = count.addInput(more, Row.withSchema(schema)
        .addValues(new org.joda.time.Instant(0L), new org.joda.time.Instant(60_000L)).build());
    assertThat(more).containsExactlyInAnyOrder(KV.of(0L, 60_000L), KV.of(60_000L, 120_000L));
    assertThat(decoded).containsExactly(KV.of(0L, 60_000L));
    assertThat(count.extractOutput(count.mergeAccumulators(List.of(decoded, more)))).isEqualTo(2L);
  }

  @Test
  void arrivalTimesKeepEveryPairThroughTheCoder() throws CoderException {
    ArrivalTimes times = new ArrivalTimes();
    long[][] pairs = {{1024, 1_772_323_200_000L}, {1030, 1_772_323_140_000L}, {1025, Long.MAX_VALUE},
        {1026, Long.MIN_VALUE}, {2047, -5L}, {1024, 0L}};
    for (long[] p : pairs) {
      times.add(p[0], p[1]);
    }
    ArrivalTimes copy = CoderUtils.clone(ArrivalTimes.ArrivalTimesCoder.of(), times);
    assertThat(copy).isEqualTo(times);
    assertThat(copy.size()).isEqualTo(6);
    assertThat(copy.maxTime()).isEqualTo(Long.MAX_VALUE);
    assertThat(copy.lastPosition()).isEqualTo(2047);
    assertThat(CoderUtils.clone(ArrivalTimes.ArrivalTimesCoder.of(), new ArrivalTimes()).size()).isZero();
    byte[] bytes = CoderUtils.encodeToByteArray(ArrivalTimes.ArrivalTimesCoder.of(), times);
    assertThatThrownBy(() -> CoderUtils.decodeFromByteArray(ArrivalTimes.ArrivalTimesCoder.of(),
        Arrays.copyOf(bytes, bytes.length - 1)))
        .isInstanceOf(CoderException.class).hasMessageContaining("6 arrival times ended after");
    byte[] tooMany = bytes.clone();
    tooMany[0] = 100; // the count, one byte as a varint: more pairs than the block holds
    assertThatThrownBy(() -> CoderUtils.decodeFromByteArray(ArrivalTimes.ArrivalTimesCoder.of(), tooMany))
        .isInstanceOf(CoderException.class).hasMessageContaining("100 arrival times in");
  }

  @Test
  void openWindowsAndTheWatermarkIndexKeepEverythingThroughTheirCoders() throws CoderException {
    List<AggregateSpec> specs = List.of(AggregateSpec.countAll("n"), AggregateSpec.of(AggregateKind.SUM, "v", "s"));
    Aggregates aggregates = new Aggregates(specs);
    Accumulator[] accs = aggregates.create();
    aggregates.add(accs, new Object[] {null, 5L}, 3L);
    OpenState.OpenWindow w = new OpenState.OpenWindow(Key.of("acme", 7L), -60_000L, 1_772_323_200_000L, accs);
    OpenState.OpenWindow copy = CoderUtils.clone(OpenWindowCoder.of(specs), w);
    assertThat(copy.key()).isEqualTo(w.key());
    assertThat(copy.start()).isEqualTo(w.start());
    assertThat(copy.end()).isEqualTo(w.end());
    assertThat(states(copy.accumulators())).isEqualTo(states(accs));

    WatermarkIndex.BuildFn build = new WatermarkIndex.BuildFn(500L);
    WatermarkIndex.Maxima acc = build.createAccumulator();
    ArrivalTimes block3 = new ArrivalTimes();
    block3.add(3 << 10, 900L);
    block3.add((3 << 10) + 5, 1200L);
    ArrivalTimes block1 = new ArrivalTimes();
    block1.add(1 << 10, 700L);
    build.addInput(acc, KV.of(3L, block3));
    build.addInput(acc, KV.of(1L, block1));
    WatermarkIndex index = CoderUtils.clone(WatermarkIndex.IndexCoder.INSTANCE, build.extractOutput(acc));
    assertThat(index.maxBefore(1)).isEqualTo(500L);
    assertThat(index.maxBefore(3)).isEqualTo(700L);
    assertThat(index.maxThrough(3)).isEqualTo(1200L);
    assertThat(index.overallMax()).isEqualTo(1200L);
    assertThat(index.lastPosition()).isEqualTo((3 << 10) + 5);
  }

  /** No value of the transform's pipeline goes through Java serialisation (which the Direct runner warns of). */
  @Test
  void everyCollectionOfTheTransformHasACoderOfItsOwn() {
    Schema schema = Schema.builder().addStringField("k").addNullableField("t", FieldType.STRING)
        .addInt64Field("_arrival").build();
    for (WindowSpec spec : new WindowSpec[] {WindowSpec.tumbling(60_000), WindowSpec.session(60_000)}) {
      EventTimeWindow window = EventTimeWindow.of(spec).withTimeField("t").withKeys("k")
          .withAggregates(AggregateSpec.countAll("n"));
      Pipeline p = Pipeline.create(PipelineOptionsFactory.fromArgs("--runner=DirectRunner").create());
      try (EventTimeState state = EventTimeState.open(dir.resolve(spec.kind()), window)) {
        p.apply(Create.empty(schema)).apply(window.withState(state));
      }
      List<String> serialized = new ArrayList<>();
      p.traverseTopologically(new Pipeline.PipelineVisitor.Defaults() {
        @Override
        public void visitValue(PValue value, TransformHierarchy.Node producer) {
          if (value instanceof PCollection<?> c && usesJavaSerialization(c.getCoder())) {
            serialized.add(c.getName() + ": " + c.getCoder());
          }
        }
      });
      assertThat(serialized).as(spec.kind()).isEmpty();
    }
  }

  /** Through every coder inside: a union's are its components, not its arguments. */
  private static boolean usesJavaSerialization(Coder<?> coder) {
    List<? extends Coder<?>> inside = coder instanceof StructuredCoder<?> structured
        ? structured.getComponents() : coder.getCoderArguments();
    return coder instanceof SerializableCoder || inside.stream().anyMatch(CodersTest::usesJavaSerialization);
  }

  private static List<PartialAggregate> states(Accumulator[] accs) {
    return Arrays.stream(accs).map(PartialAggregate::of).toList();
  }
}
