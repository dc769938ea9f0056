package io.eventtime.hop;

import io.eventtime.core.ValueType;
import io.eventtime.core.Values;
import io.eventtime.core.bind.InputField;
import java.math.BigDecimal;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Collections;
import java.util.Date;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.apache.hop.core.exception.HopValueException;
import org.apache.hop.core.row.IRowMeta;
import org.apache.hop.core.row.IValueMeta;
import org.apache.hop.core.row.value.ValueMetaBoolean;
import org.apache.hop.core.row.value.ValueMetaInteger;
import org.apache.hop.core.row.value.ValueMetaNumber;
import org.apache.hop.core.row.value.ValueMetaString;
import org.apache.hop.core.row.value.ValueMetaTimestamp;

/**
 * Takes values between Hop's types (Integer as Long, Number as Double, BigNumber, Date,
 * Timestamp...) and the core's (Long, Double, String, Boolean, Instant), both ways.
 */
public final class HopValues {
  private HopValues() {}

  /** The value in normal storage: lazily converted rows hold binary strings. */
  public static Object nativeValue(IValueMeta meta, Object value) throws HopValueException {
    return value != null && meta.isStorageBinaryString() ? meta.convertToNormalStorageType(value) : value;
  }

  /** A Hop value as the core keeps it. */
  public static Object toCore(Object value) {
    return Values.normalize(value);
  }

  /**
   * A value from the core as a value of Hop type {@code target}: an Instant back to a Date or
   * Timestamp, a Double to a BigDecimal for a BigNumber field.
   */
  public static Object toHop(Object value, IValueMeta target) throws HopValueException {
    if (value == null) {
      return null;
    }
    switch (target.getType()) {
      case IValueMeta.TYPE_TIMESTAMP:
        return value instanceof Instant i ? Timestamp.from(i) : value;
      case IValueMeta.TYPE_DATE:
        return value instanceof Instant i ? Date.from(i) : value;
      case IValueMeta.TYPE_BIGNUMBER:
        return value instanceof Number n && !(value instanceof BigDecimal) ? new BigDecimal(n.toString()) : value;
      case IValueMeta.TYPE_NUMBER:
        return value instanceof Number n ? n.doubleValue() : value;
      case IValueMeta.TYPE_INTEGER:
        if (value instanceof Double d) {
          throw new HopValueException("the value " + d + " of field '" + target.getName()
              + "' does not fit a 64-bit Integer (a sum overflowed): sum a Number field instead");
        }
        return value;
      default:
        return value;
    }
  }

  /**
   * The core types a Hop time field may have: the core's, and DOUBLE, since {@link EventTimeReader}
   * reads a whole Number or BigNumber as an epoch number.
   */
  public static final Set<ValueType> TIME_TYPES = Collections.unmodifiableSet(
      EnumSet.of(ValueType.TIMESTAMP, ValueType.INT64, ValueType.DOUBLE, ValueType.STRING));

  /** The fields of a Hop row as the core's binding reads them, each type spelled as Hop spells it. */
  public static List<InputField> inputFields(IRowMeta row) {
    return row.getValueMetaList().stream()
        .map(v -> new InputField(v.getName(), valueType(v), v.getTypeDesc())).toList();
  }

  /** The Hop field that holds values of a core type: Integer, Number, String, Boolean or Timestamp. */
  public static IValueMeta valueMeta(ValueType type, String name) {
    switch (type) {
      case INT64:
        return new ValueMetaInteger(name);
      case DOUBLE:
        return new ValueMetaNumber(name);
      case BOOLEAN:
        return new ValueMetaBoolean(name);
      case TIMESTAMP:
        return new ValueMetaTimestamp(name);
      default:
        return new ValueMetaString(name);
    }
  }

  /**
   * The core type of a Hop field, or null for types the core does not aggregate (binary...). This
   * is the one map from Hop's types to the core's, on the local engine and on Beam alike: a
   * BigNumber is a DOUBLE.
   */
  public static ValueType valueType(IValueMeta meta) {
    switch (meta.getType()) {
      case IValueMeta.TYPE_INTEGER:
        return ValueType.INT64;
      case IValueMeta.TYPE_NUMBER:
      case IValueMeta.TYPE_BIGNUMBER:
        return ValueType.DOUBLE;
      case IValueMeta.TYPE_STRING:
        return ValueType.STRING;
      case IValueMeta.TYPE_BOOLEAN:
        return ValueType.BOOLEAN;
      case IValueMeta.TYPE_DATE:
      case IValueMeta.TYPE_TIMESTAMP:
        return ValueType.TIMESTAMP;
      default:
        return null;
    }
  }

  /** A Hop Timestamp of epoch milliseconds. */
  public static Timestamp timestamp(long epochMillis) {
    return new Timestamp(epochMillis);
  }
}
