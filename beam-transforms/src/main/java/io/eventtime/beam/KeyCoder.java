package io.eventtime.beam;

import io.eventtime.core.Key;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.beam.sdk.coders.AtomicCoder;

/** Encodes a grouping key deterministically, so that runners can group by it. */
final class KeyCoder extends AtomicCoder<Key> {
  private static final KeyCoder INSTANCE = new KeyCoder();

  static KeyCoder of() {
    return INSTANCE;
  }

  @Override
  public void encode(Key key, OutputStream out) throws IOException {
    ValuesCoder.of().encode(key.values().toArray(), out);
  }

  @Override
  public Key decode(InputStream in) throws IOException {
    return Key.of(ValuesCoder.of().decode(in));
  }

  @Override
  public void verifyDeterministic() {}

  @Override
  public boolean consistentWithEquals() {
    return true;
  }
}
