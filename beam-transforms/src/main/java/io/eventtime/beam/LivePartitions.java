package io.eventtime.beam;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.values.Row;

/**
 * The partitions of a live input (docs/live-streams.md, "Several partitions"): the integer field
 * that names each row's partition and every partition's id, in partition order (ascending ids,
 * as Kafka numbers its partitions). Without a partition field the input is one partition, 0.
 * The live steps number the partitions by their place in this order ({@link #indexOf}), which is
 * the order the core's {@code PartitionedWindowProcessor} merges their partials in.
 */
final class LivePartitions implements Serializable {
  /** One partition, 0: an input without a partition field. */
  static final LivePartitions ONE = new LivePartitions(null, new int[] {0});

  private final String field;
  private final int[] ids;

  private LivePartitions(String field, int[] ids) {
    this.field = field;
    this.ids = ids;
  }

  /**
   * The partitions {@code ids} named by {@code field}, refused (IllegalArgumentException) when the
   * field is set without ids or ids without the field, or the ids are empty or repeat one.
   */
  static LivePartitions of(String field, int[] ids) {
    if (field == null && ids == null) {
      return ONE;
    }
    if (field == null) {
      throw new IllegalArgumentException("withPartitions(" + list(ids) + ") needs withPartitionField(...): the"
          + " field that says which of these partitions each row comes from");
    }
    if (ids == null) {
      throw new IllegalArgumentException("withPartitionField(\"" + field + "\") on an unbounded input needs"
          + " withPartitions(...), every partition of the stream (KafkaRows.Result.partitions() for a topic): a"
          + " partition that has sent no row yet must hold the windows back, so the transform must know it");
    }
    if (ids.length == 0) {
      throw new IllegalArgumentException("withPartitions() names no partition: give every partition of the stream,"
          + " at least one");
    }
    int[] sorted = ids.clone();
    Arrays.sort(sorted);
    for (int i = 1; i < sorted.length; i++) {
      if (sorted[i] == sorted[i - 1]) {
        throw new IllegalArgumentException("withPartitions(" + list(ids) + ") names partition " + sorted[i]
            + " twice: give each partition once");
      }
    }
    return new LivePartitions(field, sorted);
  }

  /** Refuses, before the run, a partition field that {@code schema} lacks or that holds no integer. */
  void check(Schema schema) {
    if (field == null) {
      return;
    }
    if (!schema.hasField(field)) {
      throw new IllegalArgumentException("the partition field " + field + " is not in the input, whose fields are "
          + schema.getFieldNames());
    }
    Schema.TypeName type = schema.getField(field).getType().getTypeName();
    if (type != Schema.TypeName.INT32 && type != Schema.TypeName.INT16 && type != Schema.TypeName.BYTE
        && type != Schema.TypeName.INT64) {
      throw new IllegalArgumentException("the partition field " + field + " is " + type
          + ", not an integer (INT32, INT64, INT16 or BYTE): it must hold each row's partition number");
    }
  }

  /** Whether the rows name their partition (a partition field is set). */
  boolean named() {
    return field != null;
  }

  String field() {
    return field;
  }

  int count() {
    return ids.length;
  }

  /** The ids in partition order as the core names partitions (late reasons, the held state). */
  List<String> names() {
    List<String> names = new ArrayList<>();
    for (int id : ids) {
      names.add(String.valueOf(id));
    }
    return names;
  }

  /** The id of the partition at {@code index} in partition order. */
  int id(int index) {
    return ids[index];
  }

  /**
   * The place in partition order of {@code row}'s partition, or -1 when the row names none of
   * them (then {@link #unknownReason} says why it is rejected).
   */
  int indexOf(Row row) {
    if (field == null) {
      return 0;
    }
    Object value = row.getValue(field);
    if (value == null) {
      return -1;
    }
    long id = ((Number) value).longValue();
    if (id < Integer.MIN_VALUE || id > Integer.MAX_VALUE) {
      return -1;
    }
    int at = Arrays.binarySearch(ids, (int) id);
    return at < 0 ? -1 : at;
  }

  /** Why a row {@link #indexOf} placed nowhere is rejected. */
  String unknownReason(Row row) {
    Object value = row.getValue(field);
    return value == null
        ? "field " + field + ": the row names no partition (null), so its lateness cannot be decided"
        : "field " + field + ": partition " + value + " is not one of the stream's partitions " + list(ids)
            + " (withPartitions)";
  }

  /** How a place in the partition names it in a reason: empty for one partition without a field. */
  String where(int index) {
    return field == null ? "" : "partition " + ids[index] + ", ";
  }

  /** The ids as the display data and the messages show them. */
  String describe() {
    return list(ids);
  }

  private static String list(int[] ids) {
    return Arrays.stream(ids).mapToObj(String::valueOf).collect(Collectors.joining(", "));
  }
}
