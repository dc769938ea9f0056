package io.eventtime.beam;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.AbstractSet;
import java.util.Collections;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Set;
import org.apache.beam.sdk.coders.AtomicCoder;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.CoderException;
import org.apache.beam.sdk.coders.CoderRegistry;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.transforms.Combine;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.display.DisplayData;
import org.apache.beam.sdk.util.VarInt;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PDone;
import org.apache.beam.sdk.values.Row;

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
    windows
        .apply("DistinctWindows", Combine.globally(new CountDistinctFn(startName, endName)).withoutDefaults())
        .apply("CountWindowsClosed", ParDo.of(new AddToCounterFn(EventTimeMetrics.WINDOWS_CLOSED)));
    return PDone.in(windows.getPipeline());
  }

  /**
   * Counts the distinct window intervals, with partial sets merged across workers. It reads a
   * window row's bounds itself, and no window row means no count (the counter then reads 0),
   * rather than a step more for each and a default for none: a runner that translates every step
   * again for each bundle (the DirectRunner, a bundle per key after a grouping by key) pays for
   * each step the window rows pass through.
   */
  static final class CountDistinctFn extends Combine.CombineFn<Row, Set<KV<Long, Long>>, Long> {
    private final String startName;
    private final String endName;

    CountDistinctFn(String startName, String endName) {
      this.startName = startName;
      this.endName = endName;
    }

    @Override
    public Set<KV<Long, Long>> createAccumulator() {
      return new HashSet<>();
    }

    @Override
    public Set<KV<Long, Long>> addInput(Set<KV<Long, Long>> partial, Row window) {
      Set<KV<Long, Long>> acc = partial instanceof EncodedIntervals ? new HashSet<>(partial) : partial;
      acc.add(KV.of(window.getDateTime(startName).getMillis(), window.getDateTime(endName).getMillis()));
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
    public Coder<Set<KV<Long, Long>>> getAccumulatorCoder(CoderRegistry registry, Coder<Row> in) {
      return IntervalSetCoder.of();
    }
  }

  /**
   * A set of intervals as one block of fixed-width longs, read back as that block
   * ({@link EncodedIntervals}): a runner may encode the partial sets again and again (the
   * DirectRunner copies each combine's buffered partials through their coder whenever one more
   * joins them), so a set read back from this coder goes out again as its bytes, and in as one
   * copy of them.
   */
  static final class IntervalSetCoder extends AtomicCoder<Set<KV<Long, Long>>> {
    private static final IntervalSetCoder INSTANCE = new IntervalSetCoder();

    static IntervalSetCoder of() {
      return INSTANCE;
    }

    @Override
    public void encode(Set<KV<Long, Long>> intervals, OutputStream out) throws IOException {
      if (intervals instanceof EncodedIntervals encoded) {
        VarInt.encode(encoded.size, out);
        out.write(encoded.block);
        return;
      }
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
      return new EncodedIntervals(block, size);
    }
  }

  /**
   * A decoded set of distinct intervals that keeps its block and reads it only when its members
   * are asked for. It cannot be changed: a partial given back to {@code addInput} is copied first.
   */
  static final class EncodedIntervals extends AbstractSet<KV<Long, Long>> {
    private final byte[] block;
    private final int size;
    /** The members once read; two threads reading at once may both read them, to equal sets. */
    private volatile Set<KV<Long, Long>> read;

    private EncodedIntervals(byte[] block, int size) {
      this.block = block;
      this.size = size;
    }

    @Override
    public int size() {
      return size;
    }

    @Override
    public Iterator<KV<Long, Long>> iterator() {
      return members().iterator();
    }

    @Override
    public boolean contains(Object o) {
      return members().contains(o);
    }

    private Set<KV<Long, Long>> members() {
      Set<KV<Long, Long>> members = read;
      if (members == null) {
        ByteBuffer bytes = ByteBuffer.wrap(block);
        Set<KV<Long, Long>> intervals = new HashSet<>(size * 2);
        for (int i = 0; i < size; i++) {
          intervals.add(KV.of(bytes.getLong(), bytes.getLong()));
        }
        members = Collections.unmodifiableSet(intervals);
        read = members;
      }
      return members;
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
