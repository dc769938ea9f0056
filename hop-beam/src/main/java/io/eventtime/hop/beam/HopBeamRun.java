package io.eventtime.hop.beam;

import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.hop.core.exception.HopException;
import org.apache.hop.core.variables.IVariables;
import org.apache.hop.metadata.api.IHopMetadataProvider;
import org.apache.hop.pipeline.PipelineMeta;

/**
 * Runs a Hop pipeline on a Beam runner: translated first (and refused there if it cannot run),
 * then run to its end; the per-transform counts come back with the result.
 *
 * <pre>{@code
 * PipelineMeta meta = new PipelineMeta("windows.hpl", metadataProvider, new Variables());
 * IVariables variables = PipelineVariables.of(meta, Map.of("OUTPUT_FOLDER", "/tmp/out"));
 * HopBeamRun.Outcome done = HopBeamRun.run(meta, variables, metadataProvider,
 *     BeamRunner.FLINK.options("[local]", "2", List.of()));
 * done.metrics().get("Window");   // READ, WRITTEN, LATE, REJECTED...
 * }</pre>
 */
public final class HopBeamRun {
  private HopBeamRun() {}

  /** A finished run: Beam's result, the counts per transform and kind, notes on settings Beam ignores. */
  public record Outcome(PipelineResult result, Map<String, Map<HopMetrics.Kind, Long>> metrics, List<String> notes) {}

  /** The Beam pipeline of a Hop pipeline, not yet run. */
  public static HopPipelineTranslator.Translation prepare(PipelineMeta meta, IVariables variables,
      IHopMetadataProvider metadata, PipelineOptions options) throws HopException {
    HopWorker.init();
    return HopPipelineTranslator.translate(meta, variables, metadata, Pipeline.create(options));
  }

  public static Outcome run(PipelineMeta meta, IVariables variables, IHopMetadataProvider metadata,
      PipelineOptions options) throws HopException {
    try (HopPipelineTranslator.Translation translation = prepare(meta, variables, metadata, options)) {
      PipelineResult result = translation.pipeline().run();
      PipelineResult.State state = result.waitUntilFinish();
      if (state != PipelineResult.State.DONE) {
        throw new HopException("the Beam run of '" + meta.getName() + "' ended " + state);
      }
      // only a run that succeeded replaces the state its windows carry to the next run
      translation.commitStates();
      return new Outcome(result, translation.metrics(result), translation.notes());
    }
  }
}
