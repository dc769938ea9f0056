package io.eventtime.beam;

import io.eventtime.core.Key;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.beam.sdk.coders.AtomicCoder;
import org.apache.beam.sdk.util.VarInt;

/** One grid window of one key: what partial aggregates are combined by. */
record WindowKey(Key key, long start) {

  /** A deterministic encoding, so that runners can group by it. */
  static final class WindowKeyCoder extends AtomicCoder<WindowKey> {
    private static final WindowKeyCoder INSTANCE = new WindowKeyCoder();

    static WindowKeyCoder of() {
      return INSTANCE;
    }

    @Override
    public void encode(WindowKey value, OutputStream out) throws IOException {
      KeyCoder.of().encode(value.key(), out);
      VarInt.encode(value.start(), out);
    }

    @Override
    public WindowKey decode(InputStream in) throws IOException {
      Key key = KeyCoder.of().decode(in);
      return new WindowKey(key, VarInt.decodeLong(in));
    }

    @Override
    public void verifyDeterministic() {}

    @Override
    public boolean consistentWithEquals() {
      return true;
    }
  }
}
