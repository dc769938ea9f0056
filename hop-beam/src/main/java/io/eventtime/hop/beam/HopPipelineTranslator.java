package io.eventtime.hop.beam;

import io.eventtime.beam.EventTimeState;
import io.eventtime.hop.kafkainput.EventKafkaInputMeta;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.beam.sdk.Pipeline;
import org.apache.hop.core.exception.HopException;
import org.apache.hop.core.variables.IVariables;
import org.apache.hop.core.vfs.HopVfs;
import org.apache.hop.core.xml.XmlHandler;
import org.apache.hop.metadata.api.IHopMetadataProvider;
import org.apache.hop.pipeline.PipelineHopMeta;
import org.apache.hop.pipeline.PipelineMeta;
import org.apache.hop.pipeline.transform.TransformMeta;
import org.w3c.dom.Document;
import org.w3c.dom.Node;

/**
 * Translates a Hop pipeline into a Beam pipeline that gives the same rows as Hop's local engine.
 * It walks the transforms in an order where each comes after those it reads from, and asks
 * {@link TransformTranslations} for the {@link TransformTranslation} of each one's plugin:
 *
 * <ul>
 *   <li>Event File Input: {@link EventFileInputTranslation}; Event Time Stamp:
 *       {@link EventTimeStampTranslation}; Event Time Window: {@link EventTimeWindowTranslation};
 *       Event File Output: {@link EventFileOutputTranslation}; Dummy: {@link DummyTranslation}.
 *   <li>Late-row targets and error hops: the tagged late and rejected outputs, as the rows the
 *       local engine sends there.
 *   <li>Several hops into one transform: the rows of each hop in turn (flattened, positions of the
 *       first hop's rows first; {@link TranslationContext#input}).
 *   <li>Any other transform of the plugin registry: run row by row on the workers
 *       ({@link RowByRowTranslation}); consecutive ones run together.
 * </ul>
 *
 * Whatever cannot run on Beam is refused before anything runs, each problem naming the
 * transform and what to do ({@link TranslationException}).
 */
public final class HopPipelineTranslator {
  private final TranslationContext context;
  private final PipelineMeta meta;

  private HopPipelineTranslator(TranslationContext context) {
    this.context = context;
    this.meta = context.pipelineMeta();
  }

  /**
   * What a translation made: the Beam pipeline (not yet run), notes on settings Beam ignores,
   * and the state folders of windows that keep their open windows for the next run, to commit
   * when the run has succeeded and to close in any case.
   */
  public record Translation(Pipeline pipeline, List<String> transformNames, List<String> notes,
      List<EventTimeState> states, List<String> windowTransforms) implements AutoCloseable {
    /** What each transform counted, as Hop counts it, once the pipeline has run (or while it runs). */
    public Map<String, Map<HopMetrics.Kind, Long>> metrics(org.apache.beam.sdk.PipelineResult result) {
      return HopMetrics.read(result, windowTransforms);
    }

    /** Makes the state each window left the current one: call it only when the run has succeeded. */
    public void commitStates() {
      states.forEach(EventTimeState::commit);
    }

    @Override
    public void close() {
      states.forEach(EventTimeState::close);
    }
  }

  /**
   * Adds the translation of {@code meta} to {@code beam}; {@code variables} resolve every
   * {@code ${VAR}} of the settings, as the local engine's would. Refuses the pipeline, before
   * anything runs, when any of its transforms cannot run on Beam.
   */
  public static Translation translate(PipelineMeta meta, IVariables variables, IHopMetadataProvider metadata,
      Pipeline beam) throws HopException {
    return translate(meta, variables, metadata, beam, TransformTranslations.BUILT_IN);
  }

  /** {@link #translate(PipelineMeta, IVariables, IHopMetadataProvider, Pipeline)} with the given translations. */
  static Translation translate(PipelineMeta meta, IVariables variables, IHopMetadataProvider metadata, Pipeline beam,
      TransformTranslations translations) throws HopException {
    TranslationContext c = new TranslationContext(meta, variables, metadata, beam, translations);
    new HopPipelineTranslator(c).translateAll();
    if (!c.problems().isEmpty()) {
      c.states().forEach(EventTimeState::close);
      throw new TranslationException(meta.getName(), c.problems());
    }
    List<String> names = new ArrayList<>();
    meta.getTransforms().forEach(tm -> names.add(tm.getName()));
    return new Translation(beam, names, c.notes(), c.states(), c.windowTransforms());
  }

  /**
   * Whether {@code meta} reads a live stream that ends only when the run is cancelled (an Event
   * Kafka Input without "stop when caught up"), so the engines run it in streaming mode, detached.
   * A read that stops when caught up is unbounded too, but ends by itself: the runner goes
   * streaming on its own, and the run is waited for as a bounded one is.
   */
  public static boolean readsLive(PipelineMeta meta) {
    Set<String> live = new EventKafkaInputTranslation().pluginIds();
    return meta.getTransforms().stream().anyMatch(t -> live.contains(t.getTransformPluginId())
        && !((EventKafkaInputMeta) t.getTransform()).isStopWhenCaughtUp());
  }

  private void translateAll() {
    for (PipelineHopMeta hop : meta.getPipelineHops()) {
      if (!hop.isEnabled()) {
        continue;
      }
      if (hop.getFromTransform() == null || hop.getToTransform() == null) {
        context.problem(unknownHop(hop));
        continue;
      }
      context.addHop(hop);
    }
    for (TransformMeta t : meta.getTransforms()) {
      if (t.isMissing() || t.getTransform() == null) {
        context.problem(t, "its plugin '" + t.getTransformPluginId() + "' is not installed: install the plugin that"
            + " provides it (put it in Hop's plugins folder, or on the class path of the Beam run), or remove the"
            + " transform");
        context.untranslated(t.getName());
      }
    }
    for (TransformMeta t : topologicalOrder()) {
      if (context.isTakenIn(t.getName())) {
        continue;
      }
      if (context.isUntranslated(t.getName())
          || context.hopsInto(t).stream().anyMatch(h -> !context.hasSent(h.getFromTransform().getName()))) {
        context.untranslated(t.getName());
        continue;
      }
      try {
        Map<String, HopStream> outputs = context.translations().forPluginId(t.getTransformPluginId())
            .translate(context, t);
        if (outputs == null) {
          context.untranslated(t.getName());
        } else {
          context.sent(t, outputs);
        }
      } catch (IllegalArgumentException | IllegalStateException e) {
        // the Beam transforms check their settings against the rows when applied
        context.problem(t, e.getMessage());
        context.untranslated(t.getName());
      }
    }
  }

  private String unknownHop(PipelineHopMeta hop) {
    String from = hop.getFromTransform() == null ? null : hop.getFromTransform().getName();
    String to = hop.getToTransform() == null ? null : hop.getToTransform().getName();
    String[] named = namesInFile(from, to);
    return "The hop from '" + (from != null ? from : named[0]) + "' to '" + (to != null ? to : named[1])
        + "' names a transform that is not in the pipeline: remove the hop, or add the transform";
  }

  /** The names a hop with a missing end has in the pipeline's file, the known end given. */
  private String[] namesInFile(String from, String to) {
    String[] names = {from == null ? "?" : from, to == null ? "?" : to};
    String file = meta.getFilename();
    if (file == null) {
      return names;
    }
    try {
      Document doc = XmlHandler.loadXmlFile(HopVfs.getFileObject(file, context.variables()));
      Node order = XmlHandler.getSubNode(XmlHandler.getSubNode(doc, PipelineMeta.XML_TAG), "order");
      for (Node hop : XmlHandler.getNodes(order, "hop")) {
        String f = XmlHandler.getTagValue(hop, "from");
        String t = XmlHandler.getTagValue(hop, "to");
        boolean fromMissing = f != null && meta.findTransform(f) == null;
        boolean toMissing = t != null && meta.findTransform(t) == null;
        if ((fromMissing || toMissing) && (from == null || from.equals(f)) && (to == null || to.equals(t))) {
          return new String[] {f, t};
        }
      }
    } catch (Exception e) {
      // the message then names only the end that is known
    }
    return names;
  }

  /** The transforms in an order where each comes after those it reads from; loops are refused. */
  private List<TransformMeta> topologicalOrder() {
    Map<String, Integer> inDegree = new LinkedHashMap<>();
    meta.getTransforms().forEach(t -> inDegree.put(t.getName(), 0));
    context.hops().forEach(h -> inDegree.merge(h.getToTransform().getName(), 1, Integer::sum));
    Deque<TransformMeta> ready = new ArrayDeque<>();
    meta.getTransforms().stream().filter(t -> inDegree.get(t.getName()) == 0).forEach(ready::add);
    List<TransformMeta> order = new ArrayList<>();
    while (!ready.isEmpty()) {
      TransformMeta t = ready.poll();
      order.add(t);
      for (PipelineHopMeta h : context.hopsFrom(t)) {
        if (inDegree.merge(h.getToTransform().getName(), -1, Integer::sum) == 0) {
          ready.add(h.getToTransform());
        }
      }
    }
    if (order.size() < meta.getTransforms().size()) {
      List<String> looping = new ArrayList<>();
      meta.getTransforms().stream().filter(t -> !order.contains(t)).forEach(t -> looping.add("'" + t.getName() + "'"));
      context.problem("The hops make a loop through " + String.join(", ", looping) + ": rows cannot go round in circles"
          + " on Beam (nor on the local engine): remove one of the hops of the loop");
      meta.getTransforms().stream().filter(t -> !order.contains(t)).forEach(t -> context.untranslated(t.getName()));
    }
    return order;
  }

}
