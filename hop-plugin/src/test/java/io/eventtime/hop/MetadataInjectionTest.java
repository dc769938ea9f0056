package io.eventtime.hop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.eventtime.hop.fileinput.EventFileInputMeta;
import io.eventtime.hop.kafkainput.EventKafkaInputMeta;
import io.eventtime.hop.kafkainput.KafkaField;
import io.eventtime.hop.fileinput.InputField;
import io.eventtime.hop.fileinput.InputFile;
import io.eventtime.hop.fileoutput.EventFileOutputMeta;
import io.eventtime.hop.fileoutput.OutputField;
import io.eventtime.hop.stamp.EventTimeStampMeta;
import io.eventtime.hop.window.EventTimeWindowMeta;
import io.eventtime.hop.window.GroupField;
import io.eventtime.hop.window.WindowAggregate;
import java.lang.reflect.Field;
import java.lang.reflect.ParameterizedType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.hop.core.RowMetaAndData;
import org.apache.hop.core.injection.bean.BeanInjectionInfo;
import org.apache.hop.core.injection.bean.BeanInjector;
import org.apache.hop.core.row.value.ValueMetaString;
import org.apache.hop.core.util.Utils;
import org.apache.hop.metadata.api.HopMetadataProperty;
import org.apache.hop.metadata.serializer.memory.MemoryMetadataProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Metadata Injection of every setting of the four transforms through Hop's own BeanInjector, as
 * the Metadata Injection transform does it: each injection key sets exactly its own setting.
 */
class MetadataInjectionTest {

  @BeforeAll
  static void hop() {
    HopTestEnvironment.init();
  }

  @Test
  void eventFileInputTakesEverySettingByItsOwnKey() throws Exception {
    Injection<EventFileInputMeta> injection = new Injection<>(EventFileInputMeta.class);
    EventFileInputMeta meta = new EventFileInputMeta();
    meta.setDefault();
    injection.set(meta, "FILE_NAME", "${DATA}/a.csv", "${DATA}/more");
    injection.set(meta, "FILE_MASK", null, ".*\\.csv");
    injection.set(meta, "FORMAT", "csv");
    injection.set(meta, "CSV_DELIMITER", ";");
    injection.set(meta, "CSV_HEADER", "N");
    injection.set(meta, "FIELD_NAME", "user", "ts");
    injection.set(meta, "FIELD_TYPE", "String", "Timestamp");
    injection.set(meta, "FIELD_TIME_FORMAT", null, "dd/MM/yyyy HH:mm");
    injection.set(meta, "TIME_ZONE", "Europe/Paris");
    injection.set(meta, "FILENAME_FIELD", "file");
    injection.set(meta, "LINE_NUMBER_FIELD", "line");
    injection.set(meta, "FOLLOW", "Y");
    injection.set(meta, "FOLLOW_IDLE_STOP", "30 SECOND");

    injection.assertEveryKeyWasInjected();
    assertThat(meta.getFiles()).extracting(InputFile::getName, InputFile::getMask)
        .containsExactly(tuple("${DATA}/a.csv", null), tuple("${DATA}/more", ".*\\.csv"));
    assertThat(meta.getFields()).extracting(InputField::getName, InputField::getType, InputField::getFormat)
        .containsExactly(tuple("user", "String", null), tuple("ts", "Timestamp", "dd/MM/yyyy HH:mm"));
    assertThat(List.of(meta.getFormat(), meta.getCsvDelimiter(), meta.getTimeZone(), meta.getFilenameField(),
        meta.getLineNumberField())).containsExactly("csv", ";", "Europe/Paris", "file", "line");
    assertThat(meta.isCsvHeader()).isFalse();
    assertThat(meta.isFollow()).isTrue();
    assertThat(meta.getFollowIdleStop()).isEqualTo("30 SECOND");
  }

  @Test
  void eventTimeStampTakesEverySettingByItsOwnKey() throws Exception {
    Injection<EventTimeStampMeta> injection = new Injection<>(EventTimeStampMeta.class);
    EventTimeStampMeta meta = new EventTimeStampMeta();
    meta.setDefault();
    injection.set(meta, "TIME_FIELD", "ts");
    injection.set(meta, "TIME_FORMAT", "dd/MM/yyyy HH:mm");
    injection.set(meta, "EPOCH_UNIT", "seconds");
    injection.set(meta, "TIME_ZONE", "Europe/Paris");
    injection.set(meta, "OUTPUT_FIELD", "event_time");

    injection.assertEveryKeyWasInjected();
    assertThat(List.of(meta.getTimeField(), meta.getTimeFormat(), meta.getEpochUnit(), meta.getTimeZone(),
        meta.getOutputField())).containsExactly("ts", "dd/MM/yyyy HH:mm", "seconds", "Europe/Paris", "event_time");
  }

  @Test
  void eventTimeWindowTakesEverySettingByItsOwnKey() throws Exception {
    Injection<EventTimeWindowMeta> injection = new Injection<>(EventTimeWindowMeta.class);
    EventTimeWindowMeta meta = new EventTimeWindowMeta();
    meta.setDefault();
    meta.setAggregates(new ArrayList<>());
    injection.set(meta, "TIME_FIELD", "ts");
    injection.set(meta, "TIME_FORMAT", "yyyy-MM-dd HH:mm:ss");
    injection.set(meta, "EPOCH_UNIT", "seconds");
    injection.set(meta, "TIME_ZONE", "Europe/Paris");
    injection.set(meta, "WINDOW_KIND", "hopping");
    injection.set(meta, "WINDOW_SIZE", "${SIZE}");
    injection.set(meta, "WINDOW_SLIDE", "20 SECONDS");
    injection.set(meta, "SESSION_GAP", "7 MINUTES");
    injection.set(meta, "WINDOW_OFFSET", "5 SECONDS");
    injection.set(meta, "GROUP_FIELD", "user", "file");
    injection.set(meta, "AGGREGATE_FIELD", null, "line");
    injection.set(meta, "AGGREGATE_TYPE", "count", "count distinct");
    injection.set(meta, "AGGREGATE_OUTPUT", "n", "lines");
    injection.set(meta, "WINDOW_START_FIELD", "from");
    injection.set(meta, "WINDOW_END_FIELD", "to");
    injection.set(meta, "WATERMARK_DELAY", "2 MINUTES");
    injection.set(meta, "LATE_POLICY", "event");
    injection.set(meta, "LATE_TARGET", "late");
    injection.set(meta, "LATE_REASON_FIELD", "why");
    injection.set(meta, "IDLE_TIMEOUT", "30 SECONDS");
    injection.set(meta, "STATE_FOLDER", "${STATE}/window");
    injection.set(meta, "PARTITION_FIELD", "_partition");
    injection.set(meta, "PARTITIONS", "${PARTITIONS}");
    injection.set(meta, "OFFSET_FIELD", "_offset");

    injection.assertEveryKeyWasInjected();
    assertThat(List.of(meta.getTimeField(), meta.getTimeFormat(), meta.getEpochUnit(), meta.getTimeZone(),
        meta.getWindowKind(), meta.getWindowSize(), meta.getWindowSlide(), meta.getSessionGap(),
        meta.getWindowOffset(), meta.getWindowStartField(), meta.getWindowEndField(), meta.getWatermarkDelay(),
        meta.getLatePolicy(), meta.getLateTargetTransform(), meta.getLateReasonField(), meta.getIdleTimeout(),
        meta.getStateFolder())).containsExactly("ts", "yyyy-MM-dd HH:mm:ss", "seconds", "Europe/Paris", "hopping",
        "${SIZE}", "20 SECONDS", "7 MINUTES", "5 SECONDS", "from", "to", "2 MINUTES", "event", "late", "why",
        "30 SECONDS", "${STATE}/window");
    assertThat(List.of(meta.getPartitionField(), meta.getPartitions(), meta.getOffsetField()))
        .containsExactly("_partition", "${PARTITIONS}", "_offset");
    assertThat(meta.getGroupFields()).extracting(GroupField::getName).containsExactly("user", "file");
    assertThat(meta.getAggregates()).extracting(WindowAggregate::getField, WindowAggregate::getAggregate,
        WindowAggregate::getOutputName).containsExactly(tuple(null, "count", "n"), tuple("line", "count distinct", "lines"));
  }

  @Test
  void eventFileOutputTakesEverySettingByItsOwnKey() throws Exception {
    Injection<EventFileOutputMeta> injection = new Injection<>(EventFileOutputMeta.class);
    EventFileOutputMeta meta = new EventFileOutputMeta();
    meta.setDefault();
    injection.set(meta, "FILENAME", "${OUT}/windows.csv");
    injection.set(meta, "FORMAT", "csv");
    injection.set(meta, "CSV_DELIMITER", "\\t");
    injection.set(meta, "CSV_HEADER", "N");
    injection.set(meta, "APPEND", "Y");
    injection.set(meta, "CREATE_PARENT_FOLDER", "N");
    injection.set(meta, "FIELD_NAME", "user", "n");

    injection.assertEveryKeyWasInjected();
    assertThat(List.of(meta.getFilename(), meta.getFormat(), meta.getCsvDelimiter()))
        .containsExactly("${OUT}/windows.csv", "csv", "\\t");
    assertThat(List.of(meta.isCsvHeader(), meta.isAppend(), meta.isCreateParentFolder()))
        .containsExactly(false, true, false);
    assertThat(meta.getFields()).extracting(OutputField::getName).containsExactly("user", "n");
  }

  @Test
  void eventKafkaInputTakesEverySettingByItsOwnKey() throws Exception {
    Injection<EventKafkaInputMeta> injection = new Injection<>(EventKafkaInputMeta.class);
    EventKafkaInputMeta meta = new EventKafkaInputMeta();
    meta.setDefault();
    injection.set(meta, "BOOTSTRAP_SERVERS", "${KAFKA}");
    injection.set(meta, "TOPIC", "events");
    injection.set(meta, "CONSUMER_GROUP", "hop");
    injection.set(meta, "START_POSITION", "latest");
    injection.set(meta, "STOP_WHEN_CAUGHT_UP", "Y");
    injection.set(meta, "CONNECTION_TIMEOUT", "5 SECONDS");
    injection.set(meta, "VALUE_FORMAT", "json");
    injection.set(meta, "FIELD_NAME", "user", "ts");
    injection.set(meta, "FIELD_TYPE", "String", "Timestamp");
    injection.set(meta, "FIELD_TIME_FORMAT", null, "yyyy-MM-dd HH:mm:ss");
    injection.set(meta, "TIME_ZONE", "Europe/Paris");
    injection.set(meta, "VALUE_FIELD", "text");
    injection.set(meta, "PARTITION_FIELD", "p");
    injection.set(meta, "OFFSET_FIELD", "o");
    injection.set(meta, "TIMESTAMP_FIELD", "t");
    injection.set(meta, "KEY_FIELD", "k");

    injection.assertEveryKeyWasInjected();
    assertThat(List.of(meta.getBootstrapServers(), meta.getTopic(), meta.getConsumerGroup(), meta.getStartPosition(),
        meta.getConnectionTimeout(), meta.getValueFormat(), meta.getTimeZone(), meta.getValueField(),
        meta.getPartitionField(), meta.getOffsetField(), meta.getTimestampField(), meta.getKeyField()))
        .containsExactly("${KAFKA}", "events", "hop", "latest", "5 SECONDS", "json", "Europe/Paris", "text", "p", "o",
            "t", "k");
    assertThat(meta.isStopWhenCaughtUp()).isTrue();
    assertThat(meta.getFields()).extracting(KafkaField::getName, KafkaField::getType, KafkaField::getFormat)
        .containsExactly(tuple("user", "String", null), tuple("ts", "Timestamp", "yyyy-MM-dd HH:mm:ss"));
  }

  @Test
  void everyInjectionKeyIsUniqueAndDescribedInTheMessages() {
    for (Class<?> meta : List.of(EventFileInputMeta.class, EventKafkaInputMeta.class, EventTimeStampMeta.class,
        EventTimeWindowMeta.class, EventFileOutputMeta.class)) {
      BeanInjectionInfo<?> info = new BeanInjectionInfo<>(meta);
      List<String> keys = info.getGroups().stream().flatMap(g -> g.getProperties().stream())
          .map(BeanInjectionInfo.Property::getKey).toList();
      assertThat(keys).as(meta.getSimpleName() + " injection keys").doesNotHaveDuplicates()
          .hasSameSizeAs(info.getProperties().keySet());
      info.getGroups().stream().flatMap(g -> g.getProperties().stream()).forEach(p ->
          assertThat(p.getTranslatedDescription()).as(meta.getSimpleName() + " " + p.getKey())
              .isNotBlank().doesNotStartWith("!"));
      info.getGroups().stream().filter(g -> !g.getKey().isEmpty()).forEach(g ->
          assertThat(g.getTranslatedDescription()).as(meta.getSimpleName() + " group " + g.getKey())
              .isNotBlank().doesNotStartWith("!"));
      assertEveryPropertyNamesItsInjectionKey(meta);
    }
  }

  /** Each setting and each field of a listed item names its key and description; a list names its group. */
  private static void assertEveryPropertyNamesItsInjectionKey(Class<?> type) {
    for (Field field : type.getDeclaredFields()) {
      HopMetadataProperty property = field.getAnnotation(HopMetadataProperty.class);
      if (property == null) {
        continue;
      }
      String where = type.getSimpleName() + "." + field.getName();
      if (List.class.equals(field.getType())) {
        assertThat(List.of(property.injectionGroupKey(), property.injectionGroupDescription())).as(where)
            .allMatch(s -> !Utils.isEmpty(s));
        assertEveryPropertyNamesItsInjectionKey(
            (Class<?>) ((ParameterizedType) field.getGenericType()).getActualTypeArguments()[0]);
      } else {
        assertThat(List.of(property.injectionKey(), property.injectionKeyDescription())).as(where)
            .allMatch(s -> !Utils.isEmpty(s));
      }
    }
  }

  /** Hop's bean injection of one transform's settings, one String value a row, and the keys used. */
  private static final class Injection<T> {
    private final BeanInjectionInfo<T> info;
    private final BeanInjector<T> injector;
    private final Set<String> injected = new LinkedHashSet<>();

    Injection(Class<T> meta) {
      info = new BeanInjectionInfo<>(meta);
      injector = new BeanInjector<>(info, new MemoryMetadataProvider());
    }

    /** A setting takes one value; a field of a listed item takes one a row, the rows in order. */
    void set(T meta, String key, String... values) throws Exception {
      List<RowMetaAndData> rows = new ArrayList<>();
      Arrays.stream(values).forEach(v -> {
        RowMetaAndData row = new RowMetaAndData();
        row.addValue(new ValueMetaString("value"), v);
        rows.add(row);
      });
      injector.setProperty(meta, key, rows, "value");
      injected.add(key);
    }

    void assertEveryKeyWasInjected() {
      assertThat(injected).containsExactlyInAnyOrderElementsOf(info.getProperties().keySet());
    }
  }
}
