package io.eventtime.beam;

import io.eventtime.core.AggregateSpec;
import io.eventtime.core.OpenState;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import org.apache.beam.sdk.util.VarInt;

/** Encodes a window held open for the next run: its key, bounds and accumulators, no Java serialisation. */
final class OpenWindowCoder extends WrappingCoder<OpenState.OpenWindow, AccumulatorsCoder> {
  private OpenWindowCoder(AccumulatorsCoder accumulators) {
    super(accumulators);
  }

  static OpenWindowCoder of(List<AggregateSpec> aggregates) {
    return new OpenWindowCoder(AccumulatorsCoder.of(aggregates));
  }

  @Override
  public void encode(OpenState.OpenWindow w, OutputStream out) throws IOException {
    KeyCoder.of().encode(w.key(), out);
    VarInt.encode(w.start(), out);
    VarInt.encode(w.end(), out);
    inner.encode(w.accumulators(), out);
  }

  @Override
  public OpenState.OpenWindow decode(InputStream in) throws IOException {
    return new OpenState.OpenWindow(KeyCoder.of().decode(in), VarInt.decodeLong(in), VarInt.decodeLong(in),
        inner.decode(in));
  }
}
