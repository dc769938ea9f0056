package io.eventtime.beam;

import io.eventtime.core.OpenState;
import io.eventtime.core.state.StateCodec;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.state.BagState;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.StateSpecs;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.values.KV;

/**
 * The end of a live run that keeps a state: under one key it gathers what every key bucket held
 * at the end of the input ({@link HeldBucket}; each bucket sends one, since each was started) and,
 * once all have come, writes the state they make together ({@link LiveState#handedOn}) to the
 * hand-off file of the {@link EventTimeState}, in the state format, which the commit after a run
 * that succeeded makes the stored state.
 */
final class LiveHandOffFn extends DoFn<KV<Integer, HeldBucket>, Void> {
  /** The one key every bucket's held state goes to. */
  static final int KEY = 0;
  private final WindowPlan plan;
  private final LiveState state;
  private final int buckets;

  @StateId("held")
  private final StateSpec<BagState<HeldBucket>> heldSpec;

  LiveHandOffFn(WindowPlan plan, LiveState state, int buckets) {
    this.plan = plan;
    this.state = state;
    this.buckets = buckets;
    this.heldSpec = StateSpecs.bag(HeldBucket.coder(plan.query.aggregates()));
  }

  @ProcessElement
  public void process(@Element KV<Integer, HeldBucket> element, @StateId("held") BagState<HeldBucket> held)
      throws IOException {
    held.add(element.getValue());
    List<HeldBucket> all = new ArrayList<>();
    held.read().forEach(all::add);
    if (all.size() < buckets) {
      return;
    }
    if (all.stream().map(HeldBucket::bucket).distinct().count() != buckets) {
      throw new IllegalStateException("the key buckets' held states came more than once: " + all.stream()
          .map(HeldBucket::bucket).toList() + ", so the state to hand on is not known");
    }
    OpenState next = state.handedOn(plan.query, all);
    EventTimeState.writeHandoff(state.handoff(), new StateCodec(plan.query, plan.timeField).encode(next));
    held.clear();
  }
}
