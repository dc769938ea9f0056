package io.eventtime.hop.testplugin;

import org.apache.hop.core.annotations.Transform;
import org.apache.hop.core.exception.HopPluginException;
import org.apache.hop.core.plugins.PluginRegistry;
import org.apache.hop.core.plugins.TransformPluginType;
import org.apache.hop.pipeline.transform.BaseTransformMeta;

/**
 * A transform of the tests that passes its rows on and, at the end of its input, runs what the
 * test gave it: a way to change the world between the end of a transform before it and the end
 * of the pipeline.
 */
@Transform(id = "EventTimeTestEndOfInputHook", name = "End of input hook (eventtime tests)",
    categoryDescription = "Testing")
public class EndOfInputHookMeta extends BaseTransformMeta<EndOfInputHook, FailingTargetData> {
  /** What to run at the end of the input; run by every transform of this kind. */
  public static volatile Runnable hook = () -> {};

  public static void register() {
    try {
      PluginRegistry.getInstance().registerPluginClass(EndOfInputHookMeta.class.getName(), TransformPluginType.class,
          Transform.class);
    } catch (HopPluginException e) {
      throw new IllegalStateException(e);
    }
  }
}
