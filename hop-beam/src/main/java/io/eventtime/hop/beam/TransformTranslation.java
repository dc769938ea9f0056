package io.eventtime.hop.beam;

import java.util.Map;
import java.util.Set;
import org.apache.hop.core.annotations.Transform;
import org.apache.hop.pipeline.transform.ITransformMeta;
import org.apache.hop.pipeline.transform.TransformMeta;

/**
 * How the transforms of one or more Hop plugins are translated to Beam. Each translation is
 * listed in {@link TransformTranslations}; {@link HopPipelineTranslator} asks it for the
 * translation of each transform's plugin id, in an order where a transform comes after those it
 * reads from.
 *
 * <p>A translation asks the context for the rows coming in ({@link TranslationContext#input} or
 * {@link TranslationContext#requiredInput}) when it needs them, rather than being given them: some
 * take none (Event File Input refuses hops in), and the problems it finds come in the order it
 * checks them.
 */
interface TransformTranslation {
  /** The plugin ids of the transforms this translation handles (the {@code id} of their {@link Transform}). */
  Set<String> pluginIds();

  /**
   * Applies the translation of {@code transform} to the context's Beam pipeline.
   *
   * @return what {@code transform} sends to each next transform, by the next one's name; null when
   *     it cannot be translated, the reasons reported to the context as problems
   */
  Map<String, HopStream> translate(TranslationContext context, TransformMeta transform);

  /** The plugin id a transform's metadata class declares, so that no id is spelled twice. */
  static String pluginId(Class<? extends ITransformMeta> metaClass) {
    Transform plugin = metaClass.getAnnotation(Transform.class);
    if (plugin == null) {
      throw new IllegalArgumentException(metaClass.getName() + " is not a transform plugin: it has no @Transform");
    }
    return plugin.id();
  }
}
