package io.eventtime.hop.fileinput;

import io.eventtime.core.EventTimeException;
import io.eventtime.core.EventTimeParser;
import io.eventtime.core.Values;
import io.eventtime.core.ndjson.ColumnValues;
import io.eventtime.core.ndjson.NestedValue;
import java.math.BigDecimal;
import java.sql.Timestamp;
import java.util.Date;
import java.util.Locale;
import org.apache.hop.core.row.IValueMeta;

/**
 * Turns a value read from a file (a JSON string, number, boolean or null, or CSV text) into a
 * value of one Hop type; a value that is not of that type, or a JSON object or array, raises
 * {@link IllegalArgumentException} saying why.
 */
final class ValueReader {
  private final IValueMeta target;
  private final EventTimeParser timeParser;

  ValueReader(IValueMeta target, EventTimeParser timeParser) {
    this.target = target;
    this.timeParser = timeParser;
  }

  Object read(Object raw) {
    if (raw == null) {
      return null;
    }
    if (raw instanceof NestedValue nested) {
      // an object and the string of its text are different values: no field takes the object
      throw new IllegalArgumentException(ColumnValues.nestedReason(nested));
    }
    switch (target.getType()) {
      case IValueMeta.TYPE_STRING:
        // a number is a number: 1 and 1.0 are one text, "1"
        return raw instanceof Number ? Values.canonical(raw).toString() : raw.toString();
      case IValueMeta.TYPE_INTEGER:
        return integer(raw);
      case IValueMeta.TYPE_NUMBER:
        if (raw instanceof Number n) {
          return n.doubleValue();
        }
        return parse(raw, () -> Double.parseDouble(raw.toString().trim()));
      case IValueMeta.TYPE_BIGNUMBER:
        return parse(raw, () -> new BigDecimal(raw.toString().trim()));
      case IValueMeta.TYPE_BOOLEAN:
        return bool(raw);
      case IValueMeta.TYPE_TIMESTAMP:
        return new Timestamp(time(raw));
      case IValueMeta.TYPE_DATE:
        return new Date(time(raw));
      default:
        throw new IllegalArgumentException("fields of type " + target.getTypeDesc() + " cannot be read from a file");
    }
  }

  private Object integer(Object raw) {
    if (raw instanceof Long l) {
      return l;
    }
    if (raw instanceof Double d && d == Math.rint(d) && Math.abs(d) < 9.0e18) {
      return d.longValue();
    }
    return parse(raw, () -> Long.parseLong(raw.toString().trim()));
  }

  private Boolean bool(Object raw) {
    if (raw instanceof Boolean b) {
      return b;
    }
    switch (raw.toString().trim().toLowerCase(Locale.ROOT)) {
      case "true": case "y": case "yes": case "1":
        return true;
      case "false": case "n": case "no": case "0":
        return false;
      default:
        throw notA(raw);
    }
  }

  private long time(Object raw) {
    try {
      return timeParser.parse(raw);
    } catch (EventTimeException e) {
      throw new IllegalArgumentException("not a " + target.getTypeDesc() + ": " + e.getMessage());
    }
  }

  private Object parse(Object raw, java.util.function.Supplier<Object> parser) {
    if (raw instanceof Boolean || (raw instanceof String s && s.isBlank())) {
      throw notA(raw);
    }
    try {
      return parser.get();
    } catch (NumberFormatException e) {
      throw notA(raw);
    }
  }

  private IllegalArgumentException notA(Object raw) {
    String text = raw.toString();
    return new IllegalArgumentException("'" + (text.length() > 60 ? text.substring(0, 57) + "..." : text)
        + "' is not " + (target.getType() == IValueMeta.TYPE_INTEGER ? "an " : "a ") + target.getTypeDesc());
  }
}
