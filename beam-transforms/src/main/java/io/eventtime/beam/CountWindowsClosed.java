package io.eventtime.beam;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.Set;
import org.apache.beam.sdk.coders.AtomicCoder;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.CoderException;
import org.apache.beam.sdk.coders.CoderRegistry;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.transforms.Combine;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.display.DisplayData;
import org.apache.beam.sdk.util.VarInt;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PDone;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TypeDescriptors;

/**
 * Counts the windows closed, the {@value EventTimeMetrics#WINDOWS_CLOSED} counter: the distinct
 * intervals of the window rows (one window of several keys is one window).
 */
final class CountWindowsClosed extends PTransform<PCollection<Row>, PDone> {
  private final String startName;
  private final String endName;

  /** The window rows have their bounds in the columns {@code startName} and {@code endName}. */
  CountWindowsClosed(String startName, String endName) {
    this.startName = startName;
    this.endName = endName;
  }

  @Override
  public void populateDisplayData(DisplayData.Builder builder) {
    super.populateDisplayData(builder);
    builder.add(DisplayData.item("counter", EventTimeMetrics.NAMESPACE + "." + EventTimeMetrics.WINDOWS_CLOSED)
        .withLabel("Counter"));
  }

  @Override
  public PDone expand(PCollection<Row> windows) {
    String start = startName;
    String end = endName;
    windows
        .apply("WindowBounds", MapElements
            .into(TypeDescriptors.kvs(TypeDescriptors.longs(), TypeDescriptors.longs()))
            .via((Row r) -> KV.of(r.getDateTime(start).getMillis(), r.getDateTime(end).getMillis())))
        .setCoder(KvCoder.of(VarLongCoder.of(), VarLongCoder.of()))
        .apply("DistinctWindows", Combine.globally(new CountDistinctFn()))
        .apply("CountWindowsClosed", ParDo.of(new AddToCounterFn(EventTimeMetrics.WINDOWS_CLOSED)));
    return PDone.in(windows.getPipeline());
  }

  /** Counts the distinct window intervals, with partial sets merged across workers. */
  private static final class CountDistinctFn extends Combine.CombineFn<KV<Long, Long>, Set<KV<Long, Long>>, Long> {
    @Override
    public Set<KV<Long, Long>> createAccumulator() {
      return new HashSet<>();
    }

    @Override
    public Set<KV<Long, Long>> addInput(Set<KV<Long, Long>> acc, KV<Long, Long> interval) {
      acc.add(interval);
      return acc;
    }

    @Override
    public Set<KV<Long, Long>> mergeAccumulators(Iterable<Set<KV<Long, Long>>> accs) {
      Set<KV<Long, Long>> merged = new HashSet<>();
      accs.forEach(merged::addAll);
      return merged;
    }

    @Override
    public Long extractOutput(Set<KV<Long, Long>> acc) {
      return (long) acc.size();
    }

    @Override
    public Coder<Set<KV<Long, Long>>> getAccumulatorCoder(CoderRegistry registry, Coder<KV<Long, Long>> in) {
      return IntervalSetCoder.of();
    }
  }

  /**
   * A set of intervals as one block of fixed-width longs: a runner may encode the partial sets
   * again and again (the DirectRunner copies each combine's buffered partials through their coder
   * whenever one more joins them), so each set goes out and in with one write and one read rather
   * than two variable-length numbers an interval.
   */
  static final class IntervalSetCoder extends AtomicCoder<Set<KV<Long, Long>>> {
    private static final IntervalSetCoder INSTANCE = new IntervalSetCoder();

    static IntervalSetCoder of() {
      return INSTANCE;
    }

    @Override
    public void encode(Set<KV<Long, Long>> intervals, OutputStream out) throws IOException {
      ByteBuffer bytes = ByteBuffer.allocate(intervals.size() * 2 * Long.BYTES);
      intervals.forEach(i -> bytes.putLong(i.getKey()).putLong(i.getValue()));
      VarInt.encode(intervals.size(), out);
      out.write(bytes.array());
    }

    @Override
    public Set<KV<Long, Long>> decode(InputStream in) throws IOException {
      int size = VarInt.decodeInt(in);
      if (size < 0 || size > Integer.MAX_VALUE / (2 * Long.BYTES)) {
        throw new CoderException("a set of " + size + " intervals cannot be read");
      }
      byte[] block = in.readNBytes(size * 2 * Long.BYTES);
      if (block.length != size * 2 * Long.BYTES) {
        throw new CoderException("a set of " + size + " intervals ended after " + block.length + " bytes");
      }
      ByteBuffer bytes = ByteBuffer.wrap(block);
      Set<KV<Long, Long>> intervals = new HashSet<>(size * 2);
      for (int i = 0; i < size; i++) {
        intervals.add(KV.of(bytes.getLong(), bytes.getLong()));
      }
      return intervals;
    }
  }

  /** Adds each number that reaches it to one counter. */
  private static final class AddToCounterFn extends DoFn<Long, Void> {
    private final Counter counter;

    AddToCounterFn(String name) {
      this.counter = EventTimeMetrics.counter(name);
    }

    @ProcessElement
    public void process(@Element Long n) {
      counter.inc(n);
    }
  }
}
