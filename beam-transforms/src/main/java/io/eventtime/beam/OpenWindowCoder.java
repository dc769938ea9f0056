package io.eventtime.beam;

import io.eventtime.core.AggregateSpec;
import io.eventtime.core.OpenState;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.CustomCoder;
import org.apache.beam.sdk.util.VarInt;

/** Encodes a window held open for the next run: its key, bounds and accumulators, no Java serialisation. */
final class OpenWindowCoder extends CustomCoder<OpenState.OpenWindow> {
  private final AccumulatorsCoder accumulators;

  private OpenWindowCoder(AccumulatorsCoder accumulators) {
    this.accumulators = accumulators;
  }

  static OpenWindowCoder of(List<AggregateSpec> aggregates) {
    return new OpenWindowCoder(AccumulatorsCoder.of(aggregates));
  }

  @Override
  public void encode(OpenState.OpenWindow w, OutputStream out) throws IOException {
    KeyCoder.of().encode(w.key(), out);
    VarInt.encode(w.start(), out);
    VarInt.encode(w.end(), out);
    accumulators.encode(w.accumulators(), out);
  }

  @Override
  public OpenState.OpenWindow decode(InputStream in) throws IOException {
    return new OpenState.OpenWindow(KeyCoder.of().decode(in), VarInt.decodeLong(in), VarInt.decodeLong(in),
        accumulators.decode(in));
  }

  @Override
  public List<? extends Coder<?>> getCoderArguments() {
    return List.of(accumulators);
  }

  @Override
  public void verifyDeterministic() throws NonDeterministicException {
    accumulators.verifyDeterministic();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof OpenWindowCoder c && c.accumulators.equals(accumulators);
  }

  @Override
  public int hashCode() {
    return accumulators.hashCode();
  }
}
