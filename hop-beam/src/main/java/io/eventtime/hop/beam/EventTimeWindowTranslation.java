package io.eventtime.hop.beam;

import io.eventtime.beam.EventTimeState;
import io.eventtime.beam.EventTimeWindow;
import io.eventtime.beam.EventTimeWindowResult;
import io.eventtime.hop.window.EventTimeWindowMeta;
import io.eventtime.hop.window.WindowSettings;
import java.net.URI;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;
import org.apache.hop.core.row.IRowMeta;
import org.apache.hop.pipeline.PipelineHopMeta;
import org.apache.hop.pipeline.transform.TransformMeta;

/**
 * Event Time Window: {@link EventTimeWindow}, every setting taken from the same resolution as on
 * the local engine ({@link WindowSettings}); the window rows in the local engine's close order
 * ({@link CloseOrder}); the late rows to its late-rows target and the rejected rows to its error
 * hop, as the rows the local engine sends there.
 */
final class EventTimeWindowTranslation implements TransformTranslation {
  @Override
  public Set<String> pluginIds() {
    return Set.of(TransformTranslation.pluginId(EventTimeWindowMeta.class));
  }

  @Override
  public Map<String, HopStream> translate(TranslationContext context, TransformMeta t) {
    HopStream in = context.requiredInput(t, "the rows to window, e.g. an Event File Input");
    if (in == null) {
      return null;
    }
    context.refuseCopies(t);
    EventTimeWindowMeta m = (EventTimeWindowMeta) t.getTransform();
    WindowSettings s = context.checked(t, p -> m.resolve(context.variables(), in.layout().rowMeta(), p));
    if (s == null || !context.timeFieldFitsBeam(t, in.layout().rowMeta(), s.timeIndex())) {
      return null;
    }
    boolean live = in.rows().isBounded() == PCollection.IsBounded.UNBOUNDED;
    if (!live && s.partitioning().isPartitioned()) {
      context.problem(t, "its partition field '" + s.partitioning().field() + "' is for a live stream of several"
          + " partitions (Event Kafka Input); on Beam its rows here are a bounded replay, read as one partition:"
          + " clear the partition field, or read the rows with Event Kafka Input");
      return null;
    }
    if (!live && s.idleTimeoutMillis() > 0) {
      context.note("Transform '" + t.getName() + "': the idle timeout has no effect on Beam, which replays the files"
          + " as a bounded stream: windows close by the event times alone");
    }
    List<Integer> partitions = live ? livePartitions(context, t, s) : null;
    if (live && partitions == null) {
      return null;
    }
    String lateTargetName = m.getLateTargetTransform();
    TransformMeta lateTarget = null;
    if (lateTargetName != null) {
      lateTarget = context.hopsFrom(t).stream().map(PipelineHopMeta::getToTransform)
          .filter(to -> to.getName().equalsIgnoreCase(lateTargetName)).findFirst().orElse(null);
      if (lateTarget == null) {
        context.problem(t, "there is no hop to its late rows target '" + lateTargetName + "': draw one and choose"
            + " 'Late rows', or clear the target");
        return null;
      }
    }
    List<TransformMeta> targets = context.mainTargets(t, lateTargetName == null ? Set.of() : Set.of(lateTargetName));
    TransformMeta errorTarget = context.errorTarget(t);
    RowLayout windowLayout = targets.isEmpty() ? context.layoutAlone(t) : context.layout(t, targets.get(0));
    RowLayout late = lateTarget == null ? null : context.layout(t, lateTarget);
    RowLayout errors = errorTarget == null ? null : context.layout(t, errorTarget);
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
        .withBlockBits(Math.min(40, EventTimeWindow.DEFAULT_BLOCK_BITS + in.spreadBits()))
        .withCloseOrder();
    if (partitions != null && s.partitioning().isPartitioned()) {
      transform = transform.withPartitionField(s.partitioning().field()).withPartitions(partitions);
    }
    if (partitions != null && s.idleTimeoutMillis() > 0) {
      // the local engine's rule is the contract's, which the live path's idle timeout follows
      transform = transform.withIdleTimeout(java.time.Duration.ofMillis(s.idleTimeoutMillis()));
    }
    if (s.stateFolder() != null) {
      try {
        EventTimeState state = EventTimeState.open(folder(s.stateFolder()), transform);
        context.keepState(state);
        transform = transform.withState(state);
      } catch (RuntimeException e) {
        context.problem(t, "State folder: " + e.getMessage());
        return null;
      }
    }
    // applied under the transform's own name: its rows in, late and rejected are the window's counters
    EventTimeWindowResult result = in.rows().apply(name, transform);
    context.countedByWindow(name);
    PCollection<Row> windows = result.windowsInCloseOrder().apply(name + " (close order)", new CloseOrder(name, windowLayout));
    Map<String, HopStream> outputs = new LinkedHashMap<>();
    context.toMainTargets(t, targets, windows, Arrivals.RANK_BITS, 0, outputs);
    outputs.replaceAll((target, stream) -> stream.asRanked()); // the late and error targets come after
    if (lateTarget != null) {
      PCollection<Row> lateRows = result.late()
          .apply(name + " (late rows)", ParDo.of(new ProblemRowFns.LateRowsFn(name, in.layout(), late,
              partitions != null && s.partitioning().isPartitioned() ? s.partitioning().field() : null)))
          .setRowSchema(late.schema());
      outputs.put(lateTarget.getName(), new HopStream(lateRows, late, in.widthBits(), in.spreadBits()));
    }
    if (errorTarget != null) {
      PCollection<Row> rejected = result.rejected()
          .apply(name + " (rejected)", ParDo.of(new ProblemRowFns.RejectedRowsFn(context.workers(), name, in.layout(),
              errors, false)))
          .setRowSchema(errors.schema());
      outputs.put(errorTarget.getName(), new HopStream(rejected, errors, in.widthBits(), in.spreadBits()));
    }
    return outputs;
  }

  /**
   * The partitions of the live stream the window reads, as its settings must give them on Beam;
   * null, with the problems, for a setting the live path cannot run with the local engine's
   * meaning: a state folder (not translated yet), rows of several live inputs,
   * several partitions without the partition field, a partition field other than the input's, or
   * a Partitions count other than the topic's.
   */
  private static List<Integer> livePartitions(TranslationContext context, TransformMeta t, WindowSettings s) {
    boolean refused = false;
    if (s.stateFolder() != null) {
      context.problem(t, "State folder: on a live stream (Event Kafka Input) the Beam engines do not keep the window's"
          + " state yet (a streaming run ends by being cancelled, which hands nothing on): clear the state folder, or"
          + " run this pipeline on the local engine, which keeps it");
      refused = true;
    }
    List<TranslationContext.LiveSource> sources = context.liveSourcesUpstream(t);
    if (sources.size() != 1) {
      context.problem(t, "its rows come from " + sources.size() + " live inputs "
          + sources.stream().map(x -> "'" + x.transformName() + "'").toList() + ": on Beam a window reads the"
          + " partitions of one topic: give each input a window of its own");
      return null;
    }
    TranslationContext.LiveSource source = sources.get(0);
    WindowSettings.Partitioning p = s.partitioning();
    if (!p.isPartitioned() && source.partitions().size() > 1) {
      context.problem(t, "it reads the " + source.partitions().size() + " partitions of the topic of '"
          + source.transformName() + "' as one stream, whose order Beam does not keep across partitions: set its"
          + " partition field to '" + source.partitionField() + "' and Partitions to " + source.partitions().size()
          + " (each partition then has its own watermark), or run this pipeline on the local engine");
      refused = true;
    }
    if (p.isPartitioned() && !p.field().equals(source.partitionField())) {
      context.problem(t, "its partition field '" + p.field() + "' is not the partition field of '"
          + source.transformName() + "' (" + (source.partitionField() == null ? "none" : "'" + source.partitionField()
          + "'") + "): on Beam the window orders each partition's rows by their offsets, so the field must be the"
          + " input's: set it to the input's partition field");
      refused = true;
    } else if (p.isPartitioned() && p.count() != source.partitions().size()) {
      context.problem(t, "Partitions: " + p.count() + ", but the topic of '" + source.transformName() + "' has "
          + source.partitions().size() + " partitions: set Partitions to " + source.partitions().size());
      refused = true;
    }
    return refused ? null : source.partitions();
  }

  /** A state folder as a path, given as one or as a file: URL. */
  private static Path folder(String name) {
    return name.startsWith("file:") ? Path.of(URI.create(name)) : Path.of(name);
  }
}
