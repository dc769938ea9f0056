package io.eventtime.hop;

import org.apache.hop.core.exception.HopException;
import org.apache.hop.i18n.BaseMessages;
import org.apache.hop.pipeline.transform.BaseTransform;
import org.apache.hop.pipeline.transform.ITransformData;

/**
 * Where the transforms that need the whole stream in arrival order can run. Hop's own Beam
 * engines (Beam Direct, Flink, Spark, Dataflow of hop-engine-beam) hand a transform they have
 * no handler for to a generic handler, which runs it in a small single-threaded pipeline per
 * worker that never sees the end of its input: windows would be lost or sent twice, files
 * written over by each worker, and arrival order lost. Hop 2.16 cannot be told that a transform
 * does not support an engine, so the transform refuses to run there itself.
 *
 * <p>The generic handler marks the transform's data as running in a Beam context
 * ({@link ITransformData#isBeamContext()}), after calling init() once without that mark and
 * once more with it, and it ignores what init() returns: the refusal is logged at init() and
 * thrown at the first row, which fails the Beam run. Our own engines (hop-beam) translate these
 * transforms to Beam transforms of their own and never run them in such a pipeline.
 */
public final class Engines {
  private static final Class<?> PKG = Engines.class;

  private Engines() {}

  /** True when the transform runs inside one of Hop's own Beam engines' mini-pipelines. */
  public static boolean onHopsOwnBeamEngine(ITransformData data) {
    return data.isBeamContext();
  }

  /** Why {@code transformName} refuses to run on Hop's own Beam engines, and where to run it instead. */
  public static String refusal(String transformName, String whatWouldGoWrong) {
    return BaseMessages.getString(PKG, "Engines.Refusal", transformName, whatWouldGoWrong);
  }

  /** For init(): false, with the refusal logged, on Hop's own Beam engines. */
  public static boolean supportedAtInit(BaseTransform<?, ?> transform, ITransformData data, String whatWouldGoWrong) {
    if (onHopsOwnBeamEngine(data)) {
      transform.logError(refusal(transform.getTransformName(), whatWouldGoWrong));
      return false;
    }
    return true;
  }

  /** For processRow(): the refusal as an exception on Hop's own Beam engines, which ignore init()'s result. */
  public static void refuseHopsOwnBeamEngines(BaseTransform<?, ?> transform, ITransformData data,
      String whatWouldGoWrong) throws HopException {
    if (onHopsOwnBeamEngine(data)) {
      throw new HopException(refusal(transform.getTransformName(), whatWouldGoWrong));
    }
  }
}
