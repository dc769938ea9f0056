package io.eventtime.hop.beam;

import io.eventtime.beam.BeamValues;
import io.eventtime.beam.EventTimeWindow;
import io.eventtime.core.ValueType;
import io.eventtime.hop.HopValues;
import java.io.Serializable;
import java.math.BigDecimal;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Date;
import java.util.List;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.schemas.Schema.FieldType;
import org.apache.beam.sdk.values.Row;
import org.apache.hop.core.exception.HopValueException;
import org.apache.hop.core.row.IRowMeta;
import org.apache.hop.core.row.IValueMeta;
import org.apache.hop.core.row.JsonRowMeta;
import org.joda.time.Instant;
import org.joda.time.ReadableInstant;

/**
 * Hop rows as Beam rows. The Beam schema has one nullable field per Hop field (String, Integer
 * as INT64, Number as DOUBLE, BigNumber as DECIMAL, Boolean, Date and Timestamp as DATETIME,
 * Binary as BYTES: {@link #beamType}, so that each field has the core type {@link HopValues} gives it) and, last, the row's arrival position in {@value #ARRIVAL}, which orders the
 * rows as Hop's local engine would see them.
 */
final class RowLayout implements Serializable {
  static final String ARRIVAL = EventTimeWindow.DEFAULT_ARRIVAL_FIELD;

  private final String rowMetaJson;
  private final int[] types;
  private final Schema schema;
  private transient IRowMeta rowMeta;

  private RowLayout(IRowMeta rowMeta, int[] types, Schema schema) {
    this.rowMeta = rowMeta;
    this.rowMetaJson = JsonRowMeta.toJson(rowMeta);
    this.types = types;
    this.schema = schema;
  }

  /**
   * The layout of rows of {@code meta} (kept in normal storage); each field that cannot travel
   * between Beam steps adds a problem naming it and what to do.
   */
  static RowLayout of(IRowMeta meta, String where, List<String> problems) {
    IRowMeta normal = meta.clone();
    int[] types = new int[normal.size()];
    Schema.Builder b = Schema.builder();
    for (int i = 0; i < normal.size(); i++) {
      IValueMeta v = normal.getValueMeta(i);
      v.setStorageType(IValueMeta.STORAGE_TYPE_NORMAL);
      v.setStorageMetadata(null);
      types[i] = v.getType();
      FieldType type = beamType(v);
      if (type == null) {
        problems.add(where + ": the field '" + v.getName() + "' is of type " + v.getTypeDesc()
            + ", which cannot be carried between Beam steps: convert it to a String, Integer, Number, BigNumber,"
            + " Boolean, Date, Timestamp or Binary field first (e.g. with Select values)");
        type = FieldType.STRING;
      }
      if (v.getName().equals(ARRIVAL)) {
        problems.add(where + ": the field name '" + ARRIVAL + "' is used by the Beam translation for the arrival"
            + " position of each row: rename the field");
      }
      b.addNullableField(v.getName(), type);
    }
    b.addInt64Field(ARRIVAL);
    return new RowLayout(normal, types, b.build());
  }

  /**
   * The Beam type a Hop field travels as: the Beam type of its core type, by {@link HopValues#valueType}
   * (the one map from Hop's types to the core's, as on the local engine), except that a BigNumber
   * travels as DECIMAL, which keeps its digits and whose core type ({@link BeamValues#coreType}) is
   * DOUBLE just the same, and a Binary as BYTES, which the core has no type for; null for a type
   * that cannot travel.
   */
  static FieldType beamType(IValueMeta v) {
    if (v.getType() == IValueMeta.TYPE_BIGNUMBER) {
      return FieldType.DECIMAL;
    }
    if (v.getType() == IValueMeta.TYPE_BINARY) {
      return FieldType.BYTES;
    }
    ValueType core = HopValues.valueType(v);
    return core == null ? null : BeamValues.beamType(core);
  }

  Schema schema() {
    return schema;
  }

  /** The Hop layout; on a worker it is rebuilt from its JSON form, which needs Hop's value types. */
  IRowMeta rowMeta() {
    if (rowMeta == null) {
      HopWorker.init();
      rowMeta = JsonRowMeta.fromJson(rowMetaJson);
    }
    return rowMeta;
  }

  int size() {
    return types.length;
  }

  List<String> fieldNames() {
    return schema.getFieldNames().subList(0, types.length);
  }

  /** Whether rows of both layouts can be mixed: the same field names and types, in order. */
  boolean sameFieldsAs(RowLayout other) {
    return Arrays.equals(types, other.types) && fieldNames().equals(other.fieldNames());
  }

  /** A Hop row (values in normal storage) with its arrival position as a Beam row. */
  Row toBeam(Object[] hopRow, long arrival) {
    List<Object> values = new ArrayList<>(types.length + 1);
    for (int i = 0; i < types.length; i++) {
      values.add(beamValue(i < hopRow.length ? hopRow[i] : null, types[i]));
    }
    values.add(arrival);
    return Row.withSchema(schema).attachValues(values);
  }

  /** A Hop row whose values may be in another storage (lazy conversion), as {@code meta} says. */
  Row toBeam(IRowMeta meta, Object[] hopRow, long arrival) throws HopValueException {
    Object[] normal = new Object[types.length];
    for (int i = 0; i < types.length && i < hopRow.length; i++) {
      normal[i] = HopValues.nativeValue(meta.getValueMeta(i), hopRow[i]);
    }
    return toBeam(normal, arrival);
  }

  /** The Hop values of a Beam row of this layout (its arrival position left out). */
  Object[] toHop(Row row) {
    Object[] values = new Object[types.length];
    for (int i = 0; i < types.length; i++) {
      values[i] = hopValue(row.getValue(i), types[i]);
    }
    return values;
  }

  static long arrival(Row row) {
    return row.getInt64(row.getSchema().getFieldCount() - 1);
  }

  private static Object beamValue(Object v, int hopType) {
    if (v == null) {
      return null;
    }
    if (v instanceof Date d) {
      return new Instant(d.getTime());
    }
    if (hopType == IValueMeta.TYPE_BIGNUMBER && !(v instanceof BigDecimal)) {
      return new BigDecimal(v.toString());
    }
    return v;
  }

  private static Object hopValue(Object v, int hopType) {
    if (v instanceof ReadableInstant i) {
      return hopType == IValueMeta.TYPE_DATE ? new Date(i.getMillis()) : new Timestamp(i.getMillis());
    }
    return v;
  }
}
