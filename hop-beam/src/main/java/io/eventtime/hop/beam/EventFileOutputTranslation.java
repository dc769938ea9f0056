package io.eventtime.hop.beam;

import io.eventtime.hop.fileoutput.EventFileOutputMeta;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.apache.hop.pipeline.transform.TransformMeta;

/** Event File Output: one file, its lines in arrival order ({@link EventFileWrite}); the rows pass on. */
final class EventFileOutputTranslation implements TransformTranslation {
  @Override
  public Set<String> pluginIds() {
    return Set.of(TransformTranslation.pluginId(EventFileOutputMeta.class));
  }

  @Override
  public Map<String, HopStream> translate(TranslationContext context, TransformMeta t) {
    HopStream in = context.requiredInput(t, "the rows to write");
    if (in == null) {
      return null;
    }
    context.refuseCopies(t);
    EventFileOutputMeta m = (EventFileOutputMeta) t.getTransform();
    if (context.checked(t, p -> m.resolve(context.variables(), in.layout().rowMeta(), p)) == null) {
      return null;
    }
    in.rows().apply(t.getName(), new EventFileWrite(context.workers(), t.getName(), in.layout(), in.ranked()));
    Map<String, HopStream> outputs = new LinkedHashMap<>();
    context.toMainTargets(t, context.mainTargets(t, Set.of()), in.rows(), in.widthBits(), in.spreadBits(), outputs);
    return outputs;
  }
}
