package io.eventtime.hop.beam;

import io.eventtime.hop.fileinput.EventFileInputMeta;
import io.eventtime.hop.fileinput.InputField;
import io.eventtime.hop.fileinput.InputFile;
import io.eventtime.hop.fileoutput.EventFileOutputMeta;
import io.eventtime.hop.window.EventTimeWindowMeta;
import io.eventtime.hop.window.GroupField;
import io.eventtime.hop.window.WindowAggregate;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hop.core.exception.HopException;
import org.apache.hop.core.row.RowMeta;
import org.apache.hop.core.row.value.ValueMetaString;
import org.apache.hop.metadata.serializer.memory.MemoryMetadataProvider;
import org.apache.hop.pipeline.PipelineHopMeta;
import org.apache.hop.pipeline.PipelineMeta;
import org.apache.hop.pipeline.transform.ITransformMeta;
import org.apache.hop.pipeline.transform.TransformMeta;

/** Pipelines built in code for the tests: our transforms with their settings, and hops. */
final class TestPipelines {
  private final PipelineMeta meta = new PipelineMeta();

  TestPipelines(String name) {
    meta.setName(name);
  }

  PipelineMeta meta() {
    return meta;
  }

  TransformMeta add(String name, ITransformMeta transform) {
    TransformMeta t = new TransformMeta(name, transform);
    meta.addTransform(t);
    return t;
  }

  /** The context the translated steps of this pipeline run in: no variables, no metadata. */
  HopContext context() throws HopException {
    return new HopContext(meta, PipelineVariables.of(meta, Map.of()), new MemoryMetadataProvider());
  }

  /** A layout of String fields of these names. */
  static RowLayout stringLayout(String... names) {
    RowMeta fields = new RowMeta();
    for (String name : names) {
      fields.addValueMeta(new ValueMetaString(name));
    }
    List<String> problems = new ArrayList<>();
    RowLayout layout = RowLayout.of(fields, "test", problems);
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException(String.join("; ", problems));
    }
    return layout;
  }

  TestPipelines hop(String from, String to) {
    meta.addPipelineHop(new PipelineHopMeta(meta.findTransform(from), meta.findTransform(to)));
    return this;
  }

  /** An NDJSON input of the given fields (name, type pairs). */
  static EventFileInputMeta input(Path file, String... namesAndTypes) {
    EventFileInputMeta m = new EventFileInputMeta();
    m.setDefault();
    m.setFiles(new ArrayList<>(List.of(new InputFile(file.toString(), null))));
    List<InputField> fields = new ArrayList<>();
    for (int i = 0; i < namesAndTypes.length; i += 2) {
      fields.add(new InputField(namesAndTypes[i], namesAndTypes[i + 1], null));
    }
    m.setFields(fields);
    return m;
  }

  /** A tumbling window of a minute over event_time, counting rows into 'events'. */
  static EventTimeWindowMeta window(String... keys) {
    EventTimeWindowMeta m = new EventTimeWindowMeta();
    m.setDefault();
    m.setAggregates(new ArrayList<>(List.of(new WindowAggregate(null, "count", "events"))));
    List<GroupField> groups = new ArrayList<>();
    for (String k : keys) {
      groups.add(new GroupField(k));
    }
    m.setGroupFields(groups);
    return m;
  }

  static EventFileOutputMeta output(Path file) {
    EventFileOutputMeta m = new EventFileOutputMeta();
    m.setDefault();
    m.setFilename(file.toString());
    return m;
  }
}
