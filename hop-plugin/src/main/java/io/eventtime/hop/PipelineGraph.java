package io.eventtime.hop;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.hop.pipeline.Pipeline;
import org.apache.hop.pipeline.PipelineMeta;
import org.apache.hop.pipeline.engine.IPipelineEngine;
import org.apache.hop.pipeline.transform.ITransform;
import org.apache.hop.pipeline.transform.TransformMeta;

/** The transforms a transform's rows reach, or come from, following the hops of a pipeline. */
public final class PipelineGraph {
  private PipelineGraph() {}

  /** Every transform downstream of {@code from}, nearest first, {@code from} left out. */
  public static List<TransformMeta> downstream(PipelineMeta pipeline, TransformMeta from) {
    return walk(pipeline, from, true);
  }

  /** Every transform upstream of {@code from}, nearest first, {@code from} left out. */
  public static List<TransformMeta> upstream(PipelineMeta pipeline, TransformMeta from) {
    return walk(pipeline, from, false);
  }

  /** The running first copy of transform {@code name} on the local engine; null on another engine. */
  public static ITransform running(IPipelineEngine<PipelineMeta> engine, String name) {
    return engine instanceof Pipeline local ? local.getTransform(name, 0) : null;
  }

  private static List<TransformMeta> walk(PipelineMeta pipeline, TransformMeta from, boolean down) {
    Set<TransformMeta> seen = new LinkedHashSet<>();
    Deque<TransformMeta> todo = new ArrayDeque<>(List.of(from));
    while (!todo.isEmpty()) {
      TransformMeta t = todo.poll();
      for (TransformMeta next : down ? pipeline.findNextTransforms(t) : pipeline.findPreviousTransforms(t)) {
        if (next != from && seen.add(next)) {
          todo.add(next);
        }
      }
    }
    return new ArrayList<>(seen);
  }
}
