package io.eventtime.beam;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.SerializableCoder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.io.UnboundedSource;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.values.KV;
import org.joda.time.Duration;
import org.joda.time.Instant;

/**
 * The offset ranges of a read until told ({@link KafkaRows#withLiveUntil}), one per partition, as
 * an unbounded source that stays open until the stop function says stop for every partition. What
 * the live range read ({@link KafkaRowsLiveRangeReadFn}) is fed from, instead of a {@code Create}:
 * on Beam's Flink runner a splittable DoFn whose input has ended runs its restrictions to their end
 * before the watermark moves on, so no window would leave before the stop. While open, the
 * source's watermark is just short of the end of time: it holds no later step back (the read's own
 * watermark does that), and a runner does not take the source for done.
 */
final class KafkaRowsOpenRanges extends UnboundedSource<KV<Integer, KV<Long, Long>>, KafkaRowsOpenRanges.Handed> {
  private static final long serialVersionUID = 1L;
  private static final Coder<KV<Integer, KV<Long, Long>>> CODER =
      KvCoder.of(VarIntCoder.of(), KvCoder.of(VarLongCoder.of(), VarLongCoder.of()));
  private static final Instant OPEN = BoundedWindow.TIMESTAMP_MAX_VALUE.minus(Duration.standardDays(1));

  private final ArrayList<KV<Integer, KV<Long, Long>>> ranges;
  private final SerializableFunction<Integer, Boolean> stopReading;

  KafkaRowsOpenRanges(List<KV<Integer, KV<Long, Long>>> ranges, SerializableFunction<Integer, Boolean> stopReading) {
    this.ranges = new ArrayList<>(ranges);
    this.stopReading = stopReading;
  }

  /** The checkpoint: whether the ranges were handed on, so that a restored reader does not hand them on again. */
  static final class Handed implements UnboundedSource.CheckpointMark, Serializable {
    private static final long serialVersionUID = 1L;
    private final boolean handed;

    Handed(boolean handed) {
      this.handed = handed;
    }

    @Override
    public void finalizeCheckpoint() {
      // nothing to acknowledge: the ranges are this source's own
    }
  }

  @Override
  public List<KafkaRowsOpenRanges> split(int desiredNumSplits, PipelineOptions options) {
    return List.of(this); // a few elements: the read of each spreads over the workers after a reshuffle
  }

  @Override
  public UnboundedReader<KV<Integer, KV<Long, Long>>> createReader(PipelineOptions options, Handed checkpoint) {
    return new Reader(checkpoint != null && checkpoint.handed);
  }

  @Override
  public Coder<Handed> getCheckpointMarkCoder() {
    return SerializableCoder.of(Handed.class);
  }

  @Override
  public Coder<KV<Integer, KV<Long, Long>>> getOutputCoder() {
    return CODER;
  }

  private final class Reader extends UnboundedReader<KV<Integer, KV<Long, Long>>> {
    private int next;
    private KV<Integer, KV<Long, Long>> current;

    Reader(boolean handed) {
      this.next = handed ? ranges.size() : 0;
    }

    @Override
    public boolean start() {
      return advance();
    }

    @Override
    public boolean advance() {
      if (next < ranges.size()) {
        current = ranges.get(next++);
        return true;
      }
      current = null;
      return false;
    }

    @Override
    public KV<Integer, KV<Long, Long>> getCurrent() {
      if (current == null) {
        throw new NoSuchElementException();
      }
      return current;
    }

    @Override
    public Instant getCurrentTimestamp() {
      getCurrent();
      return BoundedWindow.TIMESTAMP_MIN_VALUE;
    }

    @Override
    public Instant getWatermark() {
      if (next < ranges.size()) {
        return BoundedWindow.TIMESTAMP_MIN_VALUE;
      }
      for (KV<Integer, KV<Long, Long>> range : ranges) {
        if (!stopReading.apply(range.getKey())) {
          return OPEN;
        }
      }
      return BoundedWindow.TIMESTAMP_MAX_VALUE; // every read is told to end: so is this source
    }

    @Override
    public Handed getCheckpointMark() {
      return new Handed(next >= ranges.size());
    }

    @Override
    public KafkaRowsOpenRanges getCurrentSource() {
      return KafkaRowsOpenRanges.this;
    }

    @Override
    public void close() {
      // holds nothing
    }
  }
}
