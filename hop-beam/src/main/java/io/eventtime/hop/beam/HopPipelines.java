package io.eventtime.hop.beam;

import org.apache.hop.core.exception.HopException;
import org.apache.hop.core.exception.HopMissingPluginsException;
import org.apache.hop.core.variables.Variables;
import org.apache.hop.metadata.api.IHopMetadataProvider;
import org.apache.hop.pipeline.PipelineMeta;

/** Loads pipeline files for a Beam run. */
public final class HopPipelines {
  private HopPipelines() {}

  /**
   * The pipeline of an .hpl file. A transform whose plugin is not installed stays in it as a
   * missing transform, so that the translation refuses it by name, with the others' problems.
   */
  public static PipelineMeta load(String filename, IHopMetadataProvider metadata) throws HopException {
    PipelineMeta meta = new PipelineMeta();
    meta.setMetadataProvider(metadata);
    try {
      meta.loadXml(filename, metadata, new Variables());
    } catch (HopMissingPluginsException missing) {
      // the transforms stand in the pipeline as missing ones: the translation names them
    }
    return meta;
  }
}
