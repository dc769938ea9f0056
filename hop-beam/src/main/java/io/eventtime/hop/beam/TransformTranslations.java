package io.eventtime.hop.beam;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The one place that says which {@link TransformTranslation} translates a transform, by its plugin
 * id: Event File Input, Event Kafka Input, Event Time Stamp, Event Time Window, Event File Output and
 * Dummy have their own; any other plugin runs row by row ({@link RowByRowTranslation}).
 *
 * <p>The translations are listed here in code rather than found with {@link java.util.ServiceLoader}:
 * they build on this package's own classes (the row layouts, the arrival positions, the worker
 * steps), so none can come from another jar; and in a Hop installation the plugin's class loader
 * is not the context class loader the run uses (that is the runner's), so a service file could be
 * missed without a sign, each of our transforms then quietly run row by row instead of refused or
 * translated. Adding a translation is adding it to {@link #BUILT_IN}.
 */
final class TransformTranslations {
  /** The translations of this module. */
  static final TransformTranslations BUILT_IN = new TransformTranslations(List.of(new EventFileInputTranslation(),
      new EventTimeStampTranslation(), new EventTimeWindowTranslation(), new EventFileOutputTranslation(),
      new DummyTranslation(), new EventKafkaInputTranslation()), new RowByRowTranslation());

  private final Map<String, TransformTranslation> byPluginId = new HashMap<>();
  private final TransformTranslation otherwise;

  /**
   * {@code own}: the translations of the plugins they name; {@code otherwise}: that of every other
   * plugin. Two translations of one plugin id are refused.
   */
  TransformTranslations(List<TransformTranslation> own, TransformTranslation otherwise) {
    this.otherwise = otherwise;
    for (TransformTranslation t : own) {
      for (String id : t.pluginIds()) {
        TransformTranslation before = byPluginId.putIfAbsent(id, t);
        if (before != null) {
          throw new IllegalArgumentException("the plugin '" + id + "' has two translations: "
              + before.getClass().getSimpleName() + " and " + t.getClass().getSimpleName());
        }
      }
    }
  }

  /** The translation of the transforms of plugin {@code pluginId}. */
  TransformTranslation forPluginId(String pluginId) {
    return byPluginId.getOrDefault(pluginId, otherwise);
  }

  /** Whether plugin {@code pluginId} has a translation of its own, not the row-by-row one of every other plugin. */
  boolean hasOwnTranslation(String pluginId) {
    return byPluginId.containsKey(pluginId);
  }
}
