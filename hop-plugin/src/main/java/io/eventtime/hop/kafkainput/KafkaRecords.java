package io.eventtime.hop.kafkainput;

import io.eventtime.core.ndjson.MalformedLineException;
import io.eventtime.core.ndjson.NdjsonLines;
import io.eventtime.core.ndjson.TextEncoding;
import io.eventtime.core.ndjson.Utf8Lines;
import io.eventtime.hop.fileinput.TypedFields;
import java.sql.Timestamp;
import java.util.Map;
import org.apache.hop.core.row.RowDataUtil;

/**
 * Turns Kafka records into rows of an Event Kafka Input: the value's text must be UTF-8 (the
 * core's {@link Utf8Lines}, as for a line of a file) holding one JSON object ({@link NdjsonLines},
 * the rule every surface reads NDJSON by), each field read by Event File Input's rule
 * ({@link TypedFields}); or, raw, the value's text. A record that cannot be read is a rejected row
 * whose reason starts with its offset, partition and topic. It needs no running transform.
 */
public final class KafkaRecords {
  /** One row: its values (partition, offset, timestamp and key included when asked for) or why it is rejected. */
  public record Record(Object[] values, String errorField, String error) {
    public boolean isRejected() {
      return error != null;
    }
  }

  private final KafkaInputSettings settings;

  public KafkaRecords(KafkaInputSettings settings) {
    this.settings = settings;
  }

  /** The row of the record at {@code offset} of {@code partition} (a null key or value: the record has none). */
  public Record read(int partition, long offset, long timestamp, byte[] key, byte[] value) {
    Object[] row = RowDataUtil.allocateRowData(settings.layout.size());
    put(row, settings.partitionIndex, (long) partition);
    put(row, settings.offsetIndex, offset);
    put(row, settings.timestampIndex, timestamp < 0 ? null : new Timestamp(timestamp));
    String where = "offset " + offset + " of partition " + partition + " of topic " + settings.topic + ": ";
    if (key != null) {
      try {
        put(row, settings.keyIndex, text(key, "key"));
      } catch (NotText e) {
        return new Record(row, null, where + e.getMessage());
      }
    }
    if (settings.raw) {
      try {
        row[settings.valueIndex] = value == null ? null : text(value, "value");
      } catch (NotText e) {
        return new Record(row, null, where + e.getMessage());
      }
      return new Record(row, null, null);
    }
    if (value == null) {
      return new Record(row, null, where + "the record has no value");
    }
    Map<String, Object> fields;
    try {
      fields = NdjsonLines.parse(text(value, "value"));
    } catch (NotText e) {
      return new Record(row, null, where + e.getMessage());
    } catch (MalformedLineException e) {
      return new Record(row, e.field(), where + e.getMessage());
    }
    TypedFields.Rejection rejection = settings.fields.readJson(fields, row);
    if (rejection != null) {
      return new Record(row, rejection.field(), where + rejection.reason());
    }
    return new Record(row, null, null);
  }

  private static void put(Object[] row, int index, Object value) {
    if (index >= 0) {
      row[index] = value;
    }
  }

  /** The bytes as text, refused by the core's rules when they are not UTF-8 (another encoding named when it shows). */
  static String text(byte[] bytes, String unit) throws NotText {
    String otherEncoding = TextEncoding.otherEncoding(bytes, 0, bytes.length, unit);
    if (otherEncoding != null) {
      throw new NotText(otherEncoding);
    }
    try {
      return Utf8Lines.decode(bytes, 0, bytes.length, unit);
    } catch (Utf8Lines.NotUtf8 e) {
      throw new NotText(e.getMessage());
    }
  }

  /** Bytes that are not UTF-8 text; the message says why. */
  static final class NotText extends Exception {
    NotText(String reason) {
      super(reason);
    }
  }
}
