package io.eventtime.beam;

import io.eventtime.core.AggregateSpec;
import io.eventtime.core.OpenState;
import java.util.List;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.DelegateCoder;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.ListCoder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.values.KV;

/**
 * What key bucket {@code bucket} holds at the end of a live run that keeps a state: its
 * processor's {@code hold()}, and the last position it took in of each partition (in partition
 * order; {@link Long#MIN_VALUE} for none), from which {@link LiveState#handedOn} finds where each
 * partition's reading goes on.
 */
record HeldBucket(int bucket, OpenState state, List<Long> lastPositions) {
  HeldBucket {
    lastPositions = List.copyOf(lastPositions);
  }

  static Coder<HeldBucket> coder(List<AggregateSpec> aggregates) {
    return DelegateCoder.of(
        KvCoder.of(KvCoder.of(VarIntCoder.of(), ListCoder.of(VarLongCoder.of())), OpenStateCoder.of(aggregates)),
        (HeldBucket h) -> KV.of(KV.of(h.bucket, h.lastPositions), h.state),
        (KV<KV<Integer, List<Long>>, OpenState> kv) ->
            new HeldBucket(kv.getKey().getKey(), kv.getValue(), kv.getKey().getValue()));
  }
}
