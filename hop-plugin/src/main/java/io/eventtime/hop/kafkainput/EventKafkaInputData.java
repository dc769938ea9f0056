package io.eventtime.hop.kafkainput;

import java.util.Iterator;
import org.apache.hop.core.row.IRowMeta;
import org.apache.hop.pipeline.transform.BaseTransformData;
import org.apache.hop.pipeline.transform.ITransformData;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/** The running state of one Event Kafka Input: the consumer of the topic and the records polled but not yet sent. */
public class EventKafkaInputData extends BaseTransformData implements ITransformData {
  KafkaInputSettings settings;
  IRowMeta outputRowMeta;
  TopicReader reader;
  KafkaRecords records;
  Iterator<ConsumerRecord<byte[], byte[]>> polled;
}
