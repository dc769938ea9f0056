package io.eventtime.hop.beam;

import io.eventtime.beam.EventTimestamps;
import io.eventtime.hop.stamp.EventTimeStampMeta;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;
import org.apache.hop.pipeline.transform.TransformMeta;

/**
 * Event Time Stamp: {@link EventTimestamps} on the time field (or on a copy of it, when the
 * Timestamp goes to a new field); the rows whose time cannot be read go to its error hop.
 * Refused on a live stream, whose rows keep their arrival stamps.
 */
final class EventTimeStampTranslation implements TransformTranslation {
  @Override
  public Set<String> pluginIds() {
    return Set.of(TransformTranslation.pluginId(EventTimeStampMeta.class));
  }

  @Override
  public Map<String, HopStream> translate(TranslationContext context, TransformMeta t) {
    HopStream in = context.requiredInput(t, "the rows to stamp");
    if (in == null) {
      return null;
    }
    if (in.rows().isBounded() == PCollection.IsBounded.UNBOUNDED) {
      // EventTimestamps makes the event time each row's Beam timestamp, which on a live stream would go back
      // before the row's arrival stamp (Beam forbids it) and take away the arrival order the window waits on
      context.problem(t, "on a live stream (Event Kafka Input) the Beam engines cannot stamp rows with their event"
          + " times: an Event Time Window reads the time field itself: remove this transform (or convert the field"
          + " with Select values), or run this pipeline on the local engine");
      return null;
    }
    EventTimeStampMeta m = (EventTimeStampMeta) t.getTransform();
    EventTimeStampMeta.StampSettings s = context.checked(t, p -> m.resolve(context.variables(), in.layout().rowMeta(), p));
    if (s == null || !context.timeFieldFitsBeam(t, in.layout().rowMeta(), s.timeIndex())) {
      return null;
    }
    List<TransformMeta> targets = context.mainTargets(t, Set.of());
    TransformMeta errorTarget = context.errorTarget(t);
    RowLayout out = targets.isEmpty() ? context.layoutAlone(t) : context.layout(t, targets.get(0));
    RowLayout errors = errorTarget == null ? null : context.layout(t, errorTarget);
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
        .apply(name + " (rejected)", ParDo.of(new ProblemRowFns.RejectedRowsFn(context.workers(), name, in.layout(),
            errors, true)))
        .setRowSchema((errors == null ? in.layout() : errors).schema());
    Map<String, HopStream> outputs = new LinkedHashMap<>();
    context.toMainTargets(t, targets, main, in.widthBits(), in.spreadBits(), outputs);
    if (errorTarget != null) {
      outputs.put(errorTarget.getName(), new HopStream(rejected, errors, in.widthBits(), in.spreadBits()));
    }
    return outputs;
  }
}
