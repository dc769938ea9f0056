package io.eventtime.hop.kafkainput;

import io.eventtime.hop.Settings;
import io.eventtime.hop.fileinput.TypedFields;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import org.apache.hop.core.row.IRowMeta;
import org.apache.hop.core.row.IValueMeta;
import org.apache.hop.core.row.RowMeta;
import org.apache.hop.core.row.value.ValueMetaInteger;
import org.apache.hop.core.row.value.ValueMetaString;
import org.apache.hop.core.row.value.ValueMetaTimestamp;
import org.apache.hop.core.variables.IVariables;
import org.apache.hop.i18n.BaseMessages;

/**
 * The settings of an Event Kafka Input with variables resolved and checked: where to read, how
 * to read each record's value, and the layout of the rows (the value's fields, or the raw value;
 * then the partition, offset, Kafka timestamp and key, each when it has a name).
 */
public final class KafkaInputSettings {
  private static final Class<?> PKG = EventKafkaInputMeta.class;
  public static final String[] FORMATS = {"json", "raw"};
  public static final String[] START_POSITIONS = {"earliest", "latest"};
  /** The settings' names, as the problems begin. */
  private static final String FORMAT_LABEL = BaseMessages.getString(PKG, "EventKafkaInputMeta.Setting.Format");
  private static final String GROUP_LABEL = BaseMessages.getString(PKG, "EventKafkaInputMeta.Setting.Group");
  private static final String SERVERS_LABEL = BaseMessages.getString(PKG, "EventKafkaInputMeta.Setting.Servers");
  private static final String START_LABEL = BaseMessages.getString(PKG, "EventKafkaInputMeta.Setting.Start");
  private static final String TIME_ZONE_LABEL = BaseMessages.getString(PKG, "EventKafkaInputMeta.Setting.TimeZone");
  private static final String TIMEOUT_LABEL = BaseMessages.getString(PKG, "EventKafkaInputMeta.Setting.Timeout");
  private static final String TOPIC_LABEL = BaseMessages.getString(PKG, "EventKafkaInputMeta.Setting.Topic");

  final String servers;
  final String topic;
  final String group;
  final boolean fromEarliest;
  final boolean stopWhenCaughtUp;
  final long timeoutMillis;
  final boolean raw;
  final TypedFields fields;
  final IRowMeta layout = new RowMeta();
  /** Where the raw value, partition, offset, timestamp and key go in a row; -1 for nowhere. */
  final int valueIndex;
  final int partitionIndex;
  final int offsetIndex;
  final int timestampIndex;
  final int keyIndex;

  private KafkaInputSettings(EventKafkaInputMeta meta, IVariables variables, List<String> problems) {
    servers = Settings.resolve(variables, meta.getBootstrapServers());
    if (servers == null) {
      problems.add(BaseMessages.getString(PKG, "EventKafkaInputMeta.Problem.NoServers"));
    } else if (!Settings.undefinedVariable(SERVERS_LABEL, servers, problems)) {
      for (String server : servers.split(",")) {
        if (!server.trim().matches("[^:\\s]+:\\d{1,5}")) {
          problems.add(BaseMessages.getString(PKG, "EventKafkaInputMeta.Problem.BadServer", server.trim()));
        }
      }
    }
    topic = Settings.resolve(variables, meta.getTopic());
    if (topic == null) {
      problems.add(BaseMessages.getString(PKG, "EventKafkaInputMeta.Problem.NoTopic"));
    } else if (!Settings.undefinedVariable(TOPIC_LABEL, topic, problems)
        && !topic.matches("[a-zA-Z0-9._-]{1,249}")) {
      problems.add(BaseMessages.getString(PKG, "EventKafkaInputMeta.Problem.BadTopic", topic));
    }
    group = Settings.resolve(variables, meta.getConsumerGroup());
    Settings.undefinedVariable(GROUP_LABEL, group, problems);

    String start = Settings.resolve(variables, meta.getStartPosition());
    String s = start == null ? "earliest" : start.toLowerCase(Locale.ROOT);
    if (!List.of(START_POSITIONS).contains(s) && !Settings.undefinedVariable(START_LABEL, start, problems)) {
      problems.add(BaseMessages.getString(PKG, "EventKafkaInputMeta.Problem.BadStart", start));
    }
    fromEarliest = !s.equals("latest");
    stopWhenCaughtUp = meta.isStopWhenCaughtUp();
    String timeoutText = Settings.resolve(variables, meta.getConnectionTimeout());
    Long timeout = timeoutText == null ? Long.valueOf(30_000)
        : Settings.positiveDuration(TIMEOUT_LABEL, timeoutText, problems);
    timeoutMillis = timeout == null ? 30_000 : timeout;

    String format = Settings.resolve(variables, meta.getValueFormat());
    String f = format == null ? "json" : format.toLowerCase(Locale.ROOT);
    if (!List.of(FORMATS).contains(f) && !Settings.undefinedVariable(FORMAT_LABEL, format, problems)) {
      problems.add(BaseMessages.getString(PKG, "EventKafkaInputMeta.Problem.BadFormat", format));
    }
    raw = f.equals("raw");

    ZoneId zone = ZoneOffset.UTC;
    String zoneText = Settings.resolve(variables, meta.getTimeZone());
    if (zoneText != null && !Settings.undefinedVariable(TIME_ZONE_LABEL, zoneText, problems)) {
      try {
        zone = ZoneId.of(zoneText);
      } catch (DateTimeException e) {
        problems.add(BaseMessages.getString(PKG, "EventKafkaInputMeta.Problem.TimeZone", zoneText));
      }
    }
    List<String> names = new ArrayList<>();
    if (raw) {
      fields = TypedFields.build(List.of(), zone, variables, problems);
      if (!meta.getFields().isEmpty()) {
        problems.add(BaseMessages.getString(PKG, "EventKafkaInputMeta.Problem.FieldsWithRaw"));
      }
      String value = Settings.resolve(variables, meta.getValueField());
      if (value == null) {
        problems.add(BaseMessages.getString(PKG, "EventKafkaInputMeta.Problem.NoValueField"));
        value = "value";
      }
      valueIndex = add(new ValueMetaString(value), names);
    } else {
      List<TypedFields.Setting> settings = new ArrayList<>();
      meta.getFields().forEach(k -> settings.add(new TypedFields.Setting(k.getName(), k.getType(), k.getFormat())));
      if (settings.isEmpty()) {
        problems.add(BaseMessages.getString(PKG, "EventKafkaInputMeta.Problem.NoFields"));
      }
      fields = TypedFields.build(settings, zone, variables, problems);
      layout.addRowMeta(fields.layout());
      names.addAll(fields.names());
      valueIndex = -1;
    }
    partitionIndex = optional(Settings.resolve(variables, meta.getPartitionField()), ValueMetaInteger::new, names);
    offsetIndex = optional(Settings.resolve(variables, meta.getOffsetField()), ValueMetaInteger::new, names);
    timestampIndex = optional(Settings.resolve(variables, meta.getTimestampField()), ValueMetaTimestamp::new, names);
    keyIndex = optional(Settings.resolve(variables, meta.getKeyField()), ValueMetaString::new, names);
    Settings.requireDistinct(names, problems);
  }

  private int add(IValueMeta v, List<String> names) {
    layout.addValueMeta(v);
    names.add(v.getName());
    return layout.size() - 1;
  }

  private int optional(String name, Function<String, IValueMeta> make,
      List<String> names) {
    return name == null ? -1 : add(make.apply(name), names);
  }

  /** The layout of the rows, as far as the settings allow even when some are wrong. */
  public static IRowMeta layout(EventKafkaInputMeta meta, IVariables variables) {
    return new KafkaInputSettings(meta, variables, new ArrayList<>()).layout;
  }

  /** Resolves and checks every setting, or returns null with each problem and how to fix it. */
  public static KafkaInputSettings resolve(EventKafkaInputMeta meta, IVariables variables, List<String> problems) {
    int before = problems.size();
    KafkaInputSettings s = new KafkaInputSettings(meta, variables, problems);
    return problems.size() > before ? null : s;
  }

  /** The layout of the rows. */
  public IRowMeta layout() {
    return layout;
  }
}
