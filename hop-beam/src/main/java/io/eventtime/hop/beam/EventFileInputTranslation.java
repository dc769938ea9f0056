package io.eventtime.hop.beam;

import io.eventtime.core.ArrivalPosition;
import io.eventtime.hop.fileinput.EventFileInputMeta;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.commons.vfs2.FileObject;
import org.apache.hop.core.exception.HopException;
import org.apache.hop.core.vfs.HopVfs;
import org.apache.hop.pipeline.transform.TransformMeta;

/**
 * Event File Input: each file read by one worker with the transform's own reader, rows tagged
 * with their arrival position ({@link EventFileRead}); the rows it cannot read go to its error hop.
 */
final class EventFileInputTranslation implements TransformTranslation {
  @Override
  public Set<String> pluginIds() {
    return Set.of(TransformTranslation.pluginId(EventFileInputMeta.class));
  }

  @Override
  public Map<String, HopStream> translate(TranslationContext context, TransformMeta t) {
    if (!context.hopsInto(t).isEmpty()) {
      context.problem(t, "it reads files and takes no rows: remove the hops into it");
      return null;
    }
    EventFileInputMeta m = (EventFileInputMeta) t.getTransform();
    if (m.isFollow()) {
      context.problem(t, EventFileInputMeta.followOnBeam());
      return null;
    }
    if (context.checked(t, p -> m.resolve(context.variables(), p)) == null) {
      return null;
    }
    List<String> files = new ArrayList<>();
    try {
      for (FileObject f : m.listFiles(context.variables())) {
        files.add(HopVfs.getFilename(f));
      }
    } catch (HopException e) {
      context.problem(t, e.getMessage());
      return null;
    }
    if (files.isEmpty()) {
      context.problem(t, "no file matches its list: check the folders and masks");
      return null;
    }
    Map<String, HopStream> out = new LinkedHashMap<>();
    List<TransformMeta> targets = context.mainTargets(t, Set.of());
    TransformMeta errorTarget = context.errorTarget(t);
    RowLayout rows = targets.isEmpty() ? context.layoutAlone(t) : context.layout(t, targets.get(0));
    RowLayout errors = errorTarget == null ? null : context.layout(t, errorTarget);
    if (rows == null || (errorTarget != null && errors == null)) {
      return null;
    }
    int width = Arrivals.bitsFor(files.size()) + ArrivalPosition.LINE_BITS;
    PCollectionTuple read = context.beam().apply(t.getName(),
        new EventFileRead(context.workers(), t.getName(), files, rows, errors));
    context.toMainTargets(t, targets, read.get(EventFileRead.ROWS), width, 0, out);
    if (errorTarget != null) {
      out.put(errorTarget.getName(), new HopStream(read.get(EventFileRead.ERRORS), errors, width, 0));
    }
    return out;
  }
}
