package io.eventtime.hop.beam;

import io.eventtime.core.ArrivalPosition;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.TupleTagList;
import org.apache.hop.pipeline.PipelineHopMeta;
import org.apache.hop.pipeline.transform.ITransformMeta;
import org.apache.hop.pipeline.transform.TransformMeta;
import org.apache.hop.pipeline.transform.stream.IStream;

/**
 * Any transform no other translation handles: run row by row on the workers by hop-engine's
 * single-threaded executor ({@link HopTransformsFn}, or {@link HopSourceFn} when nothing comes
 * in); consecutive ones run together in one step. A transform that needs every row at once, or
 * reads rows of another stream as information, is refused.
 */
final class RowByRowTranslation implements TransformTranslation {
  /**
   * Transforms that need every row of the stream at once (or rows of another stream), which a
   * worker that sees only its share of the rows cannot give.
   */
  private static final Set<String> NEEDS_ALL_ROWS = Set.of("SortRows", "GroupBy", "MemoryGroupBy", "Unique",
      "UniqueRowsByHashSet", "AnalyticQuery", "SampleRows", "ReservoirSampling", "BlockingTransform",
      "BlockUntilTransformsFinish", "Denormaliser", "Flattener", "MergeJoin", "MergeRows", "JoinRows", "SortedMerge",
      "Append", "SingleThreader", "TransformsMetrics", "Delay", "CheckSum", "Sequence", "UniqueRows");

  /** None by name: {@link TransformTranslations} gives this translation every plugin id no other one names. */
  @Override
  public Set<String> pluginIds() {
    return Set.of();
  }

  /**
   * Translates {@code first} together with the transforms that follow it in a chain
   * ({@link #chainFrom}); the chain's last transform sends its rows on, the others send nothing
   * through Beam (the links inside the chain are run by the mini pipeline).
   */
  @Override
  public Map<String, HopStream> translate(TranslationContext context, TransformMeta first) {
    List<TransformMeta> chain = chainFrom(context, first);
    boolean ok = true;
    for (TransformMeta t : chain) {
      ok &= runsRowByRow(context, t);
    }
    chain.forEach(context::takeIn);
    TransformMeta last = chain.get(chain.size() - 1);
    HopStream in = context.input(first);
    if (!ok || (in == null && !context.hopsInto(first).isEmpty())) {
      return null;
    }
    Set<String> targetStreams = new HashSet<>();
    for (IStream s : last.getTransform().getTransformIOMeta().getTargetStreams()) {
      if (s.getTransformName() != null) {
        targetStreams.add(s.getTransformName());
      }
    }
    context.mainTargets(last, targetStreams);
    List<String> targets = new ArrayList<>();
    List<RowLayout> layouts = new ArrayList<>();
    List<TupleTag<Row>> tags = new ArrayList<>();
    for (PipelineHopMeta h : context.hopsFrom(last)) {
      RowLayout layout = context.layout(last, h.getToTransform());
      if (layout == null) {
        return null;
      }
      targets.add(h.getToTransform().getName());
      layouts.add(layout);
      tags.add(new TupleTag<>("to " + h.getToTransform().getName()));
    }
    List<String> names = chain.stream().map(TransformMeta::getName).toList();
    String stepName = String.join(" > ", names);
    TupleTag<Row> nothing = new TupleTag<>("nothing");
    PCollectionTuple out;
    int width;
    int spread;
    if (in == null) {
      out = context.beam().apply(stepName + " (start)", Create.of(0))
          .apply(stepName, ParDo.of(new HopSourceFn(context.workers(), names, targets, layouts, tags))
              .withOutputTags(nothing, TupleTagList.of(new ArrayList<>(tags))));
      width = Arrivals.RANK_BITS;
      spread = 0;
    } else {
      out = in.rows().apply(stepName, ParDo.of(new HopTransformsFn(context.workers(), names, in.layout(), targets,
              layouts, tags))
          .withOutputTags(nothing, TupleTagList.of(new ArrayList<>(tags))));
      width = in.widthBits() + ArrivalPosition.FAN_OUT_BITS;
      spread = in.spreadBits() + ArrivalPosition.FAN_OUT_BITS;
    }
    out.get(nothing).setRowSchema(in == null ? Schema.builder().addInt64Field(RowLayout.ARRIVAL).build() : in.layout().schema());
    Map<String, HopStream> outputs = new LinkedHashMap<>();
    for (int i = 0; i < targets.size(); i++) {
      PCollection<Row> rows = out.get(tags.get(i)).setRowSchema(layouts.get(i).schema());
      outputs.put(targets.get(i), context.checkedWidth(last, new HopStream(rows, layouts.get(i), width, spread)));
    }
    if (chain.size() == 1) {
      return outputs;
    }
    for (TransformMeta inner : chain.subList(1, chain.size() - 1)) {
      context.sent(inner, Map.of());
    }
    context.sent(last, outputs);
    return Map.of();
  }

  /**
   * The transforms of other plugins that run together from {@code first}: each sends all its
   * rows, by one hop and without error handling, to the next, which gets rows from it alone and
   * has no translation of its own.
   */
  private static List<TransformMeta> chainFrom(TranslationContext context, TransformMeta first) {
    List<TransformMeta> chain = new ArrayList<>(List.of(first));
    TransformMeta t = first;
    while (true) {
      List<PipelineHopMeta> out = context.hopsFrom(t);
      if (out.size() != 1 || t.isDoingErrorHandling()
          || !t.getTransform().getTransformIOMeta().getTargetStreams().isEmpty()) {
        return chain;
      }
      TransformMeta next = out.get(0).getToTransform();
      if (context.translations().hasOwnTranslation(next.getTransformPluginId()) || context.hopsInto(next).size() != 1
          || context.isUntranslated(next.getName())) {
        return chain;
      }
      chain.add(next);
      t = next;
    }
  }

  /** Whether a transform of another plugin can run on each worker's share of the rows. */
  private static boolean runsRowByRow(TranslationContext context, TransformMeta t) {
    ITransformMeta m = t.getTransform();
    if (NEEDS_ALL_ROWS.contains(t.getTransformPluginId())) {
      context.problem(t, "its plugin '" + t.getTransformPluginId() + "' needs every row at once, but on Beam each"
          + " worker sees only its share of the rows: aggregate over time with Event Time Window, or run this"
          + " pipeline on the local engine");
      return false;
    }
    for (IStream s : m.getTransformIOMeta().getInfoStreams()) {
      if (s.getTransformMeta() != null || s.getSubject() != null) {
        context.problem(t, "it reads rows from '" + s.getTransformName() + "' as information (a lookup or a join),"
            + " which the Beam translation does not run: run this pipeline on the local engine");
        return false;
      }
    }
    return true;
  }
}
