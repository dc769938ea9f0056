package io.eventtime.hop.beam;

import io.eventtime.beam.EventTimeState;
import io.eventtime.core.ArrivalPosition;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.transforms.Flatten;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionList;
import org.apache.beam.sdk.values.Row;
import org.apache.hop.core.exception.HopException;
import org.apache.hop.core.row.IRowMeta;
import org.apache.hop.core.row.IValueMeta;
import org.apache.hop.core.variables.IVariables;
import org.apache.hop.metadata.api.IHopMetadataProvider;
import org.apache.hop.pipeline.PipelineHopMeta;
import org.apache.hop.pipeline.PipelineMeta;
import org.apache.hop.pipeline.transform.TransformMeta;

/**
 * What every {@link TransformTranslation} of one pipeline shares while {@link HopPipelineTranslator}
 * walks it: the Hop pipeline and its variables, the Beam pipeline being built, what each translated
 * transform sends to each next one, and the problems, notes and window states found so far. It also
 * answers the questions the translations of several transforms ask alike (the layout of a hop, the
 * rows coming in, the main and error targets), each problem reported with the transform's name.
 */
final class TranslationContext {
  private final PipelineMeta meta;
  private final IVariables variables;
  private final HopContext workers;
  private final Pipeline beam;
  private final TransformTranslations translations;
  private final List<PipelineHopMeta> hops = new ArrayList<>();
  private final List<String> problems = new ArrayList<>();
  private final List<String> notes = new ArrayList<>();
  /** What each translated transform sends to each next transform. */
  private final Map<String, Map<String, HopStream>> sent = new HashMap<>();
  private final Set<String> untranslated = new HashSet<>();
  /** The transforms a translation took in with another: the walk does not translate them on their own. */
  private final Set<String> takenIn = new HashSet<>();
  /** The state folders of windows that carry their open windows from run to run. */
  private final List<EventTimeState> states = new ArrayList<>();
  /** The live (unbounded) inputs by transform name: their partitions and the field that names them. */
  private final Map<String, LiveSource> liveSources = new HashMap<>();
  /** The Event Time Windows: their rows in, late and rejected are counted by the window under their names. */
  private final List<String> windowTransforms = new ArrayList<>();

  TranslationContext(PipelineMeta meta, IVariables variables, IHopMetadataProvider metadata, Pipeline beam,
      TransformTranslations translations) throws HopException {
    this.meta = meta;
    this.variables = variables;
    this.workers = new HopContext(meta, variables, metadata);
    this.beam = beam;
    this.translations = translations;
  }

  PipelineMeta pipelineMeta() {
    return meta;
  }

  IVariables variables() {
    return variables;
  }

  /** What the workers need to rebuild the Hop pipeline, for the Beam steps that run Hop code. */
  HopContext workers() {
    return workers;
  }

  Pipeline beam() {
    return beam;
  }

  TransformTranslations translations() {
    return translations;
  }

  // --- what the walk found

  List<String> problems() {
    return problems;
  }

  List<String> notes() {
    return notes;
  }

  List<EventTimeState> states() {
    return states;
  }

  List<String> windowTransforms() {
    return windowTransforms;
  }

  void problem(TransformMeta t, String text) {
    problems.add("Transform '" + t.getName() + "': " + text);
  }

  /** A problem of the whole pipeline, not of one transform. */
  void problem(String text) {
    problems.add(text);
  }

  void note(String text) {
    notes.add(text);
  }

  /** A window's state folder, to commit when the run has succeeded and to close in any case. */
  void keepState(EventTimeState state) {
    states.add(state);
  }

  /** A window whose rows in, late and rejected are counted by the window under its name. */
  void countedByWindow(String transformName) {
    windowTransforms.add(transformName);
  }

  /** A live input: the partitions it reads, fixed for the run, and its partition field (null: none). */
  record LiveSource(String transformName, List<Integer> partitions, String partitionField) {}

  /** {@code t} reads a live stream of these partitions, named in its rows by {@code partitionField}. */
  void liveSource(TransformMeta t, List<Integer> partitions, String partitionField) {
    liveSources.put(t.getName(), new LiveSource(t.getName(), List.copyOf(partitions), partitionField));
  }

  /** The live inputs whose rows reach {@code t}, through any transforms between, in name order. */
  List<LiveSource> liveSourcesUpstream(TransformMeta t) {
    Set<String> seen = new HashSet<>();
    List<TransformMeta> todo = new ArrayList<>(List.of(t));
    while (!todo.isEmpty()) {
      TransformMeta next = todo.remove(todo.size() - 1);
      for (PipelineHopMeta h : hopsInto(next)) {
        if (seen.add(h.getFromTransform().getName())) {
          todo.add(h.getFromTransform());
        }
      }
    }
    return liveSources.values().stream().filter(s -> seen.contains(s.transformName()))
        .sorted(Comparator.comparing(LiveSource::transformName)).toList();
  }

  // --- the hops, and what went through them

  void addHop(PipelineHopMeta hop) {
    hops.add(hop);
  }

  /** The enabled hops between transforms of the pipeline. */
  List<PipelineHopMeta> hops() {
    return hops;
  }

  List<PipelineHopMeta> hopsInto(TransformMeta t) {
    return hops.stream().filter(h -> h.getToTransform() == t).toList();
  }

  List<PipelineHopMeta> hopsFrom(TransformMeta t) {
    return hops.stream().filter(h -> h.getFromTransform() == t).toList();
  }

  /** Records what {@code t} sends to each next transform, by name. */
  void sent(TransformMeta t, Map<String, HopStream> outputs) {
    sent.put(t.getName(), outputs);
  }

  boolean hasSent(String transformName) {
    return sent.containsKey(transformName);
  }

  void untranslated(String transformName) {
    untranslated.add(transformName);
  }

  boolean isUntranslated(String transformName) {
    return untranslated.contains(transformName);
  }

  /** {@code t} is translated together with the transform being translated, not on its own. */
  void takeIn(TransformMeta t) {
    takenIn.add(t.getName());
  }

  boolean isTakenIn(String transformName) {
    return takenIn.contains(transformName);
  }

  // --- the layouts and inputs of the hops

  /** The layout of the rows {@code from} sends to {@code to}, as Hop computes it. */
  RowLayout layout(TransformMeta from, TransformMeta to) {
    try {
      IRowMeta fields = meta.getTransformFields(variables, from, to, null);
      return RowLayout.of(fields, "Transform '" + from.getName() + "' (rows to '" + to.getName() + "')", problems);
    } catch (HopException e) {
      problem(from, "cannot tell the fields it sends to '" + to.getName() + "': " + e.getMessage());
      return null;
    }
  }

  /** The layout of what a transform sends when it has no next transform. */
  RowLayout layoutAlone(TransformMeta t) {
    try {
      return RowLayout.of(meta.getTransformFields(variables, t), "Transform '" + t.getName() + "'", problems);
    } catch (HopException e) {
      problem(t, "cannot tell the fields it sends: " + e.getMessage());
      return null;
    }
  }

  /** The rows coming into {@code t}: those of its one hop in, or of all its hops in turn; null when none. */
  HopStream input(TransformMeta t) {
    List<HopStream> streams = new ArrayList<>();
    List<String> from = new ArrayList<>();
    for (PipelineHopMeta h : hopsInto(t)) {
      HopStream s = sent.get(h.getFromTransform().getName()).get(t.getName());
      if (s != null) {
        streams.add(s);
        from.add(h.getFromTransform().getName());
      }
    }
    if (streams.size() <= 1) {
      return streams.isEmpty() ? null : streams.get(0);
    }
    HopStream first = streams.get(0);
    for (int i = 1; i < streams.size(); i++) {
      if (!streams.get(i).layout().sameFieldsAs(first.layout())) {
        problem(t, "the rows from '" + from.get(0) + "' " + first.layout().fieldNames() + " and from '" + from.get(i)
            + "' " + streams.get(i).layout().fieldNames() + " have different fields: make every hop into it bring"
            + " the same fields, of the same types, in the same order (e.g. with Select values)");
        return null;
      }
    }
    int width = streams.stream().mapToInt(HopStream::widthBits).max().orElse(0);
    int spread = streams.stream().mapToInt(HopStream::spreadBits).max().orElse(0);
    Schema schema = first.layout().schema();
    PCollectionList<Row> list = PCollectionList.empty(beam);
    for (int i = 0; i < streams.size(); i++) {
      list = list.and(streams.get(i).rows()
          .apply(t.getName() + " (arrival of rows from " + from.get(i) + ")",
              ParDo.of(new RowFns.FlattenedPositionFn(schema, i, width)))
          .setRowSchema(schema));
    }
    PCollection<Row> all = list.apply(t.getName() + " (rows of every hop in)", Flatten.pCollections()).setRowSchema(schema);
    return checkedWidth(t, new HopStream(all, first.layout(), width + Arrivals.bitsFor(streams.size()), spread));
  }

  HopStream checkedWidth(TransformMeta t, HopStream s) {
    if (s.widthBits() > Arrivals.MAX_BITS) {
      problem(t, "the arrival positions of its rows would need " + s.widthBits() + " bits, more than the "
          + Arrivals.MAX_BITS + " the Beam translation has: too many hops flattened into one transform, or too many"
          + " transforms of other plugins one after another (each takes " + ArrivalPosition.FAN_OUT_BITS + " bits);"
          + " put an Event Time Window, or fewer of them, in between");
    }
    return s;
  }

  /** The transform's input; a problem when it has none. */
  HopStream requiredInput(TransformMeta t, String what) {
    HopStream in = input(t);
    if (in == null && hopsInto(t).isEmpty()) {
      problem(t, "it has no input: draw a hop into it from the transform that sends " + what);
    }
    return in;
  }

  /** The next transforms that get a transform's main output (neither its error hop nor a target stream). */
  List<TransformMeta> mainTargets(TransformMeta t, Set<String> special) {
    List<TransformMeta> targets = new ArrayList<>();
    for (PipelineHopMeta h : hopsFrom(t)) {
      TransformMeta to = h.getToTransform();
      if (!t.isSendingErrorRowsToTransform(to) && special.stream().noneMatch(to.getName()::equalsIgnoreCase)) {
        targets.add(to);
      }
    }
    if (targets.size() > 1 && t.isDistributes()) {
      problem(t, "it deals its rows out in turn over " + targets.size() + " hops (distribute), which Beam cannot do"
          + " in the local engine's order: set it to copy the rows to every next transform (right-click the"
          + " transform > Data routing > Copy)");
    }
    return targets;
  }

  TransformMeta errorTarget(TransformMeta t) {
    if (!t.isDoingErrorHandling() || t.getTransformErrorMeta().getTargetTransform() == null) {
      return null;
    }
    TransformMeta target = t.getTransformErrorMeta().getTargetTransform();
    return hopsFrom(t).stream().anyMatch(h -> h.getToTransform() == target) ? target : null;
  }

  void refuseCopies(TransformMeta t) {
    if (t.getCopies(variables) > 1) {
      problem(t, "it runs in " + t.getCopies(variables) + " copies, which would split its rows: set the number of"
          + " copies to 1 (on Beam the work is spread over the workers anyway)");
    }
  }

  /** Sends {@code rows} to every main target. */
  void toMainTargets(TransformMeta t, List<TransformMeta> targets, PCollection<Row> rows, int width, int spread,
      Map<String, HopStream> out) {
    for (TransformMeta target : targets) {
      RowLayout layout = layout(t, target);
      if (layout != null) {
        out.put(target.getName(), new HopStream(rows, layout, width, spread));
      }
    }
  }

  /** Resolves a transform's settings; each problem found is reported with the transform's name. */
  <T> T checked(TransformMeta t, Function<List<String>, T> resolve) {
    List<String> found = new ArrayList<>();
    T settings = resolve.apply(found);
    found.forEach(p -> problem(t, p));
    return settings;
  }

  /** Beam reads event times from Date/Timestamp, Integer and String fields; the local engine also from whole Numbers. */
  boolean timeFieldFitsBeam(TransformMeta t, IRowMeta input, int timeIndex) {
    IValueMeta v = input.getValueMeta(timeIndex);
    if (v.getType() == IValueMeta.TYPE_NUMBER || v.getType() == IValueMeta.TYPE_BIGNUMBER) {
      problem(t, "the time field '" + v.getName() + "' is a " + v.getTypeDesc() + ": on Beam the event time is read"
          + " from a Date, Timestamp, Integer (epoch) or String field: make it an Integer (e.g. with Select values)");
      return false;
    }
    return true;
  }
}
