package io.eventtime.hop.beam;

import io.eventtime.beam.EventTimeState;
import io.eventtime.beam.EventTimeWindow;
import io.eventtime.beam.EventTimeWindowResult;
import io.eventtime.beam.EventTimestamps;
import io.eventtime.hop.fileinput.EventFileInputMeta;
import io.eventtime.hop.fileoutput.EventFileOutputMeta;
import io.eventtime.hop.stamp.EventTimeStampMeta;
import io.eventtime.hop.window.EventTimeWindowMeta;
import io.eventtime.hop.window.WindowSettings;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.Flatten;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionList;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.TupleTagList;
import org.apache.commons.vfs2.FileObject;
import org.apache.hop.core.exception.HopException;
import org.apache.hop.core.row.IRowMeta;
import org.apache.hop.core.row.IValueMeta;
import org.apache.hop.core.variables.IVariables;
import org.apache.hop.core.vfs.HopVfs;
import org.apache.hop.core.xml.XmlHandler;
import org.apache.hop.metadata.api.IHopMetadataProvider;
import org.apache.hop.pipeline.PipelineHopMeta;
import org.apache.hop.pipeline.PipelineMeta;
import org.apache.hop.pipeline.transform.ITransformMeta;
import org.apache.hop.pipeline.transform.TransformMeta;
import org.apache.hop.pipeline.transform.stream.IStream;
import org.w3c.dom.Document;
import org.w3c.dom.Node;

/**
 * Translates a Hop pipeline into a Beam pipeline that gives the same rows as Hop's local engine.
 *
 * <ul>
 *   <li>Event File Input: each file read by one worker with the transform's own reader, rows
 *       tagged with their arrival position ({@link EventFileRead}).
 *   <li>Event Time Stamp: {@link EventTimestamps}; Event Time Window: {@link EventTimeWindow},
 *       every setting taken from the same resolution as on the local engine
 *       ({@link WindowSettings}); the window rows in the local engine's close order
 *       ({@link CloseOrder}).
 *   <li>Late-row targets and error hops: the tagged late and rejected outputs, as the rows the
 *       local engine sends there.
 *   <li>Event File Output: one file, its lines in arrival order ({@link EventFileWrite}).
 *   <li>Dummy: the rows pass through. Several hops into one transform: the rows of each hop in
 *       turn (flattened, positions of the first hop's rows first).
 *   <li>Any other transform of the plugin registry: run row by row on the workers by hop-engine's
 *       single-threaded executor ({@link HopTransformsFn}); consecutive ones run together.
 * </ul>
 *
 * Whatever cannot run on Beam is refused before anything runs, each problem naming the
 * transform and what to do ({@link TranslationException}).
 */
public final class HopPipelineTranslator {
  static final String FILE_INPUT = "EventFileInput";
  static final String FILE_OUTPUT = "EventFileOutput";
  static final String STAMP = "EventTimeStamp";
  static final String WINDOW = "EventTimeWindow";
  static final String DUMMY = "Dummy";

  /**
   * Transforms that need every row of the stream at once (or rows of another stream), which a
   * worker that sees only its share of the rows cannot give.
   */
  private static final Set<String> NEEDS_ALL_ROWS = Set.of("SortRows", "GroupBy", "MemoryGroupBy", "Unique",
      "UniqueRowsByHashSet", "AnalyticQuery", "SampleRows", "ReservoirSampling", "BlockingTransform",
      "BlockUntilTransformsFinish", "Denormaliser", "Flattener", "MergeJoin", "MergeRows", "JoinRows", "SortedMerge",
      "Append", "SingleThreader", "TransformsMetrics", "Delay", "CheckSum", "Sequence", "UniqueRows");

  private final PipelineMeta meta;
  private final IVariables variables;
  private final HopContext context;
  private final Pipeline beam;
  private final List<String> problems = new ArrayList<>();
  private final List<String> notes = new ArrayList<>();
  private final List<PipelineHopMeta> hops = new ArrayList<>();
  /** What each translated transform sends to each next transform. */
  private final Map<String, Map<String, HopStream>> sent = new HashMap<>();
  private final Set<String> untranslated = new HashSet<>();
  /** The state folders of windows that carry their open windows from run to run. */
  private final List<EventTimeState> states = new ArrayList<>();
  /** The Event Time Windows: their rows in, late and rejected are counted by the window under their names. */
  private final List<String> windowTransforms = new ArrayList<>();

  private HopPipelineTranslator(PipelineMeta meta, IVariables variables, IHopMetadataProvider metadata, Pipeline beam)
      throws HopException {
    this.meta = meta;
    this.variables = variables;
    this.context = new HopContext(meta, variables, metadata);
    this.beam = beam;
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
    HopPipelineTranslator t = new HopPipelineTranslator(meta, variables, metadata, beam);
    t.translateAll();
    if (!t.problems.isEmpty()) {
      t.states.forEach(EventTimeState::close);
      throw new TranslationException(meta.getName(), t.problems);
    }
    List<String> names = new ArrayList<>();
    meta.getTransforms().forEach(tm -> names.add(tm.getName()));
    return new Translation(beam, names, t.notes, t.states, t.windowTransforms);
  }

  private void translateAll() {
    for (PipelineHopMeta hop : meta.getPipelineHops()) {
      if (!hop.isEnabled()) {
        continue;
      }
      if (hop.getFromTransform() == null || hop.getToTransform() == null) {
        problems.add(unknownHop(hop));
        continue;
      }
      hops.add(hop);
    }
    for (TransformMeta t : meta.getTransforms()) {
      if (t.isMissing() || t.getTransform() == null) {
        problem(t, "its plugin '" + t.getTransformPluginId() + "' is not installed: install the plugin that provides it"
            + " (put it in Hop's plugins folder, or on the class path of the Beam run), or remove the transform");
        untranslated.add(t.getName());
      }
    }
    Set<String> handled = new HashSet<>();
    for (TransformMeta t : topologicalOrder()) {
      if (handled.contains(t.getName())) {
        continue;
      }
      if (untranslated.contains(t.getName()) || hopsInto(t).stream().anyMatch(h -> !sent.containsKey(h.getFromTransform().getName()))) {
        untranslated.add(t.getName());
        continue;
      }
      try {
        Map<String, HopStream> outputs = translate(t, handled);
        if (outputs == null) {
          untranslated.add(t.getName());
        } else {
          sent.putIfAbsent(t.getName(), outputs);
        }
      } catch (IllegalArgumentException | IllegalStateException e) {
        // the Beam transforms check their settings against the rows when applied
        problem(t, e.getMessage());
        untranslated.add(t.getName());
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
      Document doc = XmlHandler.loadXmlFile(HopVfs.getFileObject(file, variables));
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
    hops.forEach(h -> inDegree.merge(h.getToTransform().getName(), 1, Integer::sum));
    Deque<TransformMeta> ready = new ArrayDeque<>();
    meta.getTransforms().stream().filter(t -> inDegree.get(t.getName()) == 0).forEach(ready::add);
    List<TransformMeta> order = new ArrayList<>();
    while (!ready.isEmpty()) {
      TransformMeta t = ready.poll();
      order.add(t);
      for (PipelineHopMeta h : hopsFrom(t)) {
        if (inDegree.merge(h.getToTransform().getName(), -1, Integer::sum) == 0) {
          ready.add(h.getToTransform());
        }
      }
    }
    if (order.size() < meta.getTransforms().size()) {
      List<String> looping = new ArrayList<>();
      meta.getTransforms().stream().filter(t -> !order.contains(t)).forEach(t -> looping.add("'" + t.getName() + "'"));
      problems.add("The hops make a loop through " + String.join(", ", looping) + ": rows cannot go round in circles"
          + " on Beam (nor on the local engine): remove one of the hops of the loop");
      meta.getTransforms().stream().filter(t -> !order.contains(t)).forEach(t -> untranslated.add(t.getName()));
    }
    return order;
  }

  private List<PipelineHopMeta> hopsInto(TransformMeta t) {
    return hops.stream().filter(h -> h.getToTransform() == t).toList();
  }

  private List<PipelineHopMeta> hopsFrom(TransformMeta t) {
    return hops.stream().filter(h -> h.getFromTransform() == t).toList();
  }

  private void problem(TransformMeta t, String text) {
    problems.add("Transform '" + t.getName() + "': " + text);
  }

  private Map<String, HopStream> translate(TransformMeta t, Set<String> handled) {
    switch (t.getTransformPluginId()) {
      case FILE_INPUT:
        return fileInput(t);
      case STAMP:
        return stamp(t);
      case WINDOW:
        return window(t);
      case FILE_OUTPUT:
        return fileOutput(t);
      case DUMMY:
        return dummy(t);
      default:
        return hopTransforms(t, handled);
    }
  }

  // --- the layouts and inputs of the hops

  /** The layout of the rows {@code from} sends to {@code to}, as Hop computes it. */
  private RowLayout layout(TransformMeta from, TransformMeta to) {
    try {
      IRowMeta fields = meta.getTransformFields(variables, from, to, null);
      return RowLayout.of(fields, "Transform '" + from.getName() + "' (rows to '" + to.getName() + "')", problems);
    } catch (HopException e) {
      problem(from, "cannot tell the fields it sends to '" + to.getName() + "': " + e.getMessage());
      return null;
    }
  }

  /** The rows coming into {@code t}: those of its one hop in, or of all its hops in turn; null when none. */
  private HopStream input(TransformMeta t) {
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

  private HopStream checkedWidth(TransformMeta t, HopStream s) {
    if (s.widthBits() > Arrivals.MAX_BITS) {
      problem(t, "the arrival positions of its rows would need " + s.widthBits() + " bits, more than the "
          + Arrivals.MAX_BITS + " the Beam translation has: too many hops flattened into one transform, or too many"
          + " transforms of other plugins one after another (each takes " + Arrivals.FAN_OUT_BITS + " bits);"
          + " put an Event Time Window, or fewer of them, in between");
    }
    return s;
  }

  /** The transform's input; a problem when it has none. */
  private HopStream requiredInput(TransformMeta t, String what) {
    HopStream in = input(t);
    if (in == null && hopsInto(t).isEmpty()) {
      problem(t, "it has no input: draw a hop into it from the transform that sends " + what);
    }
    return in;
  }

  /** The next transforms that get a transform's main output (neither its error hop nor a target stream). */
  private List<TransformMeta> mainTargets(TransformMeta t, Set<String> special) {
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

  private TransformMeta errorTarget(TransformMeta t) {
    if (!t.isDoingErrorHandling() || t.getTransformErrorMeta().getTargetTransform() == null) {
      return null;
    }
    TransformMeta target = t.getTransformErrorMeta().getTargetTransform();
    return hopsFrom(t).stream().anyMatch(h -> h.getToTransform() == target) ? target : null;
  }

  private void refuseCopies(TransformMeta t) {
    if (t.getCopies(variables) > 1) {
      problem(t, "it runs in " + t.getCopies(variables) + " copies, which would split its rows: set the number of"
          + " copies to 1 (on Beam the work is spread over the workers anyway)");
    }
  }

  /** Sends {@code rows} to every main target. */
  private void toMainTargets(TransformMeta t, List<TransformMeta> targets, PCollection<Row> rows, int width, int spread,
      Map<String, HopStream> out) {
    for (TransformMeta target : targets) {
      RowLayout layout = layout(t, target);
      if (layout != null) {
        out.put(target.getName(), new HopStream(rows, layout, width, spread));
      }
    }
  }

  /** Resolves a transform's settings; each problem found is reported with the transform's name. */
  private <T> T checked(TransformMeta t, Function<List<String>, T> resolve) {
    List<String> found = new ArrayList<>();
    T settings = resolve.apply(found);
    found.forEach(p -> problem(t, p));
    return settings;
  }

  // --- our transforms

  private Map<String, HopStream> fileInput(TransformMeta t) {
    if (!hopsInto(t).isEmpty()) {
      problem(t, "it reads files and takes no rows: remove the hops into it");
      return null;
    }
    EventFileInputMeta m = (EventFileInputMeta) t.getTransform();
    if (checked(t, p -> m.resolve(variables, p)) == null) {
      return null;
    }
    List<String> files = new ArrayList<>();
    try {
      for (FileObject f : m.listFiles(variables)) {
        files.add(HopVfs.getFilename(f));
      }
    } catch (HopException e) {
      problem(t, e.getMessage());
      return null;
    }
    if (files.isEmpty()) {
      problem(t, "no file matches its list: check the folders and masks");
      return null;
    }
    Map<String, HopStream> out = new LinkedHashMap<>();
    List<TransformMeta> targets = mainTargets(t, Set.of());
    TransformMeta errorTarget = errorTarget(t);
    RowLayout rows = targets.isEmpty() ? layoutAlone(t) : layout(t, targets.get(0));
    RowLayout errors = errorTarget == null ? null : layout(t, errorTarget);
    if (rows == null || (errorTarget != null && errors == null)) {
      return null;
    }
    int width = Arrivals.bitsFor(files.size()) + Arrivals.LINE_BITS;
    PCollectionTuple read = beam.apply(t.getName(), new EventFileRead(context, t.getName(), files, rows, errors));
    toMainTargets(t, targets, read.get(EventFileRead.ROWS), width, 0, out);
    if (errorTarget != null) {
      out.put(errorTarget.getName(), new HopStream(read.get(EventFileRead.ERRORS), errors, width, 0));
    }
    return out;
  }

  /** The layout of what a transform sends when it has no next transform. */
  private RowLayout layoutAlone(TransformMeta t) {
    try {
      return RowLayout.of(meta.getTransformFields(variables, t), "Transform '" + t.getName() + "'", problems);
    } catch (HopException e) {
      problem(t, "cannot tell the fields it sends: " + e.getMessage());
      return null;
    }
  }

  private Map<String, HopStream> stamp(TransformMeta t) {
    HopStream in = requiredInput(t, "the rows to stamp");
    if (in == null) {
      return null;
    }
    EventTimeStampMeta m = (EventTimeStampMeta) t.getTransform();
    EventTimeStampMeta.StampSettings s = checked(t, p -> m.resolve(variables, in.layout().rowMeta(), p));
    if (s == null || !timeFieldFitsBeam(t, in.layout().rowMeta(), s.timeIndex())) {
      return null;
    }
    List<TransformMeta> targets = mainTargets(t, Set.of());
    TransformMeta errorTarget = errorTarget(t);
    RowLayout out = targets.isEmpty() ? layoutAlone(t) : layout(t, targets.get(0));
    RowLayout errors = errorTarget == null ? null : layout(t, errorTarget);
    if (out == null || (errorTarget != null && errors == null)) {
      return null;
    }
    String name = t.getName();
    PCollection<Row> rows = in.rows();
    String field = s.timeField();
    if (s.outputIndex() < 0) {
      // the Timestamp goes to a new field: stamp a copy of the time field, appended as Hop appends it
      Schema.Builder b = Schema.builder();
      Schema inSchema = in.layout().schema();
      for (int i = 0; i < inSchema.getFieldCount() - 1; i++) {
        b.addField(inSchema.getField(i));
      }
      b.addField(Schema.Field.nullable(s.outputField(), inSchema.getField(s.timeIndex()).getType()));
      b.addInt64Field(RowLayout.ARRIVAL);
      Schema withCopy = b.build();
      rows = rows.apply(name + " (copy of " + field + ")", ParDo.of(new RowFns.CopyFieldFn(withCopy, s.timeIndex(), name)))
          .setRowSchema(withCopy);
      field = s.outputField();
    } else {
      rows = rows.apply(name + " (read)", ParDo.of(new RowFns.CountFn(in.layout().schema(), name, HopMetrics.Kind.READ)))
          .setRowSchema(in.layout().schema());
    }
    EventTimestamps.Result stamped = rows.apply(name, EventTimestamps.fromField(field).withParser(s.reader().parser()));
    PCollection<Row> main = stamped.rows()
        .apply(name + " (written)", ParDo.of(new RowFns.CountFn(out.schema(), name, HopMetrics.Kind.WRITTEN)))
        .setRowSchema(out.schema());
    PCollection<Row> rejected = stamped.rejected()
        .apply(name + " (rejected)", ParDo.of(new ProblemRowFns.RejectedRowsFn(context, name, in.layout(), errors, true)))
        .setRowSchema((errors == null ? in.layout() : errors).schema());
    Map<String, HopStream> outputs = new LinkedHashMap<>();
    toMainTargets(t, targets, main, in.widthBits(), in.spreadBits(), outputs);
    if (errorTarget != null) {
      outputs.put(errorTarget.getName(), new HopStream(rejected, errors, in.widthBits(), in.spreadBits()));
    }
    return outputs;
  }

  /** Beam reads event times from Date/Timestamp, Integer and String fields; the local engine also from whole Numbers. */
  private boolean timeFieldFitsBeam(TransformMeta t, IRowMeta input, int timeIndex) {
    IValueMeta v = input.getValueMeta(timeIndex);
    if (v.getType() == IValueMeta.TYPE_NUMBER || v.getType() == IValueMeta.TYPE_BIGNUMBER) {
      problem(t, "the time field '" + v.getName() + "' is a " + v.getTypeDesc() + ": on Beam the event time is read"
          + " from a Date, Timestamp, Integer (epoch) or String field: make it an Integer (e.g. with Select values)");
      return false;
    }
    return true;
  }

  private Map<String, HopStream> window(TransformMeta t) {
    HopStream in = requiredInput(t, "the rows to window, e.g. an Event File Input");
    if (in == null) {
      return null;
    }
    refuseCopies(t);
    EventTimeWindowMeta m = (EventTimeWindowMeta) t.getTransform();
    WindowSettings s = checked(t, p -> m.resolve(variables, in.layout().rowMeta(), p));
    if (s == null || !timeFieldFitsBeam(t, in.layout().rowMeta(), s.timeIndex())) {
      return null;
    }
    if (s.idleTimeoutMillis() > 0) {
      notes.add("Transform '" + t.getName() + "': the idle timeout has no effect on Beam, which replays the files"
          + " as a bounded stream: windows close by the event times alone");
    }
    String lateTargetName = m.getLateTargetTransform();
    TransformMeta lateTarget = null;
    if (lateTargetName != null) {
      lateTarget = hopsFrom(t).stream().map(PipelineHopMeta::getToTransform)
          .filter(to -> to.getName().equalsIgnoreCase(lateTargetName)).findFirst().orElse(null);
      if (lateTarget == null) {
        problem(t, "there is no hop to its late rows target '" + lateTargetName + "': draw one and choose 'Late rows',"
            + " or clear the target");
        return null;
      }
    }
    List<TransformMeta> targets = mainTargets(t, lateTargetName == null ? Set.of() : Set.of(lateTargetName));
    TransformMeta errorTarget = errorTarget(t);
    RowLayout windowLayout = targets.isEmpty() ? layoutAlone(t) : layout(t, targets.get(0));
    RowLayout late = lateTarget == null ? null : layout(t, lateTarget);
    RowLayout errors = errorTarget == null ? null : layout(t, errorTarget);
    if (windowLayout == null || (lateTarget != null && late == null) || (errorTarget != null && errors == null)) {
      return null;
    }
    String name = t.getName();
    IRowMeta windowRows = s.outputRowMeta();
    int keys = s.query().keyFields().size();
    EventTimeWindow transform = EventTimeWindow.of(s.query())
        .withTimeField(s.timeField())
        .withTimeParser(s.timeReader().parser())
        .withWindowFieldNames(windowRows.getValueMeta(keys).getName(), windowRows.getValueMeta(keys + 1).getName())
        .withArrivalField(RowLayout.ARRIVAL)
        .withBlockBits(Math.min(40, EventTimeWindow.DEFAULT_BLOCK_BITS + in.spreadBits()));
    if (s.stateFolder() != null) {
      try {
        EventTimeState state = EventTimeState.open(folder(s.stateFolder()), transform);
        states.add(state);
        transform = transform.withState(state);
      } catch (RuntimeException e) {
        problem(t, "State folder: " + e.getMessage());
        return null;
      }
    }
    // applied under the transform's own name: its rows in, late and rejected are the window's counters
    EventTimeWindowResult result = in.rows().apply(name, transform);
    windowTransforms.add(name);
    PCollection<Row> windows = result.windows().apply(name + " (close order)", new CloseOrder(name, windowLayout, keys));
    Map<String, HopStream> outputs = new LinkedHashMap<>();
    toMainTargets(t, targets, windows, Arrivals.RANK_BITS, 0, outputs);
    if (lateTarget != null) {
      PCollection<Row> lateRows = result.late()
          .apply(name + " (late rows)", ParDo.of(new ProblemRowFns.LateRowsFn(name, in.layout(), late)))
          .setRowSchema(late.schema());
      outputs.put(lateTarget.getName(), new HopStream(lateRows, late, in.widthBits(), in.spreadBits()));
    }
    if (errorTarget != null) {
      PCollection<Row> rejected = result.rejected()
          .apply(name + " (rejected)", ParDo.of(new ProblemRowFns.RejectedRowsFn(context, name, in.layout(), errors,
              false)))
          .setRowSchema(errors.schema());
      outputs.put(errorTarget.getName(), new HopStream(rejected, errors, in.widthBits(), in.spreadBits()));
    }
    return outputs;
  }

  /** A state folder as a path, given as one or as a file: URL. */
  private static Path folder(String name) {
    return name.startsWith("file:") ? Path.of(URI.create(name)) : Path.of(name);
  }

  private Map<String, HopStream> fileOutput(TransformMeta t) {
    HopStream in = requiredInput(t, "the rows to write");
    if (in == null) {
      return null;
    }
    refuseCopies(t);
    EventFileOutputMeta m = (EventFileOutputMeta) t.getTransform();
    if (checked(t, p -> m.resolve(variables, in.layout().rowMeta(), p)) == null) {
      return null;
    }
    in.rows().apply(t.getName(), new EventFileWrite(context, t.getName(), in.layout()));
    Map<String, HopStream> outputs = new LinkedHashMap<>();
    toMainTargets(t, mainTargets(t, Set.of()), in.rows(), in.widthBits(), in.spreadBits(), outputs);
    return outputs;
  }

  private Map<String, HopStream> dummy(TransformMeta t) {
    HopStream in = input(t);
    List<TransformMeta> targets = mainTargets(t, Set.of());
    Map<String, HopStream> outputs = new LinkedHashMap<>();
    if (in == null) {
      // a Dummy with nothing coming in sends nothing on, as on the local engine
      for (TransformMeta target : targets) {
        RowLayout layout = layout(t, target);
        if (layout != null) {
          PCollection<Row> none = beam.apply(t.getName() + " (no rows to " + target.getName() + ")",
              Create.empty(layout.schema()));
          outputs.put(target.getName(), new HopStream(none, layout, 0, 0));
        }
      }
      return outputs;
    }
    PCollection<Row> rows = in.rows()
        .apply(t.getName(), ParDo.of(new RowFns.CountFn(in.layout().schema(), t.getName(), HopMetrics.Kind.READ,
            HopMetrics.Kind.WRITTEN)))
        .setRowSchema(in.layout().schema());
    toMainTargets(t, targets, rows, in.widthBits(), in.spreadBits(), outputs);
    return outputs;
  }

  // --- any other transform

  private Map<String, HopStream> hopTransforms(TransformMeta first, Set<String> handled) {
    List<TransformMeta> chain = chainFrom(first);
    boolean ok = true;
    for (TransformMeta t : chain) {
      ok &= runsRowByRow(t);
    }
    chain.forEach(t -> handled.add(t.getName()));
    TransformMeta last = chain.get(chain.size() - 1);
    HopStream in = input(first);
    if (!ok || (in == null && !hopsInto(first).isEmpty())) {
      return null;
    }
    Set<String> targetStreams = new HashSet<>();
    for (IStream s : last.getTransform().getTransformIOMeta().getTargetStreams()) {
      if (s.getTransformName() != null) {
        targetStreams.add(s.getTransformName());
      }
    }
    mainTargets(last, targetStreams);
    List<String> targets = new ArrayList<>();
    List<RowLayout> layouts = new ArrayList<>();
    List<TupleTag<Row>> tags = new ArrayList<>();
    for (PipelineHopMeta h : hopsFrom(last)) {
      RowLayout layout = layout(last, h.getToTransform());
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
      out = beam.apply(stepName + " (start)", Create.of(0))
          .apply(stepName, ParDo.of(new HopSourceFn(context, names, targets, layouts, tags))
              .withOutputTags(nothing, TupleTagList.of(new ArrayList<>(tags))));
      width = Arrivals.RANK_BITS;
      spread = 0;
    } else {
      out = in.rows().apply(stepName, ParDo.of(new HopTransformsFn(context, names, in.layout(), targets, layouts, tags))
          .withOutputTags(nothing, TupleTagList.of(new ArrayList<>(tags))));
      width = in.widthBits() + Arrivals.FAN_OUT_BITS;
      spread = in.spreadBits() + Arrivals.FAN_OUT_BITS;
    }
    out.get(nothing).setRowSchema(in == null ? Schema.builder().addInt64Field(RowLayout.ARRIVAL).build() : in.layout().schema());
    Map<String, HopStream> outputs = new LinkedHashMap<>();
    for (int i = 0; i < targets.size(); i++) {
      PCollection<Row> rows = out.get(tags.get(i)).setRowSchema(layouts.get(i).schema());
      outputs.put(targets.get(i), checkedWidth(last, new HopStream(rows, layouts.get(i), width, spread)));
    }
    for (int i = 0; i < chain.size() - 1; i++) {
      // the links inside the chain are run by the mini pipeline
      sent.put(chain.get(i).getName(), Map.of());
    }
    sent.put(last.getName(), outputs);
    return outputs;
  }

  /**
   * The transforms of other plugins that run together from {@code first}: each sends all its
   * rows, by one hop and without error handling, to the next, which gets rows from it alone.
   */
  private List<TransformMeta> chainFrom(TransformMeta first) {
    List<TransformMeta> chain = new ArrayList<>(List.of(first));
    TransformMeta t = first;
    while (true) {
      List<PipelineHopMeta> out = hopsFrom(t);
      if (out.size() != 1 || t.isDoingErrorHandling()
          || !t.getTransform().getTransformIOMeta().getTargetStreams().isEmpty()) {
        return chain;
      }
      TransformMeta next = out.get(0).getToTransform();
      if (isOurs(next) || hopsInto(next).size() != 1 || untranslated.contains(next.getName())) {
        return chain;
      }
      chain.add(next);
      t = next;
    }
  }

  private static boolean isOurs(TransformMeta t) {
    return Set.of(FILE_INPUT, FILE_OUTPUT, STAMP, WINDOW, DUMMY).contains(t.getTransformPluginId());
  }

  /** Whether a transform of another plugin can run on each worker's share of the rows. */
  private boolean runsRowByRow(TransformMeta t) {
    ITransformMeta m = t.getTransform();
    if (NEEDS_ALL_ROWS.contains(t.getTransformPluginId())) {
      problem(t, "its plugin '" + t.getTransformPluginId() + "' needs every row at once, but on Beam each worker sees"
          + " only its share of the rows: aggregate over time with Event Time Window, or run this pipeline on the"
          + " local engine");
      return false;
    }
    for (IStream s : m.getTransformIOMeta().getInfoStreams()) {
      if (s.getTransformMeta() != null || s.getSubject() != null) {
        problem(t, "it reads rows from '" + s.getTransformName() + "' as information (a lookup or a join), which the"
            + " Beam translation does not run: run this pipeline on the local engine");
        return false;
      }
    }
    return true;
  }
}
