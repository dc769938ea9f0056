package io.eventtime.hop;

import java.util.ArrayList;
import java.util.List;
import org.apache.hop.core.row.IRowMeta;
import org.apache.hop.core.row.IValueMeta;
import org.apache.hop.pipeline.PipelineHopMeta;
import org.apache.hop.pipeline.PipelineMeta;
import org.apache.hop.pipeline.transform.ITransformMeta;
import org.apache.hop.pipeline.transform.TransformErrorMeta;
import org.apache.hop.pipeline.transform.TransformMeta;
import org.apache.hop.pipeline.transforms.dummy.DummyMeta;
import org.apache.hop.pipeline.transforms.injector.InjectorField;
import org.apache.hop.pipeline.transforms.injector.InjectorMeta;

/** Builds pipelines in code for the tests, the way the designer would. */
public final class PipelineBuilder {
  private final PipelineMeta meta = new PipelineMeta();
  private int x = 50;

  public PipelineBuilder(String name) {
    meta.setName(name);
  }

  /** An Injector that declares the fields of {@code layout}. */
  public PipelineBuilder injector(String name, IRowMeta layout) {
    InjectorMeta injector = new InjectorMeta();
    List<InjectorField> fields = new ArrayList<>();
    for (IValueMeta v : layout.getValueMetaList()) {
      fields.add(new InjectorField(v.getName(), v.getTypeDesc(), "-1", "-1"));
    }
    injector.setInjectorFields(fields);
    return transform(name, injector);
  }

  public PipelineBuilder dummy(String name) {
    return transform(name, new DummyMeta());
  }

  public PipelineBuilder transform(String name, ITransformMeta transform) {
    TransformMeta t = new TransformMeta(name, transform);
    t.setLocation(x, 100);
    x += 150;
    meta.addTransform(t);
    return this;
  }

  public PipelineBuilder hop(String from, String to) {
    meta.addPipelineHop(new PipelineHopMeta(find(from), find(to)));
    return this;
  }

  /** A hop that takes {@code from}'s rejected rows to {@code to}, with Hop's error fields. */
  public PipelineBuilder errorHop(String from, String to) {
    TransformMeta source = find(from);
    TransformErrorMeta error = new TransformErrorMeta(source, find(to), "error_count", "error_description",
        "error_field", "error_code");
    error.setEnabled(true);
    source.setTransformErrorMeta(error);
    return hop(from, to);
  }

  public TransformMeta find(String name) {
    TransformMeta t = meta.findTransform(name);
    if (t == null) {
      throw new IllegalArgumentException("no transform " + name);
    }
    return t;
  }

  public PipelineMeta build() {
    return meta;
  }
}
