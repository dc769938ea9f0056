package io.eventtime.beam;

import io.eventtime.core.EventTimeParser;
import io.eventtime.core.Key;
import io.eventtime.core.ValueType;
import io.eventtime.core.Values;
import io.eventtime.core.WindowResult;
import io.eventtime.core.bind.InputField;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.schemas.Schema.FieldType;
import org.apache.beam.sdk.schemas.Schema.TypeName;
import org.apache.beam.sdk.schemas.logicaltypes.DateTime;
import org.apache.beam.sdk.schemas.logicaltypes.MicrosInstant;
import org.apache.beam.sdk.schemas.logicaltypes.NanosInstant;
import org.apache.beam.sdk.values.Row;
import org.joda.time.ReadableInstant;

/** Converts between the values of Beam rows and the core's value types. */
public final class BeamValues {
  /** Beam's logical types of a point in time (a date-time without a zone is read in the parser's zone). */
  private static final Set<String> TIME_LOGICAL_TYPES =
      Set.of(MicrosInstant.IDENTIFIER, NanosInstant.IDENTIFIER, DateTime.IDENTIFIER);

  private BeamValues() {}

  /** The core type of a Beam field type, or null where the core has none. */
  public static ValueType coreType(FieldType type) {
    TypeName name = type.getTypeName();
    switch (name) {
      case BYTE:
      case INT16:
      case INT32:
      case INT64:
        return ValueType.INT64;
      case FLOAT:
      case DOUBLE:
      case DECIMAL:
        return ValueType.DOUBLE;
      case STRING:
        return ValueType.STRING;
      case BOOLEAN:
        return ValueType.BOOLEAN;
      case DATETIME:
        return ValueType.TIMESTAMP;
      case LOGICAL_TYPE:
        if (TIME_LOGICAL_TYPES.contains(type.getLogicalType().getIdentifier())) {
          return ValueType.TIMESTAMP;
        }
        Object base = type.getLogicalType().getBaseType();
        return coreType((FieldType) base);
      default:
        return null;
    }
  }

  /** The Beam field type that holds values of a core type (STRING for null: a field seen only as null). */
  public static FieldType beamType(ValueType type) {
    if (type == null) {
      return FieldType.STRING;
    }
    switch (type) {
      case INT64:
        return FieldType.INT64;
      case DOUBLE:
        return FieldType.DOUBLE;
      case BOOLEAN:
        return FieldType.BOOLEAN;
      case TIMESTAMP:
        return FieldType.DATETIME;
      default:
        return FieldType.STRING;
    }
  }

  /** A Beam row value as the core holds it. */
  public static Object toCore(Object value) {
    if (value instanceof ReadableInstant i) {
      return java.time.Instant.ofEpochMilli(i.getMillis());
    }
    if (value instanceof LocalDateTime t) {
      return t.toInstant(ZoneOffset.UTC);
    }
    return Values.normalize(value);
  }

  /** The event time of a time field's value; a date-time without a zone is read in the parser's zone. */
  static long eventTime(EventTimeParser parser, Object value) {
    return parser.parse(value instanceof LocalDateTime ? value : toCore(value));
  }

  /** A core value as a Beam row value of {@code type} (one of {@link #beamType}'s). */
  public static Object toBeam(Object value, FieldType type) {
    if (value == null) {
      return null;
    }
    if (value instanceof java.time.Instant i) {
      return new org.joda.time.Instant(i.toEpochMilli());
    }
    switch (type.getTypeName()) {
      case INT64:
        return ((Number) value).longValue();
      case DOUBLE:
        return ((Number) value).doubleValue();
      case STRING:
        return value.toString();
      default:
        return value;
    }
  }

  /** The fields of {@code schema} as the core's binding reads them, each type spelled as Beam spells it. */
  static List<InputField> inputFields(Schema schema) {
    return schema.getFields().stream()
        .map(f -> new InputField(f.getName(), coreType(f.getType()), f.getType().toString())).toList();
  }

  /**
   * A window row of {@link EventTimeWindow} as the core's result: the first {@code keyCount}
   * fields the key, then the window's start and end, then the aggregates.
   */
  public static WindowResult windowResult(Row window, int keyCount) {
    Object[] key = new Object[keyCount];
    for (int i = 0; i < keyCount; i++) {
      key[i] = toCore(window.getValue(i));
    }
    Object[] values = new Object[window.getFieldCount() - keyCount - 2];
    for (int i = 0; i < values.length; i++) {
      values[i] = toCore(window.getValue(keyCount + 2 + i));
    }
    return new WindowResult(Key.of(key), window.getDateTime(keyCount).getMillis(),
        window.getDateTime(keyCount + 1).getMillis(), values);
  }
}
