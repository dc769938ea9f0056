package io.eventtime.hop.testplugin;

import org.apache.hop.core.annotations.Transform;
import org.apache.hop.core.exception.HopPluginException;
import org.apache.hop.core.plugins.PluginRegistry;
import org.apache.hop.core.plugins.TransformPluginType;
import org.apache.hop.pipeline.transform.BaseTransformMeta;

/** A transform of the tests that fails at the first row it is given: a target that cannot take rows. */
@Transform(id = "EventTimeTestFailingTarget", name = "Failing target (eventtime tests)", categoryDescription = "Testing")
public class FailingTargetMeta extends BaseTransformMeta<FailingTarget, FailingTargetData> {
  /** Makes the transform known to Hop's plugin registry (the tests' classes are not scanned). */
  public static void register() {
    try {
      PluginRegistry.getInstance().registerPluginClass(FailingTargetMeta.class.getName(), TransformPluginType.class,
          Transform.class);
    } catch (HopPluginException e) {
      throw new IllegalStateException(e);
    }
  }
}
