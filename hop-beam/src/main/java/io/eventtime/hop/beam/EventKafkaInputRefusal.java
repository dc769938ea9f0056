package io.eventtime.hop.beam;

import io.eventtime.hop.kafkainput.EventKafkaInputMeta;
import java.util.Map;
import java.util.Set;
import org.apache.hop.pipeline.transform.TransformMeta;

/**
 * Event Kafka Input is refused on Beam until it translates to KafkaIO (docs/design/live-streams.md,
 * step 11). Run row by row as any other source, it would read the topic on one worker of a bounded
 * pipeline: until the pipeline is stopped (so no window would ever close) or, caught up, as a
 * replay without its partitions' own watermarks.
 */
final class EventKafkaInputRefusal implements TransformTranslation {
  static final String REFUSAL = "Event Kafka Input is not translated to Beam yet: run this pipeline on the local"
      + " engine (it reads the topic live there, with the window's partition field), or read the records from files"
      + " with Event File Input";

  @Override
  public Set<String> pluginIds() {
    return Set.of(TransformTranslation.pluginId(EventKafkaInputMeta.class));
  }

  @Override
  public Map<String, HopStream> translate(TranslationContext context, TransformMeta transform) {
    context.problem(transform, REFUSAL);
    return null;
  }
}
