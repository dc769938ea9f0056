package io.eventtime.beam;

import io.eventtime.core.AggregateSpec;
import io.eventtime.core.OpenState;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.coders.CoderException;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.util.VarInt;

/**
 * Encodes what the live path's fold step keeps of a key bucket between bundles: the core's
 * {@link OpenState} as {@code PartitionedWindowProcessor.hold()} gives it. Each partition's id,
 * latest event time, idle watermark and next arrival; each open window with the partition that
 * holds it; the sessions waiting to be joined across partitions, in their order. The
 * accumulators keep the event time of a {@code first} or {@code last} row ({@link AccumulatorsCoder}),
 * which merging several partitions' partials needs. The live path has no positions nor committed
 * outputs in it (those belong to a state file), so a state with them is refused.
 */
final class OpenStateCoder extends WrappingCoder<OpenState, OpenWindowCoder> {
  private OpenStateCoder(OpenWindowCoder windows) {
    super(windows);
  }

  static OpenStateCoder of(List<AggregateSpec> aggregates) {
    return new OpenStateCoder(OpenWindowCoder.of(aggregates));
  }

  @Override
  public void encode(OpenState state, OutputStream out) throws IOException {
    if (!state.outputs().isEmpty()) {
      throw new CoderException("the live path keeps no committed outputs, got " + state.outputs());
    }
    VarInt.encode(state.partitions().size(), out);
    for (OpenState.Partition p : state.partitions()) {
      if (p.position() != null) {
        throw new CoderException("the live path keeps no position of partition " + p.id() + ", got " + p.position());
      }
      StringUtf8Coder.of().encode(p.id(), out);
      encodeNullable(p.maxEventTime(), out);
      encodeNullable(p.idleWatermark(), out);
      VarInt.encode(p.nextArrival(), out);
    }
    encodeWindows(state.windows(), out);
    encodeWindows(state.waiting(), out);
  }

  @Override
  public OpenState decode(InputStream in) throws IOException {
    int n = VarInt.decodeInt(in);
    List<OpenState.Partition> partitions = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      partitions.add(new OpenState.Partition(StringUtf8Coder.of().decode(in), decodeNullable(in), decodeNullable(in),
          VarInt.decodeLong(in), null));
    }
    return new OpenState(partitions, decodeWindows(in), decodeWindows(in), Map.of());
  }

  private void encodeWindows(List<OpenState.OpenWindow> list, OutputStream out) throws IOException {
    VarInt.encode(list.size(), out);
    for (OpenState.OpenWindow w : list) {
      inner.encode(w, out);
      StringUtf8Coder.of().encode(w.partition(), out);
    }
  }

  private List<OpenState.OpenWindow> decodeWindows(InputStream in) throws IOException {
    int n = VarInt.decodeInt(in);
    List<OpenState.OpenWindow> list = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      OpenState.OpenWindow w = inner.decode(in);
      list.add(w.inPartition(StringUtf8Coder.of().decode(in)));
    }
    return list;
  }

  private static void encodeNullable(Long value, OutputStream out) throws IOException {
    out.write(value == null ? 0 : 1);
    if (value != null) {
      VarInt.encode(value, out);
    }
  }

  private static Long decodeNullable(InputStream in) throws IOException {
    return in.read() == 1 ? VarInt.decodeLong(in) : null;
  }
}
