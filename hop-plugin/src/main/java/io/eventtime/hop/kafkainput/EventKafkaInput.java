package io.eventtime.hop.kafkainput;

import io.eventtime.hop.Engines;
import io.eventtime.hop.ErrorCodes;
import io.eventtime.hop.PipelineGraph;
import io.eventtime.hop.Settings;
import io.eventtime.hop.SharedState;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.hop.core.exception.HopException;
import org.apache.hop.i18n.BaseMessages;
import org.apache.hop.pipeline.Pipeline;
import org.apache.hop.pipeline.PipelineMeta;
import org.apache.hop.pipeline.transform.BaseTransform;
import org.apache.hop.pipeline.transform.TransformMeta;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.KafkaException;

/**
 * Reads a Kafka topic row by row: every partition in offset order, until the pipeline is stopped,
 * or, with "stop when caught up", up to the end offsets found at the start. A record that cannot
 * be read goes to error handling with its partition, offset and reason, and the reading goes on.
 * With an Event Time Window downstream that has a state folder, each partition starts at the
 * offset after the last row the window's state holds, so no row is read twice across restarts.
 */
public class EventKafkaInput extends BaseTransform<EventKafkaInputMeta, EventKafkaInputData> {
  private static final Class<?> PKG = EventKafkaInputMeta.class;
  /** How long one poll waits for records, so that a stop is seen soon while the topic is quiet. */
  private static final Duration POLL = Duration.ofMillis(200);

  public EventKafkaInput(TransformMeta transformMeta, EventKafkaInputMeta meta, EventKafkaInputData data,
      int copyNr, PipelineMeta pipelineMeta, Pipeline pipeline) {
    super(transformMeta, meta, data, copyNr, pipelineMeta, pipeline);
  }

  /** What would go wrong on Hop's own Beam engines, for the refusal. */
  private static final String ON_HOPS_BEAM_ENGINES =
      BaseMessages.getString(PKG, "EventKafkaInput.Problem.OnHopsBeamEngines");

  @Override
  public boolean init() {
    if (!super.init() || !Engines.supportedAtInit(this, data, ON_HOPS_BEAM_ENGINES)) {
      return false;
    }
    data.settings = Settings.resolvedAtInit(this, problems -> {
      Settings.requireOneCopy(getTransformMeta(), this, EventKafkaInputMeta.copies(), problems);
      meta.checkSharedState(getPipelineMeta(), getTransformMeta(), this, problems);
      return meta.resolve(this, problems);
    });
    if (data.settings == null) {
      return false;
    }
    // the brokers and the topic are asked now, so that a run that cannot read fails before any row
    try {
      data.reader = new TopicReader(data.settings, "eventtime-hop-" + getTransformName());
      List<?> partitions = data.reader.open();
      logBasic(BaseMessages.getString(PKG, "EventKafkaInput.Log.Partitions", data.settings.topic, partitions.size()));
    } catch (HopException | KafkaException e) {
      logError(Settings.refusal(getTransformName(), List.of(e.getMessage().strip())));
      return false;
    }
    data.records = new KafkaRecords(data.settings);
    data.outputRowMeta = data.settings.layout().clone();
    data.outputRowMeta.getValueMetaList().forEach(v -> v.setOrigin(getTransformName()));
    return true;
  }

  @Override
  public boolean processRow() throws HopException {
    Engines.refuseHopsOwnBeamEngines(this, data, ON_HOPS_BEAM_ENGINES);
    if (first) {
      first = false;
      startFromTheState();
    }
    if (data.polled == null || !data.polled.hasNext()) {
      if (isStopped()) {
        return false;
      }
      if (data.reader.isCaughtUp()) {
        logBasic(BaseMessages.getString(PKG, "EventKafkaInput.Log.CaughtUp", getLinesInput()));
        setOutputDone();
        return false;
      }
      try {
        data.polled = data.reader.poll(POLL).iterator();
      } catch (KafkaException e) {
        throw new HopException(BaseMessages.getString(PKG, "EventKafkaInput.Problem.Kafka",
            data.settings.servers, e.getMessage()), e);
      }
      return true;
    }
    ConsumerRecord<byte[], byte[]> r = data.polled.next();
    KafkaRecords.Record record = data.records.read(r.partition(), r.offset(), r.timestamp(), r.key(), r.value());
    incrementLinesInput();
    if (!record.isRejected()) {
      putRow(data.outputRowMeta, record.values());
    } else if (getTransformMeta().isDoingErrorHandling()) {
      putError(data.outputRowMeta, record.values(), 1, record.error(),
          record.errorField() == null ? "" : record.errorField(), ErrorCodes.UNREADABLE);
    } else {
      incrementLinesRejected();
      logBasic(BaseMessages.getString(PKG, "EventKafkaInput.Log.Rejected", record.error()));
    }
    if (checkFeedback(getLinesInput())) {
      logBasic(BaseMessages.getString(PKG, "EventKafkaInput.Log.Read", getLinesInput()));
    }
    return true;
  }

  /**
   * With an Event Time Window downstream that keeps each partition's position in its state folder
   * (its init has loaded it by now), each partition the state holds an offset for starts there;
   * the others start at the start position.
   */
  private void startFromTheState() throws HopException {
    for (TransformMeta t : PipelineGraph.downstream(getPipelineMeta(), getTransformMeta())) {
      if (PipelineGraph.running(getPipeline(), t.getName()) instanceof SharedState window && window.keepsPositions()) {
        Map<Integer, Long> offsets = window.storedNextOffsets();
        if (!offsets.isEmpty()) {
          data.reader.seekTo(offsets, t.getName());
          logBasic(BaseMessages.getString(PKG, "EventKafkaInput.Log.FromState", t.getName(), offsets.toString()));
        }
        return;
      }
    }
  }

  @Override
  public void dispose() {
    if (data.reader != null) {
      try {
        data.reader.close();
      } catch (KafkaException e) {
        logError(BaseMessages.getString(PKG, "EventKafkaInput.Log.CloseFailed", e.getMessage()));
      }
      data.reader = null;
    }
    super.dispose();
  }
}
