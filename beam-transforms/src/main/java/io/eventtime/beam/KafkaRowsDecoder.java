package io.eventtime.beam;

import io.eventtime.core.EventTimeParser;
import io.eventtime.core.ValueType;
import io.eventtime.core.ndjson.ColumnValues;
import io.eventtime.core.ndjson.MalformedLineException;
import io.eventtime.core.ndjson.NdjsonLines;
import io.eventtime.core.ndjson.TextEncoding;
import io.eventtime.core.ndjson.Utf8Lines;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.schemas.Schema.FieldType;
import org.apache.beam.sdk.values.Row;

/**
 * One Kafka record's value as a row of {@link KafkaRows}, or as a rejected row with the reason:
 * the value must be UTF-8 text holding one JSON object ({@link NdjsonLines}, the rule every
 * surface reads NDJSON lines by), and each value must fit its field's type ({@link ColumnValues}).
 */
final class KafkaRowsDecoder implements Serializable {
  private static final long serialVersionUID = 1L;
  private static final EventTimeParser TIMES = EventTimeParser.defaults();

  private final String topic;
  private final Schema rowSchema;

  /** Rows of {@code rowSchema}: the value's fields, then the partition and offset fields. */
  KafkaRowsDecoder(String topic, Schema rowSchema) {
    this.topic = topic;
    this.rowSchema = rowSchema;
  }

  /** A row, or why there is none. */
  record Decoded(Row row, Row rejected) {}

  /**
   * The record at {@code offset} of {@code partition} (a null value: a record without one); the key
   * and Kafka timestamp are kept only with raw values.
   */
  Decoded decode(int partition, long offset, long timestamp, byte[] key, byte[] value) {
    if (rowSchema.hasField(KafkaRows.VALUE_FIELD)) { // raw values: the reading is the next step's
      return new Decoded(Row.withSchema(rowSchema).addValues(value, key, timestamp, partition, offset).build(), null);
    }
    if (value == null) {
      return reject(partition, offset, null, null, "the record has no value");
    }
    String notUtf8 = notUtf8(value);
    if (notUtf8 != null) {
      return reject(partition, offset, null, new String(value, StandardCharsets.UTF_8), notUtf8);
    }
    String text = new String(value, StandardCharsets.UTF_8);
    Map<String, Object> values;
    try {
      values = NdjsonLines.parse(text);
    } catch (MalformedLineException e) {
      return reject(partition, offset, e.field(), text, (e.field() == null ? "" : "field " + e.field() + ": ") + e.getMessage());
    }
    int valueFields = rowSchema.getFieldCount() - 2;
    Row.Builder row = Row.withSchema(rowSchema);
    for (int i = 0; i < valueFields; i++) {
      Schema.Field f = rowSchema.getField(i);
      Object v;
      try {
        v = convert(values.get(f.getName()), f.getType());
      } catch (ColumnValues.Mismatch e) {
        return reject(partition, offset, f.getName(), text, "field " + f.getName() + ": " + e.getMessage());
      }
      if (v == null && !f.getType().getNullable()) {
        return reject(partition, offset, f.getName(), text, "field " + f.getName() + ": "
            + ColumnValues.requiredReason(values.containsKey(f.getName())));
      }
      row.addValue(v);
    }
    return new Decoded(row.addValues(partition, offset).build(), null);
  }

  private Decoded reject(int partition, long offset, String field, String text, String reason) {
    return new Decoded(null, Row.withSchema(KafkaRows.REJECTED_SCHEMA).addValues(topic, partition, offset, field, text,
        "offset " + offset + " of partition " + partition + " of topic " + topic + ": " + reason).build());
  }

  /** Why the bytes are not UTF-8 text, or null when they are. */
  static String notUtf8(byte[] value) {
    String otherEncoding = TextEncoding.otherEncoding(value, 0, value.length, "value");
    if (otherEncoding != null) {
      return otherEncoding;
    }
    try {
      Utf8Lines.decode(value, 0, value.length, "value");
      return null;
    } catch (Utf8Lines.NotUtf8 e) {
      return e.getMessage();
    }
  }

  /** A JSON value as a value of a field of {@code type}, by the core's rule for every surface. */
  private static Object convert(Object v, FieldType type) throws ColumnValues.Mismatch {
    ValueType target = BeamValues.coreType(type);
    Object value = ColumnValues.convert(v, target, target.name(), TIMES);
    return value instanceof Instant i ? new org.joda.time.Instant(i.toEpochMilli()) : value;
  }
}
