package io.eventtime.beam;

import java.util.List;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.CustomCoder;

/**
 * A coder built on one inner coder: its argument, its determinism and its equality are the inner
 * coder's. Equality matters because a runner may compare the coders of collections it joins
 * (Flink's union of a Flatten refuses two that differ).
 *
 * @param <T> what this coder encodes
 * @param <C> the inner coder
 */
abstract class WrappingCoder<T, C extends Coder<?>> extends CustomCoder<T> {
  protected final C inner;

  protected WrappingCoder(C inner) {
    this.inner = inner;
  }

  @Override
  public final List<? extends Coder<?>> getCoderArguments() {
    return List.of(inner);
  }

  @Override
  public final void verifyDeterministic() throws NonDeterministicException {
    inner.verifyDeterministic();
  }

  @Override
  public final boolean equals(Object o) {
    return o != null && o.getClass() == getClass() && ((WrappingCoder<?, ?>) o).inner.equals(inner);
  }

  @Override
  public final int hashCode() {
    return inner.hashCode();
  }
}
