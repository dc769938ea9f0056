package io.eventtime.hop.beam;

import java.io.Serializable;
import java.util.HashMap;
import java.util.Map;
import org.apache.hop.core.exception.HopException;
import org.apache.hop.core.metadata.SerializableMetadataProvider;
import org.apache.hop.core.variables.IVariables;
import org.apache.hop.core.variables.Variables;
import org.apache.hop.core.xml.XmlHandler;
import org.apache.hop.metadata.api.IHopMetadataProvider;
import org.apache.hop.pipeline.PipelineMeta;
import org.apache.hop.pipeline.transform.TransformMeta;
import org.w3c.dom.Document;

/**
 * What a worker needs to rebuild the Hop objects of a translated pipeline: the pipeline's XML,
 * the variables as they were when the run started, and the metadata (connections and the like)
 * as JSON. Each step rebuilds them once, in its setup.
 */
final class HopContext implements Serializable {
  private final String pipelineXml;
  private final Map<String, String> variables;
  private final String metadataJson;

  private transient PipelineMeta pipelineMeta;
  private transient IVariables resolvedVariables;
  private transient IHopMetadataProvider metadata;

  HopContext(PipelineMeta meta, IVariables vars, IHopMetadataProvider metadataProvider) throws HopException {
    this.pipelineXml = meta.getXml(vars);
    this.variables = new HashMap<>();
    for (String name : vars.getVariableNames()) {
      String value = vars.getVariable(name);
      if (value != null) {
        variables.put(name, value);
      }
    }
    this.metadataJson = new SerializableMetadataProvider(metadataProvider).toJson();
  }

  synchronized IVariables variables() {
    if (resolvedVariables == null) {
      Variables v = new Variables();
      variables.forEach(v::setVariable);
      resolvedVariables = v;
    }
    return resolvedVariables;
  }

  synchronized IHopMetadataProvider metadata() {
    if (metadata == null) {
      HopWorker.init();
      try {
        metadata = new SerializableMetadataProvider(metadataJson);
      } catch (HopException e) {
        throw new IllegalStateException("cannot read the pipeline's metadata on this worker: " + e.getMessage(), e);
      }
    }
    return metadata;
  }

  synchronized PipelineMeta pipelineMeta() {
    if (pipelineMeta == null) {
      HopWorker.init();
      try {
        Document doc = XmlHandler.loadXmlString(pipelineXml);
        pipelineMeta = new PipelineMeta(XmlHandler.getSubNode(doc, PipelineMeta.XML_TAG), metadata());
      } catch (HopException e) {
        throw new IllegalStateException("cannot load the pipeline on this worker: " + e.getMessage(), e);
      }
    }
    return pipelineMeta;
  }

  TransformMeta transform(String name) {
    TransformMeta t = pipelineMeta().findTransform(name);
    if (t == null) {
      throw new IllegalStateException("the transform '" + name + "' is not in the pipeline sent to this worker");
    }
    return t;
  }
}
