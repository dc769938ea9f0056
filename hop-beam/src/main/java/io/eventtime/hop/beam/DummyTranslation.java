package io.eventtime.hop.beam;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;
import org.apache.hop.pipeline.transform.TransformMeta;
import org.apache.hop.pipeline.transforms.dummy.DummyMeta;

/** Dummy: the rows pass through, counted as read and written; with nothing coming in it sends nothing. */
final class DummyTranslation implements TransformTranslation {
  @Override
  public Set<String> pluginIds() {
    return Set.of(TransformTranslation.pluginId(DummyMeta.class));
  }

  @Override
  public Map<String, HopStream> translate(TranslationContext context, TransformMeta t) {
    HopStream in = context.input(t);
    List<TransformMeta> targets = context.mainTargets(t, Set.of());
    Map<String, HopStream> outputs = new LinkedHashMap<>();
    if (in == null) {
      // a Dummy with nothing coming in sends nothing on, as on the local engine
      for (TransformMeta target : targets) {
        RowLayout layout = context.layout(t, target);
        if (layout != null) {
          PCollection<Row> none = context.beam().apply(t.getName() + " (no rows to " + target.getName() + ")",
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
    context.toMainTargets(t, targets, rows, in.widthBits(), in.spreadBits(), outputs);
    return outputs;
  }
}
