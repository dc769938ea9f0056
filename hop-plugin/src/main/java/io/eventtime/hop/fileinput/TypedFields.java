package io.eventtime.hop.fileinput;

import io.eventtime.core.EventTimeParser;
import io.eventtime.hop.Settings;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hop.core.exception.HopPluginException;
import org.apache.hop.core.row.IRowMeta;
import org.apache.hop.core.row.IValueMeta;
import org.apache.hop.core.row.RowMeta;
import org.apache.hop.core.row.value.ValueMetaFactory;
import org.apache.hop.core.row.value.ValueMetaString;
import org.apache.hop.core.variables.IVariables;
import org.apache.hop.i18n.BaseMessages;

/**
 * The fields an event input reads, each with its Hop type and how its values are read: checked
 * once with the same words, and read with the same rule, for Event File Input and Event Kafka
 * Input, so that a value one of them rejects the other rejects with the same reason.
 */
public final class TypedFields {
  private static final Class<?> PKG = EventFileInputMeta.class;

  /** One field as the user wrote it: name, Hop type, and time pattern (variables not resolved). */
  public record Setting(String name, String type, String format) {}

  /** Why a row could not be read: the field and the reason. */
  public record Rejection(String field, String reason) {}

  private final List<String> names = new ArrayList<>();
  private final List<ValueReader> readers = new ArrayList<>();
  private final IRowMeta layout = new RowMeta();

  private TypedFields() {}

  /**
   * The fields resolved against {@code variables}; each setting that is wrong adds a problem
   * (a field without a name or type, a type this input does not read, a bad time pattern) and
   * still gives a field, a String when its type cannot be told, so that a layout can be shown.
   */
  public static TypedFields build(List<Setting> settings, ZoneId zone, IVariables variables, List<String> problems) {
    TypedFields fields = new TypedFields();
    for (int i = 0; i < settings.size(); i++) {
      Setting field = settings.get(i);
      String name = Settings.resolve(variables, field.name());
      String type = Settings.resolve(variables, field.type());
      String where = name == null ? BaseMessages.getString(PKG, "EventFileInputMeta.Setting.Field", i + 1)
          : BaseMessages.getString(PKG, "EventFileInputMeta.Setting.NamedField", i + 1, name);
      if (name == null) {
        problems.add(BaseMessages.getString(PKG, "EventFileInputMeta.Problem.FieldNoName", where));
        name = "field_" + (i + 1);
      }
      IValueMeta valueMeta;
      int typeId = type == null ? IValueMeta.TYPE_NONE : ValueMetaFactory.getIdForValueMeta(type);
      if (type == null || !List.of(InputSettings.TYPES).contains(type) || typeId == IValueMeta.TYPE_NONE) {
        String types = String.join(", ", InputSettings.TYPES);
        problems.add(type == null ? BaseMessages.getString(PKG, "EventFileInputMeta.Problem.FieldNoType", where, types)
            : BaseMessages.getString(PKG, "EventFileInputMeta.Problem.FieldUnknownType", where, type, types));
        typeId = IValueMeta.TYPE_STRING;
      }
      try {
        valueMeta = ValueMetaFactory.createValueMeta(name, typeId);
      } catch (HopPluginException e) {
        problems.add(BaseMessages.getString(PKG, "EventFileInputMeta.Problem.FieldCannotMake", where, type,
            e.getMessage()));
        valueMeta = new ValueMetaString(name);
      }
      EventTimeParser parser = EventTimeParser.defaults().withZone(zone);
      String pattern = Settings.resolve(variables, field.format());
      if (pattern != null && (typeId == IValueMeta.TYPE_DATE || typeId == IValueMeta.TYPE_TIMESTAMP)) {
        try {
          parser = parser.withPattern(pattern);
        } catch (IllegalArgumentException e) {
          problems.add(BaseMessages.getString(PKG, "EventFileInputMeta.Problem.FieldPattern", where, e.getMessage()));
        }
      }
      fields.names.add(name);
      fields.readers.add(new ValueReader(valueMeta, parser));
      fields.layout.addValueMeta(valueMeta);
    }
    return fields;
  }

  /** The field names, in order. */
  public List<String> names() {
    return names;
  }

  /** The fields' layout, in order. */
  public IRowMeta layout() {
    return layout;
  }

  public int size() {
    return names.size();
  }

  /** Reads field {@code i} from a JSON value or CSV text; {@link IllegalArgumentException} says why it cannot. */
  public Object read(int i, Object raw) {
    return readers.get(i).read(raw);
  }

  /**
   * Reads every field of one JSON object into {@code row[0..size)}: a field that is not there is
   * null; the first value that is not of its field's type stops the reading with the rejection.
   */
  public Rejection readJson(Map<String, Object> values, Object[] row) {
    for (int i = 0; i < names.size(); i++) {
      String name = names.get(i);
      try {
        row[i] = readers.get(i).read(values.get(name));
      } catch (IllegalArgumentException e) {
        return new Rejection(name, "field '" + name + "': " + e.getMessage());
      }
    }
    return null;
  }
}
